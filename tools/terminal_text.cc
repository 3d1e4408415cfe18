// Quoting and escaping of untrusted text before it reaches a terminal (see terminal_text.h).
#include "terminal_text.h"

#include <cstdio>

namespace shakedown::cli {
namespace {

// Bytes outside printable ASCII are escaped: a terminal would act on control bytes (ESC starts a control
// sequence), and the C locale gives no meaning to the others.
bool is_printable_ascii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

void append_c_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '\a': out += "\\a"; return;
    case '\b': out += "\\b"; return;
    case '\t': out += "\\t"; return;
    case '\n': out += "\\n"; return;
    case '\v': out += "\\v"; return;
    case '\f': out += "\\f"; return;
    case '\r': out += "\\r"; return;
    default: {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      out += octal;
    }
  }
}

// Characters a POSIX shell (or bash) would interpret; ':' too, which coreutils quotes in file names so that
// "FILE: message" stays unambiguous. '#' and '~' matter only first, '{' and '}' only alone.
bool needs_quotes(unsigned char c, std::size_t pos, std::size_t size) {
  if (!is_printable_ascii(c)) return true;
  switch (c) {
    case ' ': case '!': case '"': case '$': case '&': case '\'': case '(': case ')': case '*': case ';':
    case '<': case '=': case '>': case '?': case '[': case '\\': case '^': case '`': case '|': case ':':
      return true;
    case '#': case '~':
      return pos == 0;
    case '{': case '}':
      return size == 1;
    default:
      return false;
  }
}

// Characters that keep their meaning inside "..." (coreutils prefers "it's" to 'it'\''s' when the single
// quote is the only reason to quote).
bool fits_double_quotes(unsigned char c, std::size_t pos, std::size_t size) {
  switch (c) {
    case ' ': case '\'': case ':': return true;
    case '#': case '~': return pos == 0;
    case '{': case '}': return size == 1;
    default: return is_printable_ascii(c) && !needs_quotes(c, pos, size);
  }
}

std::string cut_note(std::size_t full_size) { return "... (" + std::to_string(full_size) + " bytes)"; }

// 'text' with each ' written as '\'' and runs of unprintable bytes as $'\ooo' between the quoted parts.
std::string single_quoted(std::string_view text) {
  std::string out = "'";
  bool in_ansi_c = false;  // inside $'...'
  for (unsigned char c : text) {
    if (!is_printable_ascii(c)) {
      if (!in_ansi_c) out += "'$'";
      in_ansi_c = true;
      append_c_escape(out, c);
      continue;
    }
    if (in_ansi_c) out += "''";
    in_ansi_c = false;
    if (c == '\'')
      out += "'\\''";
    else
      out += static_cast<char>(c);
  }
  return out + "'";
}

}  // namespace

std::string quoted(std::string_view value, Quotes quotes, std::size_t max_bytes) {
  const std::string_view shown = value.substr(0, max_bytes);
  const std::string note = shown.size() < value.size() ? cut_note(value.size()) : "";
  const std::size_t n = shown.size();
  bool plain = n != 0 && quotes == Quotes::when_needed, double_quotes = false;
  for (std::size_t i = 0; i < n; ++i) plain = plain && !needs_quotes(shown[i], i, n);
  if (plain) return std::string(shown) + note;
  if (shown.find('\'') != std::string_view::npos) {
    double_quotes = true;
    for (std::size_t i = 0; i < n; ++i) double_quotes = double_quotes && fits_double_quotes(shown[i], i, n);
  }
  if (double_quotes) return "\"" + std::string(shown) + "\"" + note;
  return single_quoted(shown) + note;
}

std::string printable(std::string_view message, std::size_t max_bytes) {
  const std::string_view shown = message.substr(0, max_bytes);
  std::string out;
  out.reserve(shown.size());
  for (unsigned char c : shown) {
    if (is_printable_ascii(c))
      out += static_cast<char>(c);
    else
      append_c_escape(out, c);
  }
  if (shown.size() < message.size()) out += cut_note(message.size());
  return out;
}

}  // namespace shakedown::cli
