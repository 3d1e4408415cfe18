// Messages on stderr with the program's prefix, the progress line, and the final check of stdout.
#include "diagnostics.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace shakedown::cli {
namespace {
std::string g_program = "shakedown";
std::size_t g_status_width = 0;  // columns of the progress line on screen, 0: none
bool g_stdout_closed = false;

void print_message(std::string_view text) {
  std::fprintf(stderr, "%s: %.*s\n", g_program.c_str(), static_cast<int>(text.size()), text.data());
}
}  // namespace

void set_program_name(std::string name) { g_program = std::move(name); }
const std::string& program_name() { return g_program; }

void report(std::string_view text) {
  clear_status_line();
  if (!g_stdout_closed) std::fflush(stdout);
  print_message(text);
}

void show_status_line(std::string_view text) {
  // Pads over a longer previous line instead of sending a terminal control sequence.
  const std::size_t pad = g_status_width > text.size() ? g_status_width - text.size() : 0;
  std::fprintf(stderr, "\r%.*s%*s", static_cast<int>(text.size()), text.data(), static_cast<int>(pad), "");
  std::fflush(stderr);
  g_status_width = text.size();
}

void clear_status_line() {
  if (g_status_width == 0) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(g_status_width), "");
  std::fflush(stderr);
  g_status_width = 0;
}

bool close_stdout() {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0 && !std::ferror(stdout);
  int err = flushed ? 0 : errno;
  const bool closed = std::fclose(stdout) == 0;
  g_stdout_closed = true;
  if (flushed && !closed) err = errno;
  // As coreutils (gnulib's close_stream): a stdout that was closed before the program ran (EBADF) is no error when
  // nothing was written to it, as with --status or --quiet; anything written would have failed the flush.
  if (flushed && (closed || err == EBADF)) return true;
  clear_status_line();
  print_message(err != 0 ? "write error: " + std::string(std::strerror(err)) : std::string("write error"));
  return false;
}

}  // namespace shakedown::cli
