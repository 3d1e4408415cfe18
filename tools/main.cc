// `shakedown`: command-line front end of the library and its verification machinery.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "shakedown/error.h"

namespace {

constexpr const char* kUsageText =
    "usage: shakedown COMMAND [ARGS]\n"
    "  sum [-a ALG] [-b BACKEND] [-l LEN] [FILE...]   print digests (stdin when no FILE or '-')\n"
    "  check [-a ALG] [-b BACKEND] LISTFILE...        verify 'DIGEST  FILE' lines from sum\n"
    "  backends                                       compiled backends, availability, CPU features\n"
    "  repro [--target T] [--save[=DIR]] FILE...      replay fuzz inputs on every backend\n"
    "  help                                           this text\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsageText, stderr);
    return shakedown::cli::kUsage;
  }
  const std::string_view command = argv[1];
  const std::vector<std::string_view> args(argv + 2, argv + argc);
  try {
    if (command == "sum") return shakedown::cli::sum(args);
    if (command == "check") return shakedown::cli::check(args);
    if (command == "backends") return shakedown::cli::backends(args);
    if (command == "repro") return shakedown::cli::repro(args);
    if (command == "help" || command == "--help" || command == "-h") {
      std::fputs(kUsageText, stdout);
      return shakedown::cli::kOk;
    }
    std::fprintf(stderr, "shakedown: unknown command '%s'\n%s", argv[1], kUsageText);
  } catch (const shakedown::Error& e) {
    std::fprintf(stderr, "shakedown %s: %s (Errc::%s)\n", argv[1], e.what(),
                 std::string(shakedown::errc_name(e.code())).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shakedown %s: %s\n", argv[1], e.what());
  }
  return shakedown::cli::kUsage;
}
