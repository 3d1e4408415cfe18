// NIST CAVP Monte Carlo (SHAVS §6.4, SHA3VS §6.2.3, §6.3.3) through every backend.
#include <gtest/gtest.h>

#include <algorithm>

#include "cavp.h"
#include "runners.h"
#include "vector_files.h"

namespace shakedown::vectors {
namespace {

class Monte : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(Monte, CheckpointsMatch) {
  const auto& p = GetParam();
  const std::string file = cavp_file(p.alg, FileKind::monte);
  // 100 checkpoints x 1000 hashes natively; SHAKEDOWN_TEST_SCALE < 1 (QEMU) runs the first few.
  const std::size_t checkpoints = std::min(kMonteCheckpoints, test::scaled(kMonteCheckpoints));
  report_count("Monte", p, run_monte_file(file, p, checkpoints), file);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, Monte, ::testing::ValuesIn(alg_backends_where(any_algorithm)), param_label);

}  // namespace
}  // namespace shakedown::vectors
