// Checksum-list lines in the coreutils 9.1 formats (see sums_format.h).
#include "sums_format.h"

#include <array>

namespace shakedown::cli {
namespace {

struct TagSpelling {
  std::string_view tag;
  Algorithm alg;
};

// The first spelling of each algorithm is the one printed; the others are accepted on input because other
// tools print them: `openssl dgst` (SHA2-256), Perl's shasum --tag (SHA512/224), and SHAKE without a dash.
constexpr std::array<TagSpelling, 20> kTags = {{
    {"SHA224", Algorithm::sha224},     {"SHA256", Algorithm::sha256},           {"SHA384", Algorithm::sha384},
    {"SHA512", Algorithm::sha512},     {"SHA2-512/224", Algorithm::sha512_224}, {"SHA2-512/256", Algorithm::sha512_256},
    {"SHA3-224", Algorithm::sha3_224}, {"SHA3-256", Algorithm::sha3_256},       {"SHA3-384", Algorithm::sha3_384},
    {"SHA3-512", Algorithm::sha3_512}, {"SHAKE-128", Algorithm::shake128},      {"SHAKE-256", Algorithm::shake256},
    {"SHA2-224", Algorithm::sha224},   {"SHA2-256", Algorithm::sha256},         {"SHA2-384", Algorithm::sha384},
    {"SHA2-512", Algorithm::sha512},   {"SHA512/224", Algorithm::sha512_224},   {"SHA512/256", Algorithm::sha512_256},
    {"SHAKE128", Algorithm::shake128}, {"SHAKE256", Algorithm::shake256},
}};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool all_hex(std::string_view s) {
  for (char c : s)
    if (hex_digit_value(c) < 0) return false;
  return true;
}

struct TagMatch {
  Algorithm alg;
  std::size_t length;  // through the '('
};

// "TAG (" or "TAG(" at the start of the text.
std::optional<TagMatch> match_tag(std::string_view text) {
  for (const TagSpelling& t : kTags) {
    if (!text.starts_with(t.tag)) continue;
    std::size_t i = t.tag.size();
    if (i < text.size() && text[i] == ' ') ++i;
    if (i < text.size() && text[i] == '(') return TagMatch{t.alg, i + 1};
  }
  return std::nullopt;
}

// Inverse of escape_name; nullopt for any other escape or a trailing backslash (an improper line).
std::optional<std::string> unescape_name(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    switch (text[i]) {
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return std::nullopt;
    }
  }
  return out;
}

ParsedLine improper(LineProblem problem = {}) { return ParsedLine{std::nullopt, problem}; }

}  // namespace

std::string_view tag_name(Algorithm alg) {
  for (const TagSpelling& t : kTags)
    if (t.alg == alg) return t.tag;
  return "?";
}

bool sum_line_needs_escape(std::string_view name) { return name.find_first_of("\\\n\r") != std::string_view::npos; }

bool result_line_needs_escape(std::string_view name) { return name.find('\n') != std::string_view::npos; }

std::string escape_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

SumsParser::SumsParser(std::optional<Algorithm> fixed, Algorithm untagged, std::optional<std::uint64_t> xof_length)
    : fixed_(fixed), untagged_(untagged), xof_length_(xof_length) {}

ParsedLine SumsParser::parse(std::string_view line) {
  if (line.find('\0') != std::string_view::npos) return improper();  // no file name contains a NUL
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  const bool escaped = i < line.size() && line[i] == '\\';
  if (escaped) ++i;
  if (auto tag = match_tag(line.substr(i))) return parse_tagged(line.substr(i + tag->length), tag->alg, escaped);
  return parse_untagged(line, i, escaped);
}

// After "TAG (": the name runs to the last ')', then " = HEX" with optional blanks around '='.
ParsedLine SumsParser::parse_tagged(std::string_view rest, Algorithm alg, bool escaped) const {
  if (fixed_ && alg != *fixed_) {
    LineProblem p;
    p.kind = LineProblem::Kind::other_algorithm;
    p.tagged = alg;
    return improper(p);
  }
  const std::size_t close = rest.rfind(')');
  if (close == std::string_view::npos) return improper();
  std::optional<std::string> file = escaped ? unescape_name(rest.substr(0, close)) : std::string(rest.substr(0, close));
  if (!file) return improper();
  std::size_t i = close + 1;
  while (i < rest.size() && is_blank(rest[i])) ++i;
  if (i == rest.size() || rest[i] != '=') return improper();
  ++i;
  while (i < rest.size() && is_blank(rest[i])) ++i;
  const std::string_view hex = rest.substr(i);
  if (!valid_digest(hex, alg)) return improper(diagnose(hex, alg));
  return ParsedLine{SumsLine{alg, std::string(hex), std::move(*file)}, {}};
}

// "HEX" then one blank, then ' ' (text) or '*' (binary) and the name; or, in BSD-reversed mode, the name
// right after the blank. At least one byte must follow the blank.
ParsedLine SumsParser::parse_untagged(std::string_view line, std::size_t start, bool escaped) {
  const Algorithm alg = fixed_.value_or(untagged_);
  std::size_t i = start;
  while (i < line.size() && !is_blank(line[i])) ++i;
  const std::string_view hex = line.substr(start, i - start);
  if (!valid_digest(hex, alg)) return improper(diagnose(hex, alg));
  if (i + 1 >= line.size()) return improper();  // no name
  ++i;
  if (line.size() - i == 1 || (line[i] != ' ' && line[i] != '*')) {
    // Mixing the two formats in one run is refused, as coreutils does: with a name that begins with a
    // space or '*', an attacker could otherwise make one line mean two files.
    if (reversed_ == 0) return improper();
    reversed_ = 1;
  } else if (reversed_ != 1) {
    reversed_ = 0;
    ++i;  // the mode character; both modes read the same bytes on POSIX systems
  }
  std::optional<std::string> file = escaped ? unescape_name(line.substr(i)) : std::string(line.substr(i));
  if (!file) return improper();
  return ParsedLine{SumsLine{alg, std::string(hex), std::move(*file), !fixed_.has_value()}, {}};
}

std::size_t min_checked_xof_length(Algorithm alg) {
  switch (alg) {
    case Algorithm::shake128: return 16;
    case Algorithm::shake256: return 32;
    default: return 0;
  }
}

bool SumsParser::valid_digest(std::string_view hex, Algorithm alg) const {
  if (!all_hex(hex)) return false;
  if (!is_xof(alg)) return hex.size() == 2 * digest_size(alg);
  if (hex.size() < 2 * min_checked_xof_length(alg)) return false;
  if (xof_length_) return hex.size() == 2 * *xof_length_;
  return hex.size() % 2 == 0;
}

// A field of whole hex bytes, of a length that is not the expected algorithm's; or a SHAKE digest too short.
LineProblem SumsParser::diagnose(std::string_view hex, Algorithm alg) const {
  LineProblem p;
  if (hex.empty() || hex.size() % 2 != 0 || !all_hex(hex)) return p;
  if (is_xof(alg)) {
    if (hex.size() >= 2 * min_checked_xof_length(alg)) return p;
    p.kind = LineProblem::Kind::short_xof;
    p.hex_digits = hex.size();
    p.expected = alg;
    return p;
  }
  p.kind = LineProblem::Kind::wrong_length;
  p.hex_digits = hex.size();
  p.expected = alg;
  return p;
}

}  // namespace shakedown::cli
