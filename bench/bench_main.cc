// shakedown_bench: every algorithm x available backend x length against OpenSSL, then a ratio table.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench_commit.h"
#include "bench_options.h"
#include "cases.h"
#include "ratio_table.h"
#include "shakedown/backend.h"

namespace {

// What a result file must say to be compared with another: the library's version and commit, the backends this
// machine selects, what was measured. Google Benchmark puts them in its context (the JSON "context" object, the
// console header).
void add_context(const shakedown::bench::Options& opt) {
  std::string selected;
  for (shakedown::Family f : shakedown::kAllFamilies)
    selected += (selected.empty() ? "" : ",") + std::string(shakedown::name(f)) + "=" +
                std::string(shakedown::selected_backend(f));
  std::string measured;
  for (const std::string& b : opt.backends) measured += (measured.empty() ? "" : ",") + b;
  benchmark::AddCustomContext("shakedown_version", SHAKEDOWN_VERSION);
  benchmark::AddCustomContext("shakedown_commit", SHAKEDOWN_COMMIT);
  benchmark::AddCustomContext("shakedown_selected", selected);
  benchmark::AddCustomContext("shakedown_measured", measured.empty() ? "every available backend" : measured);
  benchmark::AddCustomContext("shakedown_rounds", std::to_string(opt.rounds));
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
    add_context(opt);
    for (int round = 1; round <= opt.rounds; ++round) cases = register_round(opt, round);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    // stdout is the --benchmark_format output alone (JSON stays parseable); the table goes to stderr and, when
    // asked, to a JSON file.
    const nlohmann::json table = reporter.table(cases);
    if (opt.table) RatioReporter::print_table(table, stderr);
    if (!opt.table_json.empty()) write_json_file(opt.table_json, table);
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shakedown_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
