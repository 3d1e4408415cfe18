// A progress line on stderr while a large input is hashed, only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace shakedown::cli {

// Inputs above this size (or pipes, once this much was read) get a progress line: below it a run is
// over in well under a second on any backend this library has.
inline constexpr std::uint64_t kProgressThreshold = std::uint64_t{256} << 20;

class Progress {
 public:
  // total: the input's size when known (a regular file), else negative.
  Progress(std::string_view name, std::int64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::size_t bytes);

 private:
  void draw();

  bool enabled_;
  std::string name_;  // quoted for the terminal
  std::int64_t total_;
  std::uint64_t done_ = 0;
  std::chrono::steady_clock::time_point started_;  // for the rate and the time left
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

}  // namespace shakedown::cli
