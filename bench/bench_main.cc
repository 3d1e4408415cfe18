// shakedown_bench: every algorithm x available backend x length against OpenSSL, then a ratio table.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <ctime>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_commit.h"
#include "bench_options.h"
#include "cases.h"
#include "host_record.h"
#include "ratio_table.h"
#include "shakedown/backend.h"

namespace {

// The time the run started, UTC, ISO 8601 ("2026-12-07T06:30:00Z").
std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// What a result file must say to be compared with another: the library's version and commit, the backends this
// machine selects, what was measured, and the host (CPU, OpenSSL: host_record.h). Google Benchmark puts them in its
// context (the JSON "context" object, the console header); the ratio table's file repeats them.
nlohmann::json add_context(const shakedown::bench::Options& opt) {
  std::string selected;
  for (shakedown::Family f : shakedown::kAllFamilies)
    selected += (selected.empty() ? "" : ",") + std::string(shakedown::name(f)) + "=" +
                std::string(shakedown::selected_backend(f));
  std::string measured;
  for (const std::string& b : opt.backends) measured += (measured.empty() ? "" : ",") + b;
  std::vector<std::pair<std::string, std::string>> items = {
      {"shakedown_version", SHAKEDOWN_VERSION},
      {"shakedown_commit", SHAKEDOWN_COMMIT},
      {"shakedown_selected", selected},
      {"shakedown_measured", measured.empty() ? "every available backend" : measured},
      {"shakedown_rounds", std::to_string(opt.rounds)},
      {"measured_at", utc_now()}};
  for (auto& item : shakedown::bench::host_record()) items.push_back(std::move(item));
  nlohmann::json context = nlohmann::json::object();
  for (const auto& [key, value] : items) {
    benchmark::AddCustomContext(key, value);
    context[key] = value;
  }
  return context;
}

void write_json_file(const std::string& path, const nlohmann::json& value) {
  std::ofstream out(path);
  out << value.dump(2) << "\n";
  out.close();
  if (!out) throw std::runtime_error("cannot write the ratio table to " + path);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace shakedown::bench;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--help") std::fputs(options_help(), stdout);

  // A shorter default than Google Benchmark's 0.5 s: the suite has hundreds of cases and is
  // repeated in rounds. Inserted first so that a --benchmark_min_time given by the user wins.
  static char default_min_time[] = "--benchmark_min_time=0.1";
  std::vector<char*> args(argv, argv + argc);
  args.insert(args.begin() + 1, default_min_time);
  args.push_back(nullptr);
  int nargs = argc + 1;

  try {
    Options opt = parse_options(nargs, args.data());
    benchmark::Initialize(&nargs, args.data());
    if (benchmark::ReportUnrecognizedArguments(nargs, args.data())) return 1;
    std::vector<Case> cases;
    const nlohmann::json context = add_context(opt);
    for (int round = 1; round <= opt.rounds; ++round) cases = register_round(opt, round);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    // stdout is the --benchmark_format output alone (JSON stays parseable); the table goes to stderr and, when
    // asked, to a JSON file.
    const nlohmann::json table = reporter.table(cases);
    if (opt.table) RatioReporter::print_table(table, stderr);
    if (!opt.table_json.empty()) write_json_file(opt.table_json, {{"context", context}, {"rows", table}});
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shakedown_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
