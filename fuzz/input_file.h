// A fuzz input file read whole, or the system's reason: shared by shakedown-repro and the standalone driver, so
// that a read failing part-way is an error in both rather than a shorter input.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace shakedown::fuzz {

// The whole file, or nullopt and the system's reason in `error`.
inline std::optional<std::vector<std::uint8_t>> read_input(const std::string& path, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::vector<std::uint8_t> data;
  std::uint8_t block[1 << 14];
  std::size_t n;
  while ((n = std::fread(block, 1, sizeof block, f)) > 0) data.insert(data.end(), block, block + n);
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) {
    error = std::strerror(err);
    return std::nullopt;
  }
  return data;
}

}  // namespace shakedown::fuzz
