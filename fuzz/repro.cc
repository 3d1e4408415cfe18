// shakedown-repro: decodes fuzz inputs (crash files, corpus entries) to their plans, runs them on every
// backend and names the one that diverges. A verification tool: it links the fuzz core, the OpenSSL oracle
// and the emulators and honours SHAKEDOWN_EMULATE / SHAKEDOWN_TEST_ASSUME, so it is built with the fuzz
// targets and never installed (the installed `shakedown` has none of this).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "command_line.h"
#include "diagnostics.h"
#include "input_file.h"
#include "run_context.h"
#include "shakedown/shakedown.h"
#include "targets.h"
#include "terminal_text.h"

namespace shakedown::fuzz {
namespace {

namespace fs = std::filesystem;
using cli::Quotes;
using cli::report;
using cli::UsageError;

constexpr int kOk = 0, kMismatch = 1, kTrouble = 2;

std::string target_list() {
  std::string names;
  for (const Target& t : all_targets()) names += "\n    " + std::string(t.name) + ": " + std::string(t.what);
  return names;
}

std::string usage_text() {
  return "Usage: shakedown-repro [--target TARGET] [--save CORPUS_DIR] FILE...\n"
         "Decode each fuzz input FILE into its plan, run it on every backend and OpenSSL, and name the runs\n"
         "that disagree.\n"
         "\n"
         "  --target TARGET    decode as TARGET; by default the target named in the file's name\n"
         "                     (fuzz-<label>-<target>-crash-..., <target>-crash-...) or, for crash-... files,\n"
         "                     in its folder's name (corpus/<target>/, an artifact folder named after it);\n"
         "                     otherwise fuzz_hash, and the output says it was guessed\n"
         "  --save CORPUS_DIR  also write each decodable input to CORPUS_DIR/<target>/regress-<sha256 prefix>\n"
         "                     (a regression input; use fuzz/corpus of the source tree to check it in)\n"
         "      --help         display this help and exit\n"
         "      --version      output version information and exit\n"
         "\n"
         "Targets:" + target_list() + "\n"
         "\n"
         "Exit status: 0 every run agrees, 1 a run disagrees, 2 an unreadable, empty or undecodable file or a\n"
         "bad command line. SHAKEDOWN_EMULATE and SHAKEDOWN_TEST_ASSUME add emulated backends (fuzz/README.md).\n";
}

struct Options {
  const Target* target = nullptr;  // null: chosen per file
  std::optional<fs::path> save_root;
  std::vector<std::string> files;
  bool help = false, version = false;
};

Options parse(std::span<const std::string_view> args) {
  enum { kTarget, kSave, kHelp, kVersion };
  static constexpr cli::OptionSpec kSpecs[] = {
      {kTarget, 0, "target", true},
      {kSave, 0, "save", true},
      {kHelp, 0, "help", false},
      {kVersion, 0, "version", false},
  };
  const cli::CommandLine cl = cli::parse_command_line(args, kSpecs);
  Options o;
  for (const cli::ParsedOption& opt : cl.options) {
    if (opt.id == kTarget) {
      o.target = find_target(opt.value);
      if (!o.target)
        throw UsageError("unknown target " + cli::quoted(opt.value, Quotes::always) + "; targets:" + target_list());
    } else if (opt.id == kSave) {
      if (opt.value.empty()) throw UsageError("--save needs a corpus folder");
      o.save_root = fs::path(opt.value);
    } else if (opt.id == kHelp) {
      o.help = true;
    } else {
      o.version = true;
    }
  }
  o.files = cl.operands;
  if (o.files.empty() && !o.help && !o.version) throw UsageError("no input file given");
  return o;
}

// Whether a target's name occurs in the text as a whole word: not inside a longer [A-Za-z0-9_] name.
bool names_target(std::string_view text, std::string_view target) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(target); at != std::string_view::npos; at = text.find(target, at + 1)) {
    const std::size_t end = at + target.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end]))) return true;
  }
  return false;
}

struct Choice {
  const Target* target;
  std::string how;  // "from the file name", "guessed"
};

// The one target a name mentions; nullptr for none; a UsageError when it mentions several.
const Target* target_named_in(const std::string& name, const std::string& file) {
  const Target* found = nullptr;
  for (const Target& t : all_targets()) {
    if (!names_target(name, t.name)) continue;
    if (found) throw UsageError(cli::quoted(file) + ": the name mentions both " + std::string(found->name) + " and " +
                                std::string(t.name) + "; choose with --target");
    found = &t;
  }
  return found;
}

// The file's own name first (fuzz-<label>-crash-..., <target>-crash-...: libFuzzer's -artifact_prefix as the
// ctest entries and the CI driver's time-boxed runs set it), then its folder's (corpus/<target>/, artifact folders).
Choice choose_target(const std::string& file) {
  const fs::path path(file);
  if (const Target* t = target_named_in(path.filename().string(), file)) return {t, "from the file name"};
  if (const Target* t = target_named_in(path.parent_path().filename().string(), file))
    return {t, "from the folder name"};
  return {find_target("fuzz_hash"), "guessed"};
}

// Writes the case as <root>/<target>/regress-<first 16 hex digits of its SHA-256>: content-named,
// so saving the same crash twice keeps one file.
bool save(const fs::path& root, const Target& t, const std::vector<std::uint8_t>& data) {
  const std::vector<std::uint8_t> id = hash(Algorithm::sha256, data);
  const fs::path dir = root / std::string(t.name);
  const fs::path file = dir / ("regress-" + to_hex(std::span(id).first(8)));
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::FILE* out = ec ? nullptr : std::fopen(file.c_str(), "wb");
  const bool written = out && std::fwrite(data.data(), 1, data.size(), out) == data.size();
  const bool closed = out && std::fclose(out) == 0;
  if (!written || !closed) {
    const std::string reason = ec ? ec.message() : std::string(std::strerror(errno));
    report("cannot write " + cli::quoted(file.string()) + ": " + reason);
    return false;
  }
  std::printf("saved as regression input %s\n", file.c_str());
  return true;
}

int replay(const Options& o, const std::string& path) {
  const Choice choice = o.target ? Choice{o.target, "as given"} : choose_target(path);
  const Target& target = *choice.target;
  const std::string shown = cli::quoted(path);
  if (choice.how == "guessed")
    report(shown + ": target " + std::string(target.name) +
           " guessed: neither the file's name nor its folder's names a target; use --target to choose");
  std::string error;
  auto data = read_input(path, error);
  if (data && data->empty()) error = "empty file (0 bytes): not a fuzz input";
  if (!data || !error.empty()) {
    report(shown + ": " + error);
    return kTrouble;
  }
  Outcome outcome = target.run(*data, true);
  if (!outcome.decoded) {
    report(shown + ": does not decode as a " + std::string(target.name) + " plan: " + outcome.why_not);
    return kTrouble;
  }
  std::printf("%s (%zu bytes, target %s, %s)\n%s", shown.c_str(), data->size(), std::string(target.name).c_str(),
              choice.how.c_str(), format_report(outcome.verdict, outcome.plan_description).c_str());
  int status = kOk;
  if (outcome.verdict.ok()) {
    std::printf("RESULT %s: OK, %zu run(s) agree\n\n", shown.c_str(), outcome.verdict.agreeing.size());
  } else {
    std::string who;
    for (const auto& d : outcome.verdict.divergences) who += (who.empty() ? "" : "; ") + d.run;
    std::printf("RESULT %s: MISMATCH in %s\n\n", shown.c_str(), who.c_str());
    status = kMismatch;
  }
  if (o.save_root && !save(*o.save_root, target, *data)) status = kTrouble;
  return status;
}

int run(std::span<const std::string_view> args) {
  const Options o = parse(args);
  if (o.help) {
    std::fputs(usage_text().c_str(), stdout);
    return kOk;
  }
  if (o.version) {
    std::printf("shakedown-repro %s\n", SHAKEDOWN_VERSION);
    return kOk;
  }
  initialize(true);
  int status = kOk;
  for (const std::string& path : o.files) status = std::max(status, replay(o, path));
  return status;
}

}  // namespace
}  // namespace shakedown::fuzz

int main(int argc, char** argv) {
  shakedown::cli::set_program_name("shakedown-repro");
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  int status = shakedown::fuzz::kTrouble;
  try {
    status = shakedown::fuzz::run(args);
  } catch (const shakedown::cli::UsageError& e) {
    shakedown::cli::report(e.what());
    std::fputs("Try 'shakedown-repro --help' for more information.\n", stderr);
  }
  if (!shakedown::cli::close_stdout() && status == shakedown::fuzz::kOk) status = shakedown::fuzz::kTrouble;
  return status;
}
