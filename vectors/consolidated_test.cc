// Consolidated "hash of hashes" over lengths 0..4096 (consolidated_spec.h) vs data/consolidated.txt.
#include <gtest/gtest.h>

#include <algorithm>

#include "consolidated.h"
#include "consolidated_spec.h"
#include "runners.h"
#include "vector_files.h"

namespace shakedown::vectors {
namespace {

constexpr std::string_view kConsolidatedFile = "consolidated.txt";

class Consolidated : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(Consolidated, OneShotAndChunkedMatchTheCheckedInFile) {
  const auto& p = GetParam();
  const std::string file = data_path(kConsolidatedFile);
  std::map<Algorithm, Bytes> expected;
  try {
    expected = read_consolidated_file(file);
  } catch (const VectorFileError& e) {
    FAIL() << e.what();
  }
  auto it = expected.find(p.alg);
  ASSERT_NE(it, expected.end()) << file << ": expected a line for " << name(p.alg);

  constexpr std::size_t kLengths = consolidated::kMaxLength + 1;
  const Bytes one_shot = consolidated_outputs(p, HashPath::one_shot, kLengths);
  EXPECT_EQ(test::to_hex(it->second), test::to_hex(consolidate(p, one_shot)))
      << file << ": " << who(p) << ": one-shot hash(alg, backend, ...) over lengths 0.." << kLengths - 1;

  // The chunked path covers every length natively; under QEMU (scale < 1) a prefix, compared
  // length by length with the one-shot outputs that the file just verified.
  const std::size_t lengths = std::min(kLengths, test::scaled(kLengths));
  const Bytes chunked = consolidated_outputs(p, HashPath::chunked, lengths);
  ASSERT_LE(chunked.size(), one_shot.size());
  EXPECT_TRUE(std::equal(chunked.begin(), chunked.end(), one_shot.begin()))
      << who(p) << ": chunked Hasher updates differ from one-shot for some length below " << lengths;
  if (lengths == kLengths) {
    EXPECT_EQ(test::to_hex(it->second), test::to_hex(consolidate(p, chunked)))
        << file << ": " << who(p) << ": chunked Hasher updates";
  }
  report_count("Consolidated", p, kLengths, file);
}

// The spec's names must be the library's canonical names (the file is keyed by them).
TEST(ConsolidatedSpec, NamesAreTheLibrarysCanonicalNames) {
  for (const auto& e : consolidated::kEntries) {
    auto alg = parse_algorithm(e.name);
    ASSERT_TRUE(alg.has_value()) << e.name;
    EXPECT_EQ(name(*alg), e.name);
    EXPECT_EQ(is_xof(*alg), e.xof) << e.name;
  }
  EXPECT_EQ(consolidated::kEntries.size(), kAllAlgorithms.size());
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, Consolidated, ::testing::ValuesIn(alg_backends_where(any_algorithm)),
                         param_label);

}  // namespace
}  // namespace shakedown::vectors
