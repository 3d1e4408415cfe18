// Standalone driver for the fuzz targets where libFuzzer is absent (gcc builds, riscv64, QEMU runs):
// replays files and directories, then runs N seeded random inputs. A mismatch aborts, as under libFuzzer.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "input_file.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

struct Options {
  std::uint64_t runs = 0;
  bool runs_given = false;
  std::uint64_t seed = 1;
  std::size_t max_len = 1024;
  std::uint64_t max_total_time = 0;  // seconds; > 0: random inputs until then (bounded by -runs if given)
  std::vector<std::string> paths;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "%s\nusage: <target>_standalone [-runs=N] [-seed=S] [-max_len=N] [-max_total_time=S] [FILE|DIR]...\n"
               "  replays every FILE and every file under DIR, then runs N random inputs of at most\n"
               "  max_len bytes (N defaults to 0 when paths are given, 1000 otherwise); with\n"
               "  -max_total_time, random inputs until S seconds have passed (and at most N if -runs is given)\n",
               message.c_str());
  std::exit(2);
}

// A decimal number up to max; anything else ends the run with a usage error (a value that wrapped to 0 would run
// nothing and print OK).
std::uint64_t number(std::string_view arg, std::string_view value, std::uint64_t max = UINT64_MAX) {
  std::uint64_t n = 0;
  if (value.empty()) usage_error("missing number in '" + std::string(arg) + "'");
  for (char c : value) {
    if (c < '0' || c > '9') usage_error("not a number in '" + std::string(arg) + "'");
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (max - digit) / 10) usage_error("number too large in '" + std::string(arg) + "': at most " +
                                            std::to_string(max));
    n = n * 10 + digit;
  }
  return n;
}

// libFuzzer takes both as int. The bounds keep max_len + 1 and the deadline (seconds as steady_clock's
// nanoseconds, a signed 64-bit count) from overflowing.
constexpr std::uint64_t kMaxLen = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxTotalTime = INT32_MAX;

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("-runs=")) {
      o.runs = number(a, a.substr(6));
      o.runs_given = true;
    } else if (a.starts_with("-seed=")) {
      o.seed = number(a, a.substr(6));
    } else if (a.starts_with("-max_len=")) {
      o.max_len = static_cast<std::size_t>(number(a, a.substr(9), kMaxLen));
    } else if (a.starts_with("-max_total_time=")) {
      o.max_total_time = number(a, a.substr(16), kMaxTotalTime);
    } else if (a.starts_with("-")) {
      // Other libFuzzer flags (-dict=, -timeout=, ...) are accepted and ignored, so that one
      // command line works with both drivers.
      std::fprintf(stderr, "standalone driver: ignoring libFuzzer flag %s\n", argv[i]);
    } else {
      o.paths.emplace_back(a);
    }
  }
  if (o.max_total_time > 0 && !o.runs_given) o.runs = UINT64_MAX;  // the clock ends the run
  if (!o.runs_given && o.paths.empty() && o.max_total_time == 0) o.runs = 1000;
  return o;
}

// Files to replay, sorted for a reproducible order; an unreadable path or a directory without
// files is an error (a replay that ran nothing must not pass).
std::vector<fs::path> collect(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::size_t before = files.size();
      for (const auto& entry : fs::recursive_directory_iterator(p, ec))
        if (entry.is_regular_file()) files.push_back(entry.path());
      if (ec) usage_error("cannot read directory " + p + ": " + ec.message());
      if (files.size() == before) usage_error("no input files under " + p);
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      usage_error("cannot read " + p + (ec ? ": " + ec.message() : ": no such file or directory"));
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::string error;
  std::optional<std::vector<std::uint8_t>> data = shakedown::fuzz::read_input(path.string(), error);
  if (!data) usage_error("cannot read " + path.string() + ": " + error);
  return std::move(*data);
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  LLVMFuzzerInitialize(&argc, &argv);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<fs::path> files = collect(opt.paths);
  for (const fs::path& f : files) {
    std::vector<std::uint8_t> data = read_file(f);
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", f.string().c_str(), data.size());
    LLVMFuzzerTestOneInput(data.data(), data.size());
  }
  std::mt19937_64 rng(opt.seed);
  std::vector<std::uint8_t> buf;
  const auto deadline = start + std::chrono::seconds(opt.max_total_time);
  std::uint64_t random_runs = 0;
  for (; random_runs < opt.runs; ++random_runs) {
    if (opt.max_total_time > 0 && random_runs % 16 == 0 && std::chrono::steady_clock::now() >= deadline) break;
    buf.resize(static_cast<std::size_t>(rng() % (opt.max_len + 1)));
    for (auto& b : buf) b = static_cast<std::uint8_t>(rng() >> 56);
    LLVMFuzzerTestOneInput(buf.data(), buf.size());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint64_t total = files.size() + random_runs;
  const double rate = secs > 0 ? static_cast<double>(total) / secs : 0.0;
  std::fprintf(stderr, "standalone driver: %zu file(s) replayed, %llu random input(s) (seed %llu), %.0f exec/s: OK\n",
               files.size(), static_cast<unsigned long long>(random_runs), static_cast<unsigned long long>(opt.seed),
               rate);
  // libFuzzer's -print_final_stats lines, so that one log parser reads both drivers (ci/driver.py).
  std::fprintf(stderr, "stat::number_of_executed_units: %llu\nstat::average_exec_per_sec:     %.0f\n",
               static_cast<unsigned long long>(total), rate);
  return 0;
}
