// A console reporter that also remembers each case's best throughput and prints the ratio table.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cases.h"

namespace shakedown::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Colour only on a terminal: a reporter passed in does not get Google Benchmark's own tty check.
  RatioReporter();
  void ReportRuns(const std::vector<Run>& runs) override;

  // One row per (case, our backend): best-of-rounds MB/s (10^6 bytes/s of CPU time) for ours
  // and for OpenSSL in the same group, and ours / OpenSSL (above 1 = faster than OpenSSL).
  void print_table(const std::vector<Case>& cases, std::FILE* out) const;

 private:
  std::map<std::string, double> best_bytes_per_second_;  // by benchmark name
};

}  // namespace shakedown::bench
