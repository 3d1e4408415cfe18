// `shakedown`: the installed command-line front end of the library (sum, check, backends). Test machinery
// (the fuzz core, the OpenSSL oracle, the emulators, test-only environment overrides) is not linked in:
// crash reproduction is the separate shakedown-repro tool (fuzz/repro.cc).
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "command_line.h"
#include "commands.h"
#include "diagnostics.h"
#include "shakedown/algorithm.h"
#include "shakedown/error.h"
#include "terminal_text.h"

namespace shakedown::cli {
namespace {

constexpr const char* kUsageText =
    "Usage: shakedown COMMAND [ARG]...\n"
    "Hash files with the shakedown library and show which backend it runs.\n"
    "\n"
    "  sum [OPTION]... [FILE]...     print (or with -c check) digests, as sha256sum does\n"
    "  check [OPTION]... [LIST]...   check digests listed by sum or sha*sum (the same as sum -c)\n"
    "  backends                      compiled backends, which one each family selects and why\n"
    "  help [COMMAND]                this text, or COMMAND's (as COMMAND --help)\n"
    "\n"
    "Every command takes --help and --version. SHAKEDOWN_BACKENDS pins or excludes backends\n"
    "(e.g. SHAKEDOWN_BACKENDS=sha256=generic); a malformed value is an error.\n"
    "Called through a link named ALGsum (sha256sum, sha3-256sum, ...), it is 'shakedown sum -a ALG'.\n"
    "\n"
    "Full documentation: man shakedown\n";

bool is_command(std::string_view c) { return c == "sum" || c == "check" || c == "backends"; }

int run_command(std::string_view command, Args args) {
  if (command == "sum") return sum(args);
  if (command == "check") return check(args);
  return backends(args);
}

int run(const std::vector<std::string_view>& argv) {
  const std::string_view command = argv.empty() ? std::string_view() : argv[0];
  const Args args = Args(argv).subspan(argv.empty() ? 0 : 1);
  if (is_command(command)) {
    set_program_name("shakedown " + std::string(command));
    return run_command(command, args);
  }
  if (command == "--help" || command == "-h" || (command == "help" && (args.empty() || args[0] == "--help"))) {
    std::fputs(kUsageText, stdout);
    return kOk;
  }
  if (command == "--version") {
    print_version();
    return kOk;
  }
  if (command == "help") {
    if (args.size() != 1) throw UsageError("help takes one command name");
    if (!is_command(args[0])) throw UsageError("unknown command " + quoted(args[0], Quotes::always));
    set_program_name("shakedown " + std::string(args[0]));
    const std::string_view help[] = {"--help"};
    return run_command(args[0], help);
  }
  if (argv.empty()) throw UsageError("missing command");
  if (command == "repro")
    throw UsageError(
        "unknown command 'repro': crash reproduction is the shakedown-repro tool, built with the "
        "test and fuzz targets and not installed");
  throw UsageError("unknown command " + quoted(command, Quotes::always));
}

// The algorithm a program name such as sha256sum or sha3-256sum (a link to shakedown, as coreutils' tools are
// named) stands for: ALGsum for each algorithm `sum -a` knows by its name.
std::optional<Algorithm> algorithm_of_program(std::string_view argv0) {
  const std::size_t slash = argv0.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  if (!base.ends_with("sum")) return std::nullopt;
  for (Algorithm a : kAllAlgorithms)
    if (base.substr(0, base.size() - 3) == name(a)) return a;
  return std::nullopt;
}

}  // namespace

void print_version() { std::printf("shakedown %s\n", SHAKEDOWN_VERSION); }

}  // namespace shakedown::cli

int main(int argc, char** argv) {
  using namespace shakedown::cli;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  int status = kUsage;
  try {
    // sha256sum FILE... through a link: `shakedown sum -a sha256 FILE...`, with coreutils' name in its messages.
    const std::optional<shakedown::Algorithm> alg = argc > 0 ? algorithm_of_program(argv[0]) : std::nullopt;
    if (alg) {
      const std::string program(shakedown::name(*alg));
      set_program_name(program + "sum");
      args.insert(args.begin(), {"-a", shakedown::name(*alg)});
      status = sum(args);
    } else {
      status = run(args);
    }
  } catch (const UsageError& e) {
    report(e.what());
    std::fprintf(stderr, "Try '%s --help' for more information.\n", program_name().c_str());
  } catch (const shakedown::Error& e) {
    // The library's messages begin with "shakedown: " and may quote an environment value.
    std::string_view message = e.what();
    if (message.starts_with("shakedown: ")) message.remove_prefix(11);
    report(printable(message));
  } catch (const std::bad_alloc&) {
    report("out of memory");
    status = kFailure;
  } catch (const std::exception& e) {
    report("internal error: " + printable(e.what()));
    status = kFailure;
  }
  if (!close_stdout() && status == kOk) status = kFailure;
  return status;
}
