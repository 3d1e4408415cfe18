// Parsing of the shakedown_bench options (environment first, flags override).
#include "bench_options.h"

#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace shakedown::bench {
namespace {

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (!item.empty()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return items;
}

std::size_t parse_count(std::string_view option, std::string_view text, std::size_t min_value) {
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min_value)
    throw std::invalid_argument(std::string(option) + ": expected an integer >= " + std::to_string(min_value) +
                                ", got '" + std::string(text) + "'");
  return value;
}

std::vector<std::size_t> parse_lengths(std::string_view option, std::string_view text) {
  std::vector<std::size_t> lengths;
  for (const auto& item : split_list(text)) lengths.push_back(parse_count(option, item, 0));
  if (lengths.empty()) throw std::invalid_argument(std::string(option) + ": empty length list");
  return lengths;
}

// Applies one "name=value" setting; false if the name is not ours.
bool apply(Options& opt, std::string_view name, std::string_view value) {
  if (name == "backends") {
    opt.backends = split_list(value);
  } else if (name == "rounds") {
    opt.rounds = static_cast<int>(parse_count("rounds", value, 1));
  } else if (name == "lengths") {
    opt.lengths = parse_lengths("lengths", value);
  } else if (name == "many_counts") {
    opt.many_counts.clear();
    for (const auto& item : split_list(value)) opt.many_counts.push_back(parse_count("many_counts", item, 1));
  } else if (name == "many_lengths") {
    opt.many_lengths = parse_lengths("many_lengths", value);
  } else if (name == "chunk") {
    opt.chunk = parse_count("chunk", value, 1);
  } else if (name == "table") {
    opt.table = parse_count("table", value, 0) != 0;
  } else if (name == "table_json") {
    if (value.empty()) throw std::invalid_argument("table_json: empty file name");
    opt.table_json = std::string(value);
  } else {
    return false;
  }
  return true;
}

}  // namespace

Options parse_options(int& argc, char** argv) {
  Options opt;
  for (const char* name : {"backends", "rounds", "lengths"}) {
    std::string var = "SHAKEDOWN_BENCH_" + std::string(name);
    for (auto& ch : var) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
    if (const char* value = std::getenv(var.c_str())) apply(opt, name, value);
  }
  constexpr std::string_view kPrefix = "--shakedown_";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.substr(0, kPrefix.size()) != kPrefix) {
      argv[kept++] = argv[i];
      continue;
    }
    arg.remove_prefix(kPrefix.size());
    std::size_t eq = arg.find('=');
    if (eq == std::string_view::npos || !apply(opt, arg.substr(0, eq), arg.substr(eq + 1)))
      throw std::invalid_argument("unknown or malformed option '" + std::string(argv[i]) + "' (see --help)");
  }
  argc = kept;
  argv[argc] = nullptr;
  return opt;
}

const char* options_help() {
  return "shakedown_bench: shakedown vs OpenSSL, same process, interleaved.\n"
         "  --shakedown_backends=a,b   our backends to measure (default: all available);\n"
         "                             env SHAKEDOWN_BENCH_BACKENDS\n"
         "  --shakedown_rounds=N       register the suite N times round-robin, keep the best (default 3);\n"
         "                             env SHAKEDOWN_BENCH_ROUNDS\n"
         "  --shakedown_lengths=a,b    one-shot message lengths (default 16,64,256,1024,8192,16384);\n"
         "                             env SHAKEDOWN_BENCH_LENGTHS\n"
         "  --shakedown_chunk=N        update() size of the incremental cases (default 100)\n"
         "  --shakedown_many_counts=a,b  messages per hash_many() call (default 2,4,8,16; empty: no such cases)\n"
         "  --shakedown_many_lengths=a,b length of each of those messages (default 64,1024,4096,16384)\n"
         "  --shakedown_table=0|1      print the ratio table to stderr at the end (default 1)\n"
         "  --shakedown_table_json=F   also write the ratio table as JSON to file F\n"
         "stdout is Google Benchmark's output alone, in the --benchmark_format chosen (console, json, csv).\n"
         "Benchmark names are <case>/<impl>/<length>, impl = openssl or a backend name, e.g.\n"
         "  --benchmark_filter='^sha256/.*/16384$'\n"
         "OpenSSL CPU paths can be masked with OPENSSL_ia32cap (see bench/README.md).\n\n";
}

}  // namespace shakedown::bench
