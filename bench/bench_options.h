// Command-line and environment options of shakedown_bench that Google Benchmark does not know.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace shakedown::bench {

struct Options {
  // Our backends to measure (exact names); empty = every available backend of each family.
  std::vector<std::string> backends;
  // Message lengths for the one-shot cases.
  std::vector<std::size_t> lengths = {16, 64, 256, 1024, 8192, 16384};
  // How many times the whole suite is registered, round-robin; the table keeps the best of each.
  int rounds = 3;
  // Chunk size of the incremental-API cases (deliberately not a multiple of any block size).
  std::size_t chunk = 100;
  // The many-message cases: message counts (empty: none) and the length of each message.
  std::vector<std::size_t> many_counts = {2, 4, 8, 16};
  std::vector<std::size_t> many_lengths = {64, 1024, 4096, 16384};
  // Print the ratio table to stderr at the end (off with --shakedown_table=0).
  bool table = true;
  // Also write the ratio table as JSON to this file (--shakedown_table_json=FILE); empty = no file.
  std::string table_json;
};

// Reads SHAKEDOWN_BENCH_BACKENDS / SHAKEDOWN_BENCH_ROUNDS / SHAKEDOWN_BENCH_LENGTHS, then the
// --shakedown_* flags (which win), and removes those flags from argv so that Google Benchmark
// sees only its own. Throws std::invalid_argument with a message naming the bad option.
Options parse_options(int& argc, char** argv);

// Text for --help: our options (Google Benchmark prints its own after it).
const char* options_help();

}  // namespace shakedown::bench
