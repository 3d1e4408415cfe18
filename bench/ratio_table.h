// The display reporter --benchmark_format chose, plus each case's best throughput and the ratio table built from it.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases.h"

namespace shakedown::bench {

// Forwards everything to Google Benchmark's default display reporter (console, json or csv on stdout, as
// --benchmark_format says) and remembers the best bytes_per_second of each benchmark on the way, so that stdout
// stays exactly what that format promises and the ratio table goes elsewhere.
class RatioReporter : public benchmark::BenchmarkReporter {
 public:
  RatioReporter();
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // One row per (case, our backend): best-of-rounds MB/s (10^6 bytes/s of CPU time) for ours and for OpenSSL in
  // the same group, and ours / OpenSSL (above 1 = faster than OpenSSL); null where OpenSSL has no figure.
  nlohmann::json table(const std::vector<Case>& cases) const;
  // The same rows as text.
  static void print_table(const nlohmann::json& table, std::FILE* out);

 private:
  benchmark::BenchmarkReporter* display_;                // Google Benchmark's, for the process's lifetime
  std::map<std::string, double> best_bytes_per_second_;  // by case (Case::name()), over the rounds
};

}  // namespace shakedown::bench
