// Streaming a named input through a Hasher, with the system's reason when it cannot be read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "shakedown/hash.h"

namespace shakedown::cli {

// How much one read() asks for. A larger buffer gains nothing once the per-call cost is spread (measured on a
// 1 GiB file, docs/cli.md "Speed") and costs memory.
inline constexpr std::size_t kReadBufferBytes = std::size_t{1} << 17;

// The buffer inputs are read into: kReadBufferBytes rounded up to whole pages, starting on a page boundary. The
// kernel copies a file's page-cache pages into it; a destination 16 bytes past a page boundary (a new[]'s usual
// place) made that copy measurably slower (about 0.4 s a GiB on Zen 3).
std::span<std::uint8_t> read_buffer();

// Feeds the file (standard input for "-") to the hasher in blocks, never holding it whole, with a progress
// line for large inputs (progress.h). Returns 0, or the errno of the failed open or read (ENOENT: missing).
int hash_input(const std::string& path, Hasher& hasher);

}  // namespace shakedown::cli
