// Best-of-N throughput per benchmark and the final "ours vs OpenSSL" table.
#include "ratio_table.h"

#include <unistd.h>

#include <algorithm>

namespace shakedown::bench {

RatioReporter::RatioReporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_Tabular) {}

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
    auto counter = run.counters.find("bytes_per_second");
    if (counter == run.counters.end()) continue;
    double& best = best_bytes_per_second_[run.run_name.function_name];
    best = std::max(best, counter->second.value);
  }
}

void RatioReporter::print_table(const std::vector<Case>& cases, std::FILE* out) const {
  if (best_bytes_per_second_.empty()) return;  // nothing ran (--benchmark_list_tests, empty filter)
  auto best = [&](const Case& c) {
    auto it = best_bytes_per_second_.find(c.name());
    return it == best_bytes_per_second_.end() ? 0.0 : it->second / 1e6;
  };
  std::fprintf(out, "\n%-18s %-20s %7s %11s %11s %7s\n", "case", "backend", "length", "ours MB/s", "OpenSSL MB/s",
               "ratio");
  for (const Case& c : cases) {
    if (c.impl == kOpenssl) continue;
    double ours = best(c);
    double ref = best({c.label, kOpenssl, c.length});
    if (ours == 0.0) continue;  // filtered out
    if (ref == 0.0) {
      std::fprintf(out, "%-18s %-20s %7zu %11.1f %11s %7s\n", c.label.c_str(), c.impl.c_str(), c.length, ours, "-",
                   "-");
    } else {
      std::fprintf(out, "%-18s %-20s %7zu %11.1f %11.1f %7.2f\n", c.label.c_str(), c.impl.c_str(), c.length, ours,
                   ref, ours / ref);
    }
  }
}

}  // namespace shakedown::bench
