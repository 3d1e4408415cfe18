// GNU-style option parsing shared by the shakedown commands, and strict parsing of numeric option values.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace shakedown::cli {

// A bad command line; the message is ready to print (values already quoted). Exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  int id;
  char short_name;             // 0: none
  std::string_view long_name;  // empty: none
  bool takes_value;
  // --help, --version: parsing stops there and the rest of the line is not read, as getopt_long's callers exit
  // when they meet these; so "--help --bogus" is help, while "--bogus --help" is still an unrecognized option.
  bool ends_line = false;
};

struct ParsedOption {
  int id;
  std::string value;
};

struct CommandLine {
  std::vector<ParsedOption> options;  // in command-line order: the last of conflicting options wins
  std::vector<std::string> operands;
};

// Parses as getopt_long does: "-a V", "-aV", "--algorithm V", "--algorithm=V", clustered flags ("-cw"),
// unambiguous prefixes of long names ("--algo"), options after operands, "--" ends the options and "-" is an
// operand. Stops after an option marked ends_line. Throws UsageError for unknown, ambiguous or malformed options
// met before that.
CommandLine parse_command_line(std::span<const std::string_view> args, std::span<const OptionSpec> specs);

// A decimal count: digits only (no sign, base prefix, space or suffix), 1 <= value <= max. Throws
// UsageError naming `what` and the accepted range otherwise.
std::uint64_t parse_count(std::string_view text, std::uint64_t max, std::string_view what);

}  // namespace shakedown::cli
