// shakedown-repro: decodes fuzz inputs (crash files, corpus entries) to their plans, runs them on every
// backend and names the one that diverges. A verification tool: it links the fuzz core, the OpenSSL oracle
// and the emulators and honours SHAKEDOWN_EMULATE / SHAKEDOWN_TEST_ASSUME (set from the environment a crash file
// names, or --env), so it is built with the fuzz targets and never installed (the installed `shakedown` has none of
// this).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.h"
#include "diagnostics.h"
#include "input_file.h"
#include "repro_environment.h"
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

// 3 is initialize()'s: the environment's expected selection was not met (SHAKEDOWN_EXPECT_SELECTED).
constexpr int kOk = 0, kMismatch = 1, kTrouble = 2, kUndecodable = 4;

// Where this build's configure wrote its resolved plan (cmake/Matrix.cmake); empty in builds without the tests.
constexpr const char* kDefaultPlan = SHAKEDOWN_REPRO_PLAN;

std::string target_list() {
  std::string names;
  for (const Target& t : all_targets()) names += "\n    " + std::string(t.name) + ": " + std::string(t.what);
  return names;
}

std::string usage_text() {
  return "Usage: shakedown-repro [--target TARGET] [--env NAME] [--plan FILE] [--save CORPUS_DIR] FILE...\n"
         "Decode each fuzz input FILE into its plan, run it on every backend and OpenSSL, and name the runs\n"
         "that disagree.\n"
         "\n"
         "  --target TARGET    decode as TARGET; by default the target named in the file's name\n"
         "                     (fuzz-<env>-<target>-crash-..., <target>-crash-...) or, for crash-... files,\n"
         "                     in its folder's name (corpus/<target>/, an artifact folder named after it);\n"
         "                     when neither names one, the input is decoded and run as every target\n"
         "  --env NAME         replay in environment NAME of ci/matrix/<arch>.txt: its profile\n"
         "                     (SHAKEDOWN_EMULATE, SHAKEDOWN_TEST_ASSUME, ...) from the build's plan; by\n"
         "                     default the environment a fuzz-<env>-<target>-crash-... name gives\n"
         "  --plan FILE        the resolved plan to look environments up in (default: this build's,\n"
         "                     " +
         std::string(*kDefaultPlan ? kDefaultPlan : "none in this build") +
         ")\n"
         "  --save CORPUS_DIR  also write each decodable input to CORPUS_DIR/<target>/regress-<sha256 prefix>\n"
         "                     (a regression input; use fuzz/corpus of the source tree to check it in)\n"
         "      --help         display this help and exit\n"
         "      --version      output version information and exit\n"
         "\n"
         "Targets:" +
         target_list() +
         "\n"
         "\n"
         "Exit status (with several files, the highest): 0 every run agrees, 1 a run disagrees, 2 an unreadable\n"
         "file, an unknown environment or a bad command line, 3 the environment's expected backends were not\n"
         "selected, 4 an empty file or one its target (every target, when none is named) does not decode.\n"
         "SHAKEDOWN_EMULATE and SHAKEDOWN_TEST_ASSUME add emulated backends (fuzz/README.md); an environment's\n"
         "profile sets them.\n";
}

struct Options {
  const Target* target = nullptr;  // null: chosen per file
  std::string env;                 // --env; empty: from the file names
  std::string plan = kDefaultPlan;
  std::optional<fs::path> save_root;
  std::vector<std::string> files;
  bool help = false, version = false;
};

Options parse(std::span<const std::string_view> args) {
  enum { kTarget, kEnv, kPlan, kSave, kHelp, kVersion };
  static constexpr cli::OptionSpec kSpecs[] = {
      {kTarget, 0, "target", true}, {kEnv, 0, "env", true},    {kPlan, 0, "plan", true},
      {kSave, 0, "save", true},     {kHelp, 0, "help", false}, {kVersion, 0, "version", false},
  };
  const cli::CommandLine cl = cli::parse_command_line(args, kSpecs);
  Options o;
  for (const cli::ParsedOption& opt : cl.options) {
    if (opt.id == kTarget) {
      o.target = find_target(opt.value);
      if (!o.target)
        throw UsageError("unknown target " + cli::quoted(opt.value, Quotes::always) + "; targets:" + target_list());
    } else if (opt.id == kEnv) {
      if (opt.value.empty()) throw UsageError("--env needs an environment name");
      o.env = opt.value;
    } else if (opt.id == kPlan) {
      if (opt.value.empty()) throw UsageError("--plan needs a file");
      o.plan = opt.value;
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
  const Target* target;  // null: guessed, every target's decoder runs
  std::string how;       // "from the file name", "from the folder name", "as given"
};

// The one target a name mentions; nullptr for none; a UsageError when it mentions several.
const Target* target_named_in(const std::string& name, const std::string& file) {
  const Target* found = nullptr;
  for (const Target& t : all_targets()) {
    if (!names_target(name, t.name)) continue;
    if (found)
      throw UsageError(cli::quoted(file) + ": the name mentions both " + std::string(found->name) + " and " +
                       std::string(t.name) + "; choose with --target");
    found = &t;
  }
  return found;
}

// The file's own name first (fuzz-<label>-crash-..., <target>-crash-...: libFuzzer's -artifact_prefix as the
// ctest entries and the CI driver's time-boxed runs set it), then its folder's (corpus/<target>/, artifact folders).
// libFuzzer's own crash-<sha1> in the current folder names no target: then every target's decoder runs, since
// replaying it as one target would call another target's crash "OK".
Choice choose_target(const Options& o, const std::string& file) {
  if (o.target) return {o.target, "as given"};
  const fs::path path(file);
  if (const Target* t = target_named_in(path.filename().string(), file)) return {t, "from the file name"};
  if (const Target* t = target_named_in(path.parent_path().filename().string(), file))
    return {t, "from the folder name"};
  return {nullptr, "guessed"};
}

// The environment of the run: --env, else the one the file names agree on (a process has one environment).
std::string environment_of(const Options& o) {
  if (!o.env.empty()) return o.env;
  std::string env, from;
  for (const std::string& file : o.files) {
    const Choice choice = choose_target(o, file);
    if (!choice.target) continue;
    const std::string named = environment_in_name(fs::path(file).filename().string(), choice.target->name);
    if (named.empty()) continue;
    if (!env.empty() && named != env)
      throw UsageError(cli::quoted(from) + " comes from environment " + cli::quoted(env, Quotes::always) + " and " +
                       cli::quoted(file) + " from " + cli::quoted(named, Quotes::always) +
                       ": replay them one at a time, or choose with --env");
    env = named;
    from = file;
  }
  return env;
}

// Sets up the environment's profile before the backends are selected; says what it set.
void set_up(const Options& o) {
  const std::string name = environment_of(o);
  if (name.empty()) return;
  std::string_view target = o.target ? o.target->name : std::string_view();
  if (o.env.empty() && o.files.size() == 1) {
    if (const Target* t = choose_target(o, o.files[0]).target) target = t->name;
  }
  ReproEnvironment env;
  try {
    env = lookup_environment(o.plan, name, target);
  } catch (const std::exception& e) {
    throw UsageError(std::string("environment ") + cli::quoted(name, Quotes::always) + ": " + e.what());
  }
  std::string set;
  for (const auto& [variable, value] : env.variables) {
    ::setenv(variable.c_str(), value.c_str(), 1);
    set += " " + variable + "=" + value;
  }
  report("environment " + cli::quoted(name, Quotes::always) + (o.env.empty() ? " (from the file name)" : "") + ": " +
         (set.empty() ? std::string("no variables: the build's own environment") : set.substr(1)));
  if (!env.runner.empty()) {
    std::string runner;
    for (const std::string& w : env.runner) runner += (runner.empty() ? "" : " ") + w;
    report("environment " + cli::quoted(name, Quotes::always) + " runs under '" + runner +
           "': start this command under it to replay on that CPU model (ci/verify's hint does)");
  }
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

// The report of one target's run of the input, and its RESULT line; kOk, kMismatch, or kUndecodable.
int replay_as(const Target& target, const std::vector<std::uint8_t>& data, const std::string& shown,
              const std::string& how, std::string& mismatched) {
  Outcome outcome = target.run(data, true);
  const std::string as = std::string(target.name);
  if (!outcome.decoded) {
    report(shown + ": does not decode as a " + as + " plan: " + outcome.why_not);
    return kUndecodable;
  }
  std::printf("%s (%zu bytes, target %s, %s)\n%s", shown.c_str(), data.size(), as.c_str(), how.c_str(),
              format_report(outcome.verdict, outcome.plan_description).c_str());
  if (outcome.verdict.ok()) {
    std::printf("RESULT %s as %s: OK, %zu run(s) agree\n\n", shown.c_str(), as.c_str(),
                outcome.verdict.agreeing.size());
    return kOk;
  }
  std::string who;
  for (const auto& d : outcome.verdict.divergences) who += (who.empty() ? "" : "; ") + d.run;
  std::printf("RESULT %s as %s: MISMATCH in %s\n\n", shown.c_str(), as.c_str(), who.c_str());
  mismatched += (mismatched.empty() ? "" : ", ") + as;
  return kMismatch;
}

int replay(const Options& o, const std::string& path) {
  const Choice choice = choose_target(o, path);
  const std::string shown = cli::quoted(path);
  std::string error;
  auto data = read_input(path, error);
  if (!data) {
    report(shown + ": " + error);
    return kTrouble;
  }
  if (data->empty()) {  // no target's decoder takes it
    report(shown + ": empty file (0 bytes): not a fuzz input");
    return kUndecodable;
  }
  std::vector<const Target*> targets = {choice.target};
  if (!choice.target) {
    report(shown +
           ": no target named: neither the file's name nor its folder's names one, so it runs as every "
           "target (use --target to choose)");
    targets.clear();
    for (const Target& t : all_targets()) targets.push_back(&t);
  }
  std::string mismatched;
  std::vector<const Target*> decoded;
  for (const Target* t : targets)
    if (replay_as(*t, *data, shown, choice.target ? choice.how : "guessed: one of every target", mismatched) !=
        kUndecodable)
      decoded.push_back(t);
  if (decoded.empty()) {
    if (!choice.target) report(shown + ": no target decodes it: not a fuzz input");
    return kUndecodable;
  }
  const int status = mismatched.empty() ? kOk : kMismatch;
  if (!choice.target)
    std::printf("RESULT %s: %s (decoded as %zu of %zu targets; the target was guessed)\n\n", shown.c_str(),
                mismatched.empty() ? "OK as every target" : ("MISMATCH as " + mismatched).c_str(), decoded.size(),
                targets.size());
  if (!o.save_root) return status;
  bool saved = false, failed = false;
  for (const Target* t : decoded) {
    // A guessed target is saved only as a target that found a mismatch: anything else is a guess about the corpus.
    if (!choice.target && !names_target(mismatched, t->name)) continue;
    (save(*o.save_root, *t, *data) ? saved : failed) = true;
  }
  if (!saved && !failed)
    report(shown + ": not saved: no target was named and none found a mismatch; choose with --target");
  return failed || !saved ? kTrouble : status;
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
  set_up(o);
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
