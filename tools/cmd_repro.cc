// `shakedown repro`: decode fuzz inputs to their plans, run them on every backend, name who diverges.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "shakedown/shakedown.h"
#if SHAKEDOWN_HAVE_FUZZ_CORE
#include "run_context.h"
#include "targets.h"
#endif

namespace shakedown::cli {

#if !SHAKEDOWN_HAVE_FUZZ_CORE

int repro(Args) {
  std::fprintf(stderr, "shakedown repro: this build has no fuzz core (configure with tests or fuzz enabled)\n");
  return kUsage;
}

#else

namespace {

namespace fs = std::filesystem;

struct ReproOptions {
  const fuzz::Target* target = nullptr;  // null: inferred per file
  std::optional<fs::path> save_root;     // corpus root; the case goes to <root>/<target>/
  std::vector<std::string> files;
};

[[noreturn]] void usage(const std::string& message) {
  std::string names;
  for (const auto& t : fuzz::all_targets()) names += "\n    " + std::string(t.name) + ": " + std::string(t.what);
  throw std::invalid_argument(message +
                              "\nusage: shakedown repro [--target T] [--save[=CORPUS_DIR]] FILE...\n"
                              "  --target T  decode as target T (default: inferred from the file's folder or\n"
                              "              name, else fuzz_hash); targets:" + names + "\n"
                              "  --save      also write each decodable case into the corpus as a regression\n"
                              "              input: CORPUS_DIR/<target>/regress-<sha256 prefix> (default\n"
                              "              CORPUS_DIR: " SHAKEDOWN_SOURCE_DIR "/fuzz/corpus)");
}

ReproOptions parse(Args args) {
  ReproOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--target" || a.starts_with("--target=")) {
      std::string_view value = a == "--target" ? (i + 1 < args.size() ? args[++i] : "") : a.substr(9);
      o.target = fuzz::find_target(value);
      if (!o.target) usage("unknown target '" + std::string(value) + "'");
    } else if (a == "--save") {
      o.save_root = fs::path(SHAKEDOWN_SOURCE_DIR) / "fuzz" / "corpus";
    } else if (a.starts_with("--save=")) {
      o.save_root = fs::path(a.substr(7));
    } else if (a.starts_with("-") && a != "-") {
      usage("unknown option '" + std::string(a) + "'");
    } else {
      o.files.emplace_back(a);
    }
  }
  if (o.files.empty()) usage("no input file given");
  return o;
}

// The target whose name appears in the file's folder ("corpus/fuzz_blocks/x") or file name
// ("fuzz_api-crash-<sha1>", as the fuzz.run tests name artifacts); fuzz_hash otherwise.
const fuzz::Target& infer_target(const fs::path& file) {
  const std::string folder = file.parent_path().filename().string(), base = file.filename().string();
  for (const auto& t : fuzz::all_targets())
    if (folder == t.name || base.starts_with(std::string(t.name) + "-")) return t;
  return *fuzz::find_target("fuzz_hash");
}

std::optional<std::vector<std::uint8_t>> read_input(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    error = fs::exists(path, ec) ? "not a regular file" : "no such file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open for reading";
    return std::nullopt;
  }
  std::vector<std::uint8_t> data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  return data;
}

// Writes the case as <root>/<target>/regress-<first 16 hex digits of its SHA-256>: content-named,
// so saving the same crash twice keeps one file.
bool save(const fs::path& root, const fuzz::Target& t, const std::vector<std::uint8_t>& data) {
  const std::vector<std::uint8_t> id = hash(Algorithm::sha256, data);
  const fs::path dir = root / std::string(t.name);
  const fs::path file = dir / ("regress-" + fuzz::to_hex(std::span(id).first(8)));
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (ec || !out) {
    std::fprintf(stderr, "shakedown repro: cannot write %s\n", file.string().c_str());
    return false;
  }
  std::printf("saved as regression input %s\n", file.string().c_str());
  return true;
}

}  // namespace

int repro(Args args) {
  const ReproOptions o = parse(args);
  fuzz::initialize(true);
  int status = kOk;
  for (const std::string& path : o.files) {
    const fuzz::Target& target = o.target ? *o.target : infer_target(path);
    std::string error;
    auto data = read_input(path, error);
    if (data && data->empty()) error = "empty file (0 bytes): not a fuzz input";
    if (!error.empty()) {
      std::fprintf(stderr, "shakedown repro: %s: %s\n", path.c_str(), error.c_str());
      status = std::max(status, kUsage);
      continue;
    }
    fuzz::Outcome outcome = target.run(*data, true);
    if (!outcome.decoded) {
      std::fprintf(stderr, "shakedown repro: %s: does not decode as a %s plan: %s\n", path.c_str(),
                   std::string(target.name).c_str(), outcome.why_not.c_str());
      status = std::max(status, kUsage);
      continue;
    }
    std::printf("%s (%zu bytes, target %s)\n%s", path.c_str(), data->size(), std::string(target.name).c_str(),
                fuzz::format_report(outcome.verdict, outcome.plan_description).c_str());
    if (outcome.verdict.ok()) {
      std::printf("RESULT %s: OK, %zu run(s) agree\n\n", path.c_str(), outcome.verdict.agreeing.size());
    } else {
      std::string who;
      for (const auto& d : outcome.verdict.divergences) who += (who.empty() ? "" : "; ") + d.run;
      std::printf("RESULT %s: MISMATCH in %s\n\n", path.c_str(), who.c_str());
      status = std::max(status, kMismatch);
    }
    if (o.save_root && !save(*o.save_root, target, *data)) status = std::max(status, kUsage);
  }
  return status;
}

#endif

}  // namespace shakedown::cli
