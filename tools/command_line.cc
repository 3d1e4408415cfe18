// GNU-style option parsing (see command_line.h); messages follow getopt_long's wording.
#include "command_line.h"

#include "terminal_text.h"

namespace shakedown::cli {
namespace {

const OptionSpec* find_short(std::span<const OptionSpec> specs, char c) {
  for (const OptionSpec& s : specs)
    if (s.short_name != 0 && s.short_name == c) return &s;
  return nullptr;
}

// The exact long name, else the only one it abbreviates.
const OptionSpec& find_long(std::span<const OptionSpec> specs, std::string_view name, std::string_view given) {
  const OptionSpec* match = nullptr;
  std::size_t matches = 0;
  std::string candidates;
  for (const OptionSpec& s : specs) {
    if (s.long_name.empty() || name.empty()) continue;
    if (s.long_name == name) return s;
    if (s.long_name.starts_with(name)) {
      match = &s;
      ++matches;
      candidates += " '--" + std::string(s.long_name) + "'";
    }
  }
  if (matches == 0) throw UsageError("unrecognized option " + quoted(given, Quotes::always));
  if (matches > 1)
    throw UsageError("option " + quoted(given, Quotes::always) + " is ambiguous; possibilities:" + candidates);
  return *match;
}

}  // namespace

CommandLine parse_command_line(std::span<const std::string_view> args, std::span<const OptionSpec> specs) {
  CommandLine out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--") {
      for (++i; i < args.size(); ++i) out.operands.emplace_back(args[i]);
      break;
    }
    if (a.size() < 2 || a[0] != '-') {  // includes "-" (standard input)
      out.operands.emplace_back(a);
      continue;
    }
    if (a[1] == '-') {
      const std::size_t eq = a.find('=');
      const std::string_view name = a.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2);
      const OptionSpec& spec = find_long(specs, name, a);  // getopt names it with any "=VALUE"
      const std::string spelling = "--" + std::string(spec.long_name);
      if (!spec.takes_value) {
        if (eq != std::string_view::npos)
          throw UsageError("option " + quoted(spelling, Quotes::always) + " doesn't allow an argument");
        out.options.push_back({spec.id, ""});
        if (spec.ends_line) return out;
      } else if (eq != std::string_view::npos) {
        out.options.push_back({spec.id, std::string(a.substr(eq + 1))});
      } else if (i + 1 < args.size()) {
        out.options.push_back({spec.id, std::string(args[++i])});
      } else {
        throw UsageError("option " + quoted(spelling, Quotes::always) + " requires an argument");
      }
      continue;
    }
    for (std::size_t j = 1; j < a.size(); ++j) {  // a cluster of short options: "-cw", "-ash256"
      const OptionSpec* spec = find_short(specs, a[j]);
      if (spec == nullptr) throw UsageError("invalid option -- " + quoted(a.substr(j, 1), Quotes::always));
      if (!spec->takes_value) {
        out.options.push_back({spec->id, ""});
        if (spec->ends_line) return out;
        continue;
      }
      if (j + 1 < a.size())
        out.options.push_back({spec->id, std::string(a.substr(j + 1))});
      else if (i + 1 < args.size())
        out.options.push_back({spec->id, std::string(args[++i])});
      else
        throw UsageError("option requires an argument -- " + quoted(a.substr(j, 1), Quotes::always));
      break;
    }
  }
  return out;
}

std::uint64_t parse_count(std::string_view text, std::uint64_t max, std::string_view what) {
  const std::string shown = std::string(what) + " " + quoted(text, Quotes::always);
  const std::string range = "a decimal number from 1 to " + std::to_string(max);
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw UsageError("invalid " + shown + ": expected " + range);
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (digit > max || value > (max - digit) / 10)
      throw UsageError(shown + " is too large: at most " + std::to_string(max));
    value = value * 10 + digit;
  }
  if (text.empty()) throw UsageError("invalid " + shown + ": expected " + range);
  if (value == 0) throw UsageError(shown + " is too small: expected " + range);
  return value;
}

}  // namespace shakedown::cli
