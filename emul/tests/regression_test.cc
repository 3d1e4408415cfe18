// Regression proofs: deliberately wrong PadLock callers modelled on real bugs, each detected by the emulator.
#include <gtest/gtest.h>

#include "emul_fixture.h"
#include "guarded.h"
#include "openssl_ref.h"
#include "phe_caller.h"

namespace shakedown::emul::test {
namespace {

class Regression : public ::testing::Test {
 protected:
  void TearDown() override { uninstall(); }
};

// (1) linux padlock_sha256_finup on an empty message (Debian #1103397/#1113996, padlock.md §1.3 root cause 1): the IV is
// copied into the buffer and final mode runs with RAX = RCX = 0. Zhaoxin does nothing, so the "digest" is the IV.
std::vector<std::uint8_t> padlock_driver_empty_sha256() {
  StateBuffer result(kIvSha256);
  static const std::uint8_t empty[1] = {0};
  rep_phe<kOpXsha256>(/*state.count=*/0, /*state.count + count=*/0, empty, result.bytes);
  return result.digest<std::uint32_t>(8);
}

TEST_F(Regression, PadlockDriverEmptyFinalReturnsTheIvOnZhaoxin) {
  install(make_options(PheProfile::zhaoxin));
  const auto got = padlock_driver_empty_sha256();
  EXPECT_NE(to_hex(got), to_hex(openssl("SHA256", {}))) << "the emulator failed to reproduce the Zhaoxin bug";
  EXPECT_EQ(to_hex(got), "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19");  // FIPS 180-4 §5.3.3
  install(make_options(PheProfile::via));  // the same driver was correct on VIA
  EXPECT_EQ(to_hex(padlock_driver_empty_sha256()), to_hex(openssl("SHA256", {})));
}

// (2) struct sha1_state { u32 state[5]; u64 count; ... } hashed in place (commit 63dc06cd12f9, padlock.md §1.3 root
// cause 2): Zhaoxin's 32-byte XSHA1 write zeroes `count`.
struct alignas(16) Sha1StateLikeLinux {
  std::uint32_t state[5];
  std::uint64_t count;
  std::uint8_t buffer[64];
};
static_assert(offsetof(Sha1StateLikeLinux, count) == 24, "count sits inside the 32 bytes XSHA1 writes");

TEST_F(Regression, Xsha1ClobbersTheFieldAfterA20ByteState) {
  install(make_options(PheProfile::zhaoxin));
  Sha1StateLikeLinux st{};
  std::memcpy(st.state, kIvSha1, sizeof st.state);
  st.count = 64;
  const auto block = message(64);
  rep_phe<kOpXsha1>(kMultiBlock, 1, block.data(), st.state);
  EXPECT_EQ(st.count, 0u) << "the 12 zero bytes after the SHA-1 state must land on the next field";
}

// The VIA variant of the same mistake: a 32-byte state buffer where VIA wants 128 writable bytes (padlock.md §1.2.4).
TEST_F(Regression, ViaStateBufferSmallerThan128BytesHitsGuardPage) {
  GuardedBuffer state(32);  // page end - 32: 16-byte aligned
  std::memcpy(state.data(), kIvSha256, 32);
  const auto block = message(64);
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::via));
        rep_phe<kOpXsha256>(kMultiBlock, 1, block.data(), state.data());
      },
      "");
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHAKEDOWN_EMUL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(SHAKEDOWN_EMUL_ASAN)
// A 20-byte heap state: with ASan the 12 extra bytes land in the redzone and are reported.
TEST_F(Regression, Xsha1TwentyByteHeapStateIsReportedByAsan) {
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::zhaoxin));
        auto* state = new std::uint32_t[5];
        std::memcpy(state, kIvSha1, 20);
        const auto block = message(64);
        rep_phe<kOpXsha1>(kMultiBlock, 1, block.data(), state);
        delete[] state;
      },
      "heap-buffer-overflow");
}
#endif

// (3) Input-only register declarations. Each asm block below is exactly what a compiler may emit for two
// consecutive asm statements whose operands are declared input-only ("a"/"c"/"S"): the register is loaded once
// and assumed unchanged for the second statement.

// RAX declared input-only: "a"(-1) for two calls, loaded once. Only strict mode's poison catches it.
void two_blocks_reusing_rax(const std::uint8_t* data, void* state) {
  __asm__ volatile(
      "mov $-1, %%rax\n\t"
      "mov $1, %%rcx\n\t"
      "mov %[first], %%rsi\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      "mov $1, %%rcx\n\t"
      "lea 64(%[first]), %%rsi\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      :
      : [first] "r"(data), "D"(state)
      : "rax", "rcx", "rsi", "memory");
}

TEST_F(Regression, RaxDeclaredInputOnlyIsCaughtByStrictMode) {
  const auto msg = message(128);
  StateBuffer relaxed(kIvSha256);
  install(make_options(PheProfile::zhaoxin));
  two_blocks_reusing_rax(msg.data(), relaxed.bytes);  // passes unnoticed without strict mode
  StateBuffer s(kIvSha256);
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::zhaoxin, /*strict=*/true));
        two_blocks_reusing_rax(msg.data(), s.bytes);
      },
      "xsha256 at 0x[0-9a-f]+: final mode needs RAX");
}

// RSI declared input-only: the same block hashed twice with "S"(data) both times; the instruction advanced RSI,
// so the second call reads the 64 bytes after the block.
void same_block_twice_reusing_rsi(const std::uint8_t* data, void* state) {
  __asm__ volatile(
      "mov %[data], %%rsi\n\t"
      "mov $-1, %%rax\n\t"
      "mov $1, %%rcx\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      "mov $-1, %%rax\n\t"
      "mov $1, %%rcx\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      :
      : [data] "r"(data), "D"(state)
      : "rax", "rcx", "rsi", "memory");
}

// The digest of (block || block) through a correct final call after the two blocks.
std::vector<std::uint8_t> finish_two_block_message(StateBuffer& s, const std::uint8_t* end_of_input) {
  rep_phe<kOpXsha256>(128, 128, end_of_input, s.bytes);
  return s.digest<std::uint32_t>(8);
}

TEST_F(Regression, RsiDeclaredInputOnlyIsCaught) {
  auto msg = message(64);
  std::vector<std::uint8_t> doubled = msg;
  doubled.insert(doubled.end(), msg.begin(), msg.end());
  for (bool strict : {false, true}) {
    install(make_options(PheProfile::zhaoxin, strict));
    auto buf = message(128, 77);  // a different second block follows the data
    std::memcpy(buf.data(), msg.data(), 64);
    StateBuffer s(kIvSha256);
    same_block_twice_reusing_rsi(buf.data(), s.bytes);
    EXPECT_NE(to_hex(finish_two_block_message(s, buf.data() + 128)), to_hex(openssl("SHA256", doubled)));
  }
  GuardedBuffer exact(64);  // with nothing after the block, the second read faults
  std::memcpy(exact.data(), msg.data(), 64);
  StateBuffer s(kIvSha256);
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::zhaoxin, true));
        same_block_twice_reusing_rsi(exact.data(), s.bytes);
      },
      "");
}

// RCX declared input-only in multi-block mode: the second call sees RCX = 0 and hashes nothing.
void two_blocks_reusing_rcx(const std::uint8_t* data, void* state) {
  __asm__ volatile(
      "mov %[data], %%rsi\n\t"
      "mov $1, %%rcx\n\t"
      "mov $-1, %%rax\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      "mov $-1, %%rax\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      :
      : [data] "r"(data), "D"(state)
      : "rax", "rcx", "rsi", "memory");
}

TEST_F(Regression, RcxDeclaredInputOnlyIsCaughtInMultiBlockMode) {
  const auto msg = message(128);
  for (bool strict : {false, true}) {
    install(make_options(PheProfile::zhaoxin, strict));
    StateBuffer s(kIvSha256);
    two_blocks_reusing_rcx(msg.data(), s.bytes);
    EXPECT_NE(to_hex(finish_two_block_message(s, msg.data() + 128)), to_hex(openssl("SHA256", msg)));
  }
}

// RCX declared input-only in final mode: two one-shot digests of equal-length messages with "c"(len) loaded
// once. Non-strict leaves RCX = total (the inferred value), so only strict mode's poison catches it.
void two_oneshots_reusing_rcx(const std::uint8_t* a, const std::uint8_t* b, std::uint64_t len, void* sa, void* sb) {
  __asm__ volatile(
      "mov %[len], %%rcx\n\t"
      "xor %%eax, %%eax\n\t"
      "mov %[a], %%rsi\n\t"
      "mov %[sa], %%rdi\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      "xor %%eax, %%eax\n\t"
      "mov %[b], %%rsi\n\t"
      "mov %[sb], %%rdi\n\t"
      ".byte 0xf3,0x0f,0xa6,0xd0\n\t"
      :
      : [a] "r"(a), [b] "r"(b), [len] "r"(len), [sa] "r"(sa), [sb] "r"(sb)
      : "rax", "rcx", "rsi", "rdi", "memory");
}

TEST_F(Regression, RcxDeclaredInputOnlyIsCaughtInFinalModeByStrictMode) {
  const auto a = message(100, 1);
  GuardedBuffer b(100);
  std::memcpy(b.data(), message(100, 2).data(), 100);
  StateBuffer sa(kIvSha256), sb(kIvSha256);
  install(make_options(PheProfile::zhaoxin));
  two_oneshots_reusing_rcx(a.data(), b.data(), 100, sa.bytes, sb.bytes);  // unnoticed without strict mode
  EXPECT_EQ(to_hex(sb.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", {b.data(), 100})));
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::zhaoxin, true));
        two_oneshots_reusing_rcx(a.data(), b.data(), 100, sa.bytes, sb.bytes);
      },
      "");  // the poisoned length runs into the guard page after b
}

// (4) A misaligned state buffer faults with a diagnostic (docs/isa/padlock.md §1.5 item 2), in every profile.
TEST_F(Regression, MisalignedStateBufferFaults) {
  const auto block = message(64);
  StateBuffer s(kIvSha256);
  for (std::size_t offset : {4, 8}) {
    EXPECT_DEATH(
        {
          install(make_options(PheProfile::zhaoxin));
          rep_phe<kOpXsha256>(kMultiBlock, 1, block.data(), s.bytes + offset);
        },
        "xsha256 at 0x[0-9a-f]+: state buffer RDI is not 16-byte aligned");
    EXPECT_DEATH(
        {
          install(make_options(PheProfile::via, true));
          rep_phe<kOpXsha1>(0, 64, block.data(), s.bytes + offset);
        },
        "xsha1 at 0x[0-9a-f]+: state buffer RDI is not 16-byte aligned");
  }
}

}  // namespace
}  // namespace shakedown::emul::test
