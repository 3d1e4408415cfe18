// NIST HMACVS (HMAC.rsp) and Wycheproof HMAC vectors through every backend.
#include <gtest/gtest.h>

#include <cstdio>

#include "cavp.h"
#include "runners.h"
#include "vector_files.h"

namespace shakedown::vectors {
namespace {

class NistHmac : public ::testing::TestWithParam<test::AlgBackend> {};
class WycheproofHmac : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(NistHmac, EveryVectorOfItsSectionMatches) {
  const auto& p = GetParam();
  const std::string file = data_path(kNistHmacFile);
  std::size_t skipped_sha1 = 0;
  std::size_t ran = run_nist_hmac_file(file, p, &skipped_sha1);
  std::printf("[vectors] HMAC: skipped %zu [L=20] SHA-1 records (SHA-1 is out of scope)\n", skipped_sha1);
  report_count("HMAC", p, ran, file);
}

TEST_P(WycheproofHmac, ValidTagsVerifyInvalidTagsDoNot) {
  const auto& p = GetParam();
  const std::string file = wycheproof_hmac_file(p.alg);
  report_count("Wycheproof", p, run_wycheproof_file(file, p), file);
}

// The SHA-1 sections are skipped on purpose, and counted so that a change in the file shows.
TEST(NistHmacFile, Sha1SectionsAreCountedAsSkipped) {
  std::vector<HmacVector> vectors;
  try {
    vectors = parse_hmac_file(data_path(kNistHmacFile));
  } catch (const VectorFileError& e) {
    FAIL() << e.what();
  }
  std::size_t sha1 = 0;
  for (const auto& v : vectors) sha1 += v.digest_bytes == 20;
  EXPECT_GT(sha1, 0u);
  EXPECT_LT(sha1, vectors.size());
  std::printf("[vectors] HMAC.rsp: %zu records, %zu SHA-1 skipped, %zu run\n", vectors.size(), sha1,
              vectors.size() - sha1);
}

// HMACVS has sections for SHA-224/256/384/512 only (SHA-512/t and SHA-3 HMAC come from Wycheproof).
bool in_nist_hmac_file(Algorithm alg) {
  return alg == Algorithm::sha224 || alg == Algorithm::sha256 || alg == Algorithm::sha384 ||
         alg == Algorithm::sha512;
}
bool hmac_capable(Algorithm alg) { return !is_xof(alg); }

INSTANTIATE_TEST_SUITE_P(EveryBackend, NistHmac, ::testing::ValuesIn(alg_backends_where(in_nist_hmac_file)),
                         param_label);
INSTANTIATE_TEST_SUITE_P(EveryBackend, WycheproofHmac, ::testing::ValuesIn(alg_backends_where(hmac_capable)),
                         param_label);

}  // namespace
}  // namespace shakedown::vectors
