// The progress line: "shakedown sum: FILE: 123 MiB of 600 MiB (20%), 850 MiB/s, 1 s left", redrawn at most five
// times a second.
#include "progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "diagnostics.h"
#include "terminal_text.h"

namespace shakedown::cli {
namespace {

constexpr std::size_t kMaxNameBytes = 40;
constexpr auto kRedrawInterval = std::chrono::milliseconds(200);

bool stderr_is_terminal() {
  static const bool tty = isatty(STDERR_FILENO) == 1;
  return tty;
}

// The line must fit the terminal: a wrapped line cannot be redrawn with a carriage return.
std::size_t terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col;
  return 80;
}

// The last component only: the progress line has room for little, and the name is what the user recognizes.
std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos || slash + 1 == path.size() ? path : path.substr(slash + 1);
}

// MiB up to 10 GiB (a useful step for files of a few hundred MB), GiB above.
std::string size_text(std::uint64_t bytes, std::uint64_t scale) {
  char text[32];
  if (scale < (std::uint64_t{10} << 30))
    std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>(bytes >> 20));
  else
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return text;
}

// "42 s", "3:07": the time left, rounded up (a line saying 0 s while work remains would be wrong).
std::string duration_text(double seconds) {
  const auto s = static_cast<unsigned long long>(std::ceil(seconds));
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%llu s", s);
  else
    std::snprintf(text, sizeof text, "%llu:%02llu", s / 60, s % 60);
  return text;
}

}  // namespace

Progress::Progress(std::string_view name, std::int64_t total)
    : enabled_(stderr_is_terminal()),
      name_(quoted(base_name(name), Quotes::when_needed, kMaxNameBytes)),
      total_(total),
      started_(std::chrono::steady_clock::now()) {
  if (enabled_ && total_ > static_cast<std::int64_t>(kProgressThreshold)) draw();
}

Progress::~Progress() {
  if (drawn_) clear_status_line();
}

void Progress::add(std::size_t bytes) {
  done_ += bytes;
  if (!enabled_ || (done_ <= kProgressThreshold && !drawn_)) return;
  if (std::chrono::steady_clock::now() - last_draw_ >= kRedrawInterval) draw();
}

void Progress::draw() {
  const std::uint64_t scale = total_ > 0 ? static_cast<std::uint64_t>(total_) : done_;
  std::string text = program_name() + ": " + name_ + ": " + size_text(done_, scale);
  if (total_ > 0) {
    const auto total = static_cast<std::uint64_t>(total_);
    text += " of " + size_text(total, scale) + " (" + std::to_string(done_ * 100 / total) + "%)";
  } else {
    text += " read";
  }
  // The rate since the start, once there is one to speak of (the first redraw), and the time left at that rate.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (done_ > 0 && seconds >= 0.1) {
    const double rate = static_cast<double>(done_) / seconds;
    char text_rate[32];
    std::snprintf(text_rate, sizeof text_rate, ", %.0f MiB/s", rate / (1 << 20));
    text += text_rate;
    if (total_ > 0 && static_cast<std::uint64_t>(total_) > done_)
      text += ", " + duration_text(static_cast<double>(static_cast<std::uint64_t>(total_) - done_) / rate) + " left";
  }
  show_status_line(std::string_view(text).substr(0, terminal_columns() - 1));
  last_draw_ = std::chrono::steady_clock::now();
  drawn_ = true;
}

}  // namespace shakedown::cli
