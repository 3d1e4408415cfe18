// The `shakedown` subcommands; each takes the arguments after its name and returns the exit status.
#pragma once

#include <span>
#include <string_view>

namespace shakedown::cli {

using Args = std::span<const std::string_view>;

int sum(Args args);       // hash files or stdin
int check(Args args);     // verify "DIGEST  FILE" lines
int backends(Args args);  // compiled backends per family, availability, selection, CPU features
int repro(Args args);     // replay fuzz inputs on every backend and name the one that diverges

// Exit statuses shared by the subcommands.
inline constexpr int kOk = 0;
inline constexpr int kMismatch = 1;  // a checksum or a backend disagrees
inline constexpr int kUsage = 2;     // bad arguments, unreadable or undecodable input

}  // namespace shakedown::cli
