// `shakedown check` / `sum --check`: verifying checksum lists as `sha256sum -c` does.
#pragma once

#include "sum_options.h"

namespace shakedown::cli {

extern const char* const kCheckHelp;

// Checks every list (standard input when none); kOk only when each list verified at least one file and
// nothing failed (coreutils 9.1's rules, see docs/cli.md).
int check_lists(const SumOptions& options);

}  // namespace shakedown::cli
