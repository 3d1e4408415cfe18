// Direct backend-level checks: x86_64/bmi2 Keccak vs the generic code and OpenSSL; PadLock PHE/PHE2 rows; the
// x86_64/sha512ni predicate.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
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

// A compiled row by name, whether or not this CPU can run it (its functions and predicate are tested directly).
const Sha256Backend& sha256_row(std::string_view n) { return backend<Family::sha256>(n, false); }
const Sha512Backend& sha512_row(std::string_view n) { return backend<Family::sha512>(n, false); }
const KeccakBackend& bmi2() { return backend<Family::keccak>("x86_64/bmi2", false); }

bool is_available(Family family, std::string_view backend) {
  auto names = available_backends(family);
  return std::find(names.begin(), names.end(), backend) != names.end();
}

// ---- Keccak x86_64/bmi2 ----
#ifndef SHAKEDOWN_NO_X86_64_BMI2

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

#endif  // SHAKEDOWN_NO_X86_64_BMI2

// ---- Zhaoxin PadLock PHE (x86_64/phe) and PHE2 (x86_64/phe2) ----
#ifndef SHAKEDOWN_NO_X86_64_PHE

CpuFeatures zhaoxin(std::string vendor, unsigned family, std::initializer_list<CpuFeature> features) {
  CpuFeatures f;
  f.vendor = std::move(vendor);
  f.family = family;
  for (CpuFeature x : features) f.set(x);
  return f;
}

// docs/isa/padlock.md §1.4: vendor CentaurHauls or "  Shanghai  ", PHE+PHE_EN (PHE2+PHE2_EN), family >= 7.
TEST(PadlockPredicates, FollowTheLinuxRule) {
  using enum CpuFeature;
  const auto sha256_phe_available = sha256_row("x86_64/phe").info.available;
  const auto sha512_phe2_available = sha512_row("x86_64/phe2").info.available;
  EXPECT_TRUE(sha256_phe_available(zhaoxin("  Shanghai  ", 7, {x86_phe, x86_phe_en})));
  EXPECT_TRUE(sha256_phe_available(zhaoxin("CentaurHauls", 7, {x86_phe, x86_phe_en})));
  EXPECT_FALSE(sha256_phe_available(zhaoxin("  Shanghai  ", 6, {x86_phe, x86_phe_en}))) << "family 6 is VIA-era";
  EXPECT_FALSE(sha256_phe_available(zhaoxin("  Shanghai  ", 7, {x86_phe}))) << "PHE present but not enabled";
  EXPECT_FALSE(sha256_phe_available(zhaoxin("  Shanghai  ", 7, {x86_phe_en})));
  EXPECT_FALSE(sha256_phe_available(zhaoxin("AuthenticAMD", 25, {x86_phe, x86_phe_en})));
  EXPECT_FALSE(sha256_phe_available(zhaoxin("Shanghai", 7, {x86_phe, x86_phe_en}))) << "vendor is padded";
  EXPECT_TRUE(sha512_phe2_available(zhaoxin("  Shanghai  ", 7, {x86_phe2, x86_phe2_en})));
  EXPECT_FALSE(sha512_phe2_available(zhaoxin("  Shanghai  ", 7, {x86_phe, x86_phe_en})));
  EXPECT_FALSE(sha512_phe2_available(zhaoxin("  Shanghai  ", 7, {x86_phe2})));
  EXPECT_FALSE(sha512_phe2_available(zhaoxin("GenuineIntel", 7, {x86_phe2, x86_phe2_en})));
}

TEST(PadlockRows, FlagsAndPreferenceOrder) {
  const Sha256Backend& phe = sha256_row("x86_64/phe");
  EXPECT_TRUE(phe.info.flags & kBackendSelfTest) << "Zhaoxin family 7 self-test failures (§1.3)";
  EXPECT_FALSE(phe.info.flags & kBackendPinOnly);
  const Sha512Backend& phe2 = sha512_row("x86_64/phe2");
  EXPECT_TRUE(phe2.info.flags & kBackendPinOnly) << "XSHA512 semantics are from unmerged patches";
  // After SHA-NI, before AVX2 (the Linux patch's order), and always before generic.
  std::vector<std::string_view> order;
  for (const auto& b : compiled_backends<Family::sha256>()) order.push_back(b.info.name);
  auto at = [&](std::string_view n) { return std::find(order.begin(), order.end(), n) - order.begin(); };
  const auto phe_at = at("x86_64/phe");
  EXPECT_LT(phe_at, at("generic"));
  if (at("x86_64/shani") < static_cast<std::ptrdiff_t>(order.size())) {
    EXPECT_LT(at("x86_64/shani"), phe_at);
  }
  if (at("x86_64/avx2") < static_cast<std::ptrdiff_t>(order.size())) {
    EXPECT_LT(phe_at, at("x86_64/avx2"));
  }
}

// On a CPU without PadLock the registry must list both backends as unavailable and say why.
TEST(PadlockRows, UnavailableHereWithAReason) {
  if (sha256_row("x86_64/phe").info.available(cpu_features()) ||
      sha512_row("x86_64/phe2").info.available(cpu_features()))
    GTEST_SKIP() << "this CPU (or an assumed profile) has PHE: covered by the execution tests";
  for (auto [family, name] : {std::pair{Family::sha256, "x86_64/phe"}, std::pair{Family::sha512, "x86_64/phe2"}}) {
    bool listed = false;
    for (const auto& s : backends(family)) {
      if (s.name != name) continue;
      listed = true;
      EXPECT_FALSE(s.available) << name;
      EXPECT_FALSE(s.selected) << name;
      EXPECT_NE(s.reason.find("needs"), std::string::npos) << name << ": '" << s.reason << "'";
      EXPECT_NE(s.reason.find("Zhaoxin"), std::string::npos) << name << ": '" << s.reason << "'";
    }
    EXPECT_TRUE(listed) << name << " is not in backends()";
  }
  EXPECT_NE(selected_backend(Family::sha256), "x86_64/phe");
  EXPECT_NE(selected_backend(Family::sha512), "x86_64/phe2");
}

// nblocks == 0 must return before REP XSHA*: here the instruction would SIGILL, so reaching the
// assertions proves it was not executed (and on Zhaoxin RCX = 0 is never issued, §1.5 item 7).
TEST(PadlockZeroBlocks, ReturnsWithoutExecutingTheInstruction) {
  const std::uint8_t data[128] = {};
  std::uint32_t h32[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  std::uint64_t h64[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  sha256_row("x86_64/phe").blocks(h32, data, 0);
  sha512_row("x86_64/phe2").blocks(h64, data, 0);
  EXPECT_EQ(h32[0], 1u);
  EXPECT_EQ(h32[7], 8u);
  EXPECT_EQ(h64[0], 1u);
  EXPECT_EQ(h64[7], 8u);
}

// Execution against OpenSSL (through the backend) and the generic block function (directly, with an
// unaligned caller state and 1..16 blocks). Runs only where the backend is available: real Zhaoxin
// hardware, or SHAKEDOWN_TEST_ASSUME=zhaoxin-phe with the SIGILL emulator installed (emul/).
template <class Word>
void check_blocks_vs_generic(void (*blocks)(Word*, const std::uint8_t*, std::size_t),
                             void (*generic)(Word*, const std::uint8_t*, std::size_t), std::size_t block_size) {
  std::vector<std::uint8_t> msg = test::pattern(16 * block_size, 3);
  for (std::size_t nblocks = 1; nblocks <= 16; ++nblocks) {
    alignas(16) Word storage[9];
    Word* unaligned = storage + 1;  // 4- or 8-byte aligned only: the backend must copy to an aligned buffer
    Word want[8];
    for (int i = 0; i < 8; ++i) unaligned[i] = want[i] = static_cast<Word>(0x0123456789abcdefULL * (i + 1));
    generic(want, msg.data(), nblocks);
    blocks(unaligned, msg.data(), nblocks);
    ASSERT_EQ(0, std::memcmp(unaligned, want, sizeof want)) << "nblocks " << nblocks;
  }
}

void check_digests_vs_openssl(std::initializer_list<Algorithm> algs, std::string_view backend) {
  std::vector<std::uint8_t> msg = test::pattern(1100, 5);
  for (Algorithm alg : algs)
    for (std::size_t len = 0; len <= msg.size(); len += (len < 300 ? 1 : 53)) {
      std::span<const std::uint8_t> data(msg.data(), len);
      std::vector<std::uint8_t> got(digest_size(alg));
      hash(alg, backend, data, got);
      ASSERT_EQ(test::to_hex(got), test::to_hex(test::openssl_digest(alg, data))) << name(alg) << " len " << len;
    }
}

TEST(PadlockExecution, Sha256PheMatchesOpenSSLAndGeneric) {
  if (!is_available(Family::sha256, "x86_64/phe"))
    GTEST_SKIP() << "x86_64/phe not executed: needs the PHE emulator";
  check_blocks_vs_generic<std::uint32_t>(sha256_row("x86_64/phe").blocks, sha256_blocks_generic, 64);
  check_digests_vs_openssl({Algorithm::sha224, Algorithm::sha256}, "x86_64/phe");
  test::record("x86_64", Family::sha256, "x86_64/phe", "blocks_and_digests", 1);
}

TEST(PadlockExecution, Sha512Phe2MatchesOpenSSLAndGeneric) {
  if (!is_available(Family::sha512, "x86_64/phe2"))
    GTEST_SKIP() << "x86_64/phe2 not executed: needs the PHE emulator";
  check_blocks_vs_generic<std::uint64_t>(sha512_row("x86_64/phe2").blocks, sha512_blocks_generic, 128);
  check_digests_vs_openssl({Algorithm::sha384, Algorithm::sha512, Algorithm::sha512_224, Algorithm::sha512_256},
                           "x86_64/phe2");
  test::record("x86_64", Family::sha512, "x86_64/phe2", "blocks_and_digests", 1);
}

#endif  // SHAKEDOWN_NO_X86_64_PHE

// ---- x86_64/sha512ni: the predicate ----
#ifndef SHAKEDOWN_NO_X86_64_SHA512NI
// It needs the SHA512 CPUID bit and VEX.256 state: AVX with OS-enabled YMM state, plus AVX2 for the code around
// the instructions. Each missing piece alone makes it unavailable (docs/intel-sha512.md). The emulated runs cover
// "all present" and qemu-x86_64 -cpu max,-xsave the missing YMM state; this covers the rest.
TEST(X86Sha512ni, PredicateNeedsSha512AvxAvx2AndYmmState) {
  const auto available = sha512_row("x86_64/sha512ni").info.available;
  const CpuFeature all[] = {CpuFeature::x86_sha512, CpuFeature::x86_avx, CpuFeature::x86_avx2, CpuFeature::x86_os_ymm};
  CpuFeatures full;
  for (CpuFeature f : all) full.set(f);
  EXPECT_TRUE(available(full));
  for (CpuFeature missing : all) {
    CpuFeatures f = full;
    f.set(missing, false);
    EXPECT_FALSE(available(f)) << "available without " << feature_name(missing);
  }
}
#endif  // SHAKEDOWN_NO_X86_64_SHA512NI

}  // namespace
}  // namespace shakedown::internal
