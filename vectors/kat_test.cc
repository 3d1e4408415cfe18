// NIST CAVP ShortMsg / LongMsg (SHAVS, SHA3VS) and SHAKE VariableOut through every backend.
#include <gtest/gtest.h>

#include "runners.h"
#include "vector_files.h"

namespace shakedown::vectors {
namespace {

class ShortMsg : public ::testing::TestWithParam<test::AlgBackend> {};
class LongMsg : public ::testing::TestWithParam<test::AlgBackend> {};
class VariableOut : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(ShortMsg, EveryVectorMatches) {
  const auto& p = GetParam();
  const std::string file = cavp_file(p.alg, FileKind::short_msg);
  // Short messages are cheap: every one also goes through the chunked-update path.
  report_count("ShortMsg", p, run_msg_file(file, p, SIZE_MAX), file);
}

TEST_P(LongMsg, EveryVectorMatches) {
  const auto& p = GetParam();
  const std::string file = cavp_file(p.alg, FileKind::long_msg);
  // The chunked path walks each message in small pieces; under QEMU (scale < 1) only the first few.
  report_count("LongMsg", p, run_msg_file(file, p, test::scaled(1000)), file);
}

TEST_P(VariableOut, EveryVectorMatches) {
  const auto& p = GetParam();
  const std::string file = cavp_file(p.alg, FileKind::variable_out);
  report_count("VariableOut", p, run_variable_out_file(file, p), file);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, ShortMsg, ::testing::ValuesIn(alg_backends_where(any_algorithm)),
                         param_label);
INSTANTIATE_TEST_SUITE_P(EveryBackend, LongMsg, ::testing::ValuesIn(alg_backends_where(any_algorithm)),
                         param_label);
INSTANTIATE_TEST_SUITE_P(EveryBackend, VariableOut, ::testing::ValuesIn(alg_backends_where(is_xof)), param_label);

}  // namespace
}  // namespace shakedown::vectors
