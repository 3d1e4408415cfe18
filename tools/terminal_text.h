// Making untrusted text (arguments, file names, environment values, library messages) safe for a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shakedown::cli {

// Longest value shown before it is cut: enough for any real path, short enough not to flood a terminal.
inline constexpr std::size_t kMaxShownBytes = 4096;

enum class Quotes { when_needed, always };

// A value as coreutils' diagnostics quote it in the C locale: in shell quotes, 'a b', "it's", with every
// byte that is not printable ASCII written as $'\n', $'\033' — so the result is printable and can be
// pasted back into a shell. when_needed (file names, as coreutils' quotef) leaves a plain value bare;
// always (option values) quotes it anyway. Values longer than max_bytes are cut and say how long they were.
std::string quoted(std::string_view value, Quotes quotes = Quotes::when_needed, std::size_t max_bytes = kMaxShownBytes);

// A message (e.g. from the library, which may quote an environment value) with every byte that is not
// printable ASCII written as a C escape (\n, \033) and cut after max_bytes; no quotes are added.
std::string printable(std::string_view message, std::size_t max_bytes = kMaxShownBytes);

}  // namespace shakedown::cli
