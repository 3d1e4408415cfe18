// The Zhaoxin PadLock rows (x86_64/phe, x86_64/phe2): their predicates (the Linux rule), flags and place in the
// preference order, the registry's reason where the CPU lacks PadLock, nblocks == 0 never executing the
// instruction, and execution against OpenSSL and the generic block functions where the backends are available (real
// Zhaoxin hardware, or the emulated environments of ci/matrix/x86_64.txt: SHAKEDOWN_TEST_ASSUME=zhaoxin-phe with the
// model installed). Built only where both rows are compiled (emul/x86_64.cmake).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "internal/generic.h"
#include "shakedown/shakedown.h"
#include "support.h"

namespace shakedown::internal {
namespace {

// A compiled row by name, whether or not this CPU can run it (its functions and predicate are tested directly).
const Sha256Backend& sha256_row(std::string_view n) { return backend<Family::sha256>(n, false); }
const Sha512Backend& sha512_row(std::string_view n) { return backend<Family::sha512>(n, false); }

bool is_available(Family family, std::string_view backend) {
  auto names = available_backends(family);
  return std::find(names.begin(), names.end(), backend) != names.end();
}

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
  if (!is_available(Family::sha256, "x86_64/phe")) GTEST_SKIP() << "x86_64/phe not executed: needs the PHE emulator";
  check_blocks_vs_generic<std::uint32_t>(sha256_row("x86_64/phe").blocks, sha256_blocks_generic, 64);
  check_digests_vs_openssl({Algorithm::sha224, Algorithm::sha256}, "x86_64/phe");
  test::record("x86_64", Family::sha256, "x86_64/phe", "blocks_and_digests", 1);
}

TEST(PadlockExecution, Sha512Phe2MatchesOpenSSLAndGeneric) {
  if (!is_available(Family::sha512, "x86_64/phe2")) GTEST_SKIP() << "x86_64/phe2 not executed: needs the PHE emulator";
  check_blocks_vs_generic<std::uint64_t>(sha512_row("x86_64/phe2").blocks, sha512_blocks_generic, 128);
  check_digests_vs_openssl({Algorithm::sha384, Algorithm::sha512, Algorithm::sha512_224, Algorithm::sha512_256},
                           "x86_64/phe2");
  test::record("x86_64", Family::sha512, "x86_64/phe2", "blocks_and_digests", 1);
}

}  // namespace
}  // namespace shakedown::internal
