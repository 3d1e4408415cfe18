// The `shakedown` subcommands; each takes the arguments after its name and returns the exit status.
#pragma once

#include <span>
#include <string_view>

namespace shakedown::cli {

using Args = std::span<const std::string_view>;

int sum(Args args);       // hash files or stdin; with --check, verify lists (as check)
int check(Args args);     // verify "DIGEST  FILE" lines (sum --check)
int backends(Args args);  // compiled backends per family, availability, selection, CPU features

// "shakedown VERSION" on stdout, for every command's --version.
void print_version();

// Exit statuses shared by the subcommands (coreutils' for sum and check: 0 and 1).
inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;  // a digest did not match, an input could not be read, output could not be written
inline constexpr int kUsage = 2;    // the command line (or SHAKEDOWN_BACKENDS) makes no sense: nothing was done

}  // namespace shakedown::cli
