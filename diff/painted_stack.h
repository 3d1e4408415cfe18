// Runs a function on a thread whose whole stack is our own memory, painted first, to read what it left behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace shakedown::diff {

// The stack of one run: [begin, caller) is every byte below the frame that called the function, i.e. the frames
// of the function and its callees, dead once it returned. Signal handlers run on a separate alternate stack
// (an emulator's SIGILL handler, given SA_ONSTACK for the run), so what is left here is the library's own doing.
// A new thread inherits its creator's vector registers: callers compute nothing secret-derived before a run
// that they then look for (compute expectations after the runs).
class PaintedStack {
 public:
  static constexpr std::size_t kBytes = 512 * 1024;
  static constexpr std::uint8_t kPaint = 0xa5;  // every byte before the run; 0xa5a5a5a5 is no secret's value

  PaintedStack();
  ~PaintedStack();
  PaintedStack(const PaintedStack&) = delete;
  PaintedStack& operator=(const PaintedStack&) = delete;

  // Paints the stack, runs fn on a new thread using it, joins. Rethrows what fn threw.
  void run(const std::function<void()>& fn);
  // The dead stack of the last run, as it was when the function returned.
  std::span<const std::uint8_t> dead() const;

 private:
  void* map_;
  std::uint8_t* stack_;
  std::vector<std::uint8_t> snapshot_;  // the dead stack as the run left it, copied before the thread exits
  std::uintptr_t caller_ = 0;
};

}  // namespace shakedown::diff
