// x86_64/bmi2 Keccak at the seam: its permutation and absorb against the generic code on random states, every
// whole-lane rate and block count, and every Keccak algorithm through its row against OpenSSL. Built into the
// differential suite only where the backend is compiled (diff/CMakeLists.txt).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "internal/generic.h"
#include "shakedown/shakedown.h"
#include "support.h"

namespace shakedown::internal {
namespace {

using State = std::array<std::uint64_t, 25>;

State random_state(std::mt19937_64& rng) {
  State st;
  for (auto& lane : st) lane = rng();
  return st;
}

// The compiled row, whether or not this CPU can run it (its functions are called directly).
const KeccakBackend& bmi2() { return backend<Family::keccak>("x86_64/bmi2", false); }

class KeccakBmi2 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!bmi2().info.available(cpu_features())) GTEST_SKIP() << "x86_64/bmi2 not executed: CPU lacks BMI1/BMI2";
  }
};

TEST_F(KeccakBmi2, PermuteMatchesGenericOnRandomStates) {
  std::mt19937_64 rng(0x6b656363);
  const std::size_t n = test::scaled(2000, 50);
  for (std::size_t i = 0; i < n; ++i) {
    State want = random_state(rng), got = want;
    keccak_permute_generic(want.data());
    bmi2().permute(got.data());
    ASSERT_EQ(got, want) << "random state #" << i;
  }
  test::record("x86_64", Family::keccak, "x86_64/bmi2", "permute_vs_generic", n);
}

// Every whole-lane rate 72..168 (the five FIPS 202 rates take the unrolled paths, the others the
// block-by-block fallback), nblocks 0..16, aligned and misaligned input.
TEST_F(KeccakBmi2, AbsorbMatchesGenericForEveryRateAndBlockCount) {
  std::mt19937_64 rng(0x61627362);
  std::vector<std::uint8_t> buf = test::pattern(168 * 16 + 8, 7);
  std::size_t checks = 0;
  for (std::size_t rate = 72; rate <= 168; rate += 8) {
    for (std::size_t nblocks = 0; nblocks <= 16; ++nblocks) {
      for (std::size_t misalign : {0, 1, 7}) {
        const std::uint8_t* data = buf.data() + misalign;
        State want = random_state(rng), got = want;
        keccak_absorb_generic(want.data(), data, nblocks, rate);
        bmi2().absorb(got.data(), data, nblocks, rate);
        ASSERT_EQ(got, want) << "rate " << rate << " nblocks " << nblocks << " misalign " << misalign;
        ++checks;
      }
    }
  }
  test::record("x86_64", Family::keccak, "x86_64/bmi2", "absorb_vs_generic", checks);
}

// Through the registry row and the framing, against OpenSSL (the independent oracle).
TEST_F(KeccakBmi2, EveryKeccakAlgorithmMatchesOpenSSL) {
  std::vector<std::uint8_t> msg = test::pattern(4 * 168 + 3, 11);
  std::size_t checks = 0;
  for (Algorithm alg : {Algorithm::sha3_224, Algorithm::sha3_256, Algorithm::sha3_384, Algorithm::sha3_512,
                        Algorithm::shake128, Algorithm::shake256}) {
    const std::size_t outlen = is_xof(alg) ? 300 : digest_size(alg);
    for (std::size_t len = 0; len <= msg.size(); len += (len < 200 ? 1 : 37)) {
      std::span<const std::uint8_t> data(msg.data(), len);
      std::vector<std::uint8_t> got(outlen);
      hash(alg, "x86_64/bmi2", data, got);
      ASSERT_EQ(test::to_hex(got), test::to_hex(test::openssl_digest(alg, data, outlen)))
          << name(alg) << " len " << len;
      ++checks;
    }
  }
  test::record("x86_64", Family::keccak, "x86_64/bmi2", "digest_vs_openssl", checks);
}

}  // namespace
}  // namespace shakedown::internal
