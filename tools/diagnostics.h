// Where the commands' messages go: one prefix, output and messages kept in order, write errors noticed.
#pragma once

#include <string>
#include <string_view>

namespace shakedown::cli {

// The prefix of every message: "shakedown sum", "shakedown-repro".
void set_program_name(std::string name);
const std::string& program_name();

// Prints "PROGRAM: text" on stderr. Flushes stdout first (as coreutils does), so that a run whose stdout and
// stderr share a pipe shows messages beside the lines they concern; clears a progress line first.
// The text must already be safe for a terminal (terminal_text.h).
void report(std::string_view text);

// A transient line on stderr (a progress line), redrawn in place; report() and clear_status_line() erase it.
void show_status_line(std::string_view text);
void clear_status_line();

// Flushes and closes stdout. On failure (a full disk, a closed pipe, /dev/full) reports
// "write error: REASON" and returns false: output that did not arrive must not end in exit status 0.
bool close_stdout();

}  // namespace shakedown::cli
