// Streaming a named input through a Hasher, with the system's reason when it cannot be read.
#pragma once

#include <string>

#include "shakedown/hash.h"

namespace shakedown::cli {

// Feeds the file (standard input for "-") to the hasher in blocks, never holding it whole, with a progress
// line for large inputs (progress.h). Returns 0, or the errno of the failed open or read (ENOENT: missing).
int hash_input(const std::string& path, Hasher& hasher);

}  // namespace shakedown::cli
