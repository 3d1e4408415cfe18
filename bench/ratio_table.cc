// Best-of-N throughput per benchmark, forwarded output, and the final "ours vs OpenSSL" table.
#include "ratio_table.h"

#include <algorithm>

namespace shakedown::bench {

RatioReporter::RatioReporter() : display_(benchmark::CreateDefaultDisplayReporter()) {}

bool RatioReporter::ReportContext(const Context& context) { return display_->ReportContext(context); }

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  display_->ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
    auto counter = run.counters.find("bytes_per_second");
    if (counter == run.counters.end()) continue;
    double& best = best_bytes_per_second_[case_of(run.run_name.function_name)];  // the best of the rounds
    best = std::max(best, counter->second.value);
  }
}

void RatioReporter::Finalize() { display_->Finalize(); }

nlohmann::json RatioReporter::table(const std::vector<Case>& cases) const {
  auto best = [&](const Case& c) {
    auto it = best_bytes_per_second_.find(c.name());
    return it == best_bytes_per_second_.end() ? 0.0 : it->second / 1e6;
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const Case& c : cases) {
    if (c.impl == kOpenssl) continue;
    const double ours = best(c);
    if (ours == 0.0) continue;  // filtered out
    const double ref = best({c.label, kOpenssl, c.length});
    rows.push_back({{"case", c.label},
                    {"backend", c.impl},
                    {"length", c.length},
                    {"ours_mb_per_s", ours},
                    {"openssl_mb_per_s", ref == 0.0 ? nlohmann::json() : nlohmann::json(ref)},
                    {"ratio", ref == 0.0 ? nlohmann::json() : nlohmann::json(ours / ref)}});
  }
  return rows;
}

void RatioReporter::print_table(const nlohmann::json& table, std::FILE* out) {
  if (table.empty()) return;  // nothing ran (--benchmark_list_tests, empty filter)
  std::fprintf(out, "\n%-18s %-20s %7s %11s %11s %7s\n", "case", "backend", "length", "ours MB/s", "OpenSSL MB/s",
               "ratio");
  for (const auto& row : table) {
    const std::string label = row["case"], backend = row["backend"];
    std::fprintf(out, "%-18s %-20s %7zu %11.1f ", label.c_str(), backend.c_str(), row["length"].get<std::size_t>(),
                 row["ours_mb_per_s"].get<double>());
    if (row["ratio"].is_null())
      std::fprintf(out, "%11s %7s\n", "-", "-");
    else
      std::fprintf(out, "%11.1f %7.2f\n", row["openssl_mb_per_s"].get<double>(), row["ratio"].get<double>());
  }
}

}  // namespace shakedown::bench
