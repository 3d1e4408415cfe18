// The PHE model on its own: hand-written callers in every mode and profile, checked against OpenSSL EVP.
#include <gtest/gtest.h>

#include "emul_fixture.h"
#include "guarded.h"
#include "openssl_ref.h"
#include "phe_model.h"
#include "phe_caller.h"

namespace shakedown::emul::test {
namespace {

using detail::kPoisonRax;
using detail::kPoisonRcx;

const std::size_t kLengths[] = {0, 1, 3, 55, 56, 57, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 191, 200, 1000, 4099};

class PheModel : public EmulatedTest {
 protected:
  // The registers a completed multi-block instruction leaves (docs/isa/padlock.md §1.5 items 5, 9).
  void expect_multi_block_registers(const PheOut& out, const std::uint8_t* data, std::size_t bytes) {
    EXPECT_EQ(out.rsi, data + bytes);
    EXPECT_EQ(out.rcx, 0u);
    EXPECT_EQ(out.rax, strict() ? kPoisonRax : kMultiBlock);
  }
  // ... and a completed final-mode instruction (docs/isa/padlock.md §1.5 item 6).
  void expect_final_registers(const PheOut& out, const std::uint8_t* rsi_after, std::uint64_t total) {
    EXPECT_EQ(out.rsi, rsi_after);
    EXPECT_EQ(out.rax, strict() ? kPoisonRax : total);
    EXPECT_EQ(out.rcx, strict() ? kPoisonRcx : total);
  }
};

// Multi-block mode over a message padded by the test (no padding by the instruction), all three hashes.
TEST_P(PheModel, MultiBlockMatchesOpenSsl) {
  for (std::size_t len : kLengths) {
    SCOPED_TRACE(len);
    const auto msg = message(len);
    const auto p256 = md_pad(msg, 64);
    StateBuffer s1(kIvSha1), s256(kIvSha256);
    expect_multi_block_registers(rep_phe<kOpXsha1>(kMultiBlock, p256.size() / 64, p256.data(), s1.bytes),
                                 p256.data(), p256.size());
    expect_multi_block_registers(rep_phe<kOpXsha256>(kMultiBlock, p256.size() / 64, p256.data(), s256.bytes),
                                 p256.data(), p256.size());
    EXPECT_EQ(to_hex(s1.digest<std::uint32_t>(5)), to_hex(openssl("SHA1", msg)));
    EXPECT_EQ(to_hex(s256.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", msg)));
    if (via()) continue;  // XSHA512 is PHE2, Zhaoxin only
    const auto p512 = md_pad(msg, 128);
    StateBuffer s512(kIvSha512);
    // XSHA512 is always multi-block (padlock.md §1.5 item 4): the Zhaoxin patches leave RAX unset, so pass garbage.
    PheOut out = rep_phe<kOpXsha512>(12345, p512.size() / 128, p512.data(), s512.bytes);
    EXPECT_EQ(out.rsi, p512.data() + p512.size());
    EXPECT_EQ(out.rcx, 0u);
    EXPECT_EQ(out.rax, strict() ? kPoisonRax : 12345u);
    EXPECT_EQ(to_hex(s512.digest<std::uint64_t>(8)), to_hex(openssl("SHA512", msg)));
  }
  EXPECT_EQ(completed_since(Insn::xsha1), std::size(kLengths));
  EXPECT_EQ(completed_since(Insn::xsha256), std::size(kLengths));
  EXPECT_EQ(completed_since(Insn::xsha512), via() ? 0u : std::size(kLengths));
}

// Final mode, one-shot (RAX = 0, RCX = length: OpenSSL padlock_sha*_oneshot). The empty message is its own test.
TEST_P(PheModel, FinalOneShotMatchesOpenSsl) {
  for (std::size_t len : kLengths) {
    if (len == 0) continue;
    SCOPED_TRACE(len);
    const auto msg = message(len, 7);
    StateBuffer s1(kIvSha1), s256(kIvSha256);
    expect_final_registers(rep_phe<kOpXsha1>(0, len, msg.data(), s1.bytes), msg.data() + len, len);
    expect_final_registers(rep_phe<kOpXsha256>(0, len, msg.data(), s256.bytes), msg.data() + len, len);
    EXPECT_EQ(to_hex(s1.digest<std::uint32_t>(5)), to_hex(openssl("SHA1", msg)));
    EXPECT_EQ(to_hex(s256.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", msg)));
  }
  EXPECT_EQ(completed_since(Insn::xsha256), std::size(kLengths) - 1);
  if (options().interrupt_blocks != 0) {
    EXPECT_GT(traps_since(), 2 * (std::size(kLengths) - 1));
  }
}

// Final mode after a multi-block prefix (linux padlock_sha*_finup: RAX = bytes already hashed, RCX = total).
TEST_P(PheModel, FinalAfterMultiBlockPrefixMatchesOpenSsl) {
  for (std::size_t len : kLengths) {
    for (std::size_t prefix_blocks : {std::size_t{1}, len / 64}) {
      if (prefix_blocks * 64 > len || prefix_blocks == 0) continue;
      SCOPED_TRACE(testing::Message() << len << " bytes, prefix " << prefix_blocks << " blocks");
      const auto msg = message(len, 3);
      const std::size_t done = prefix_blocks * 64;
      StateBuffer s(kIvSha256);
      rep_phe<kOpXsha256>(kMultiBlock, prefix_blocks, msg.data(), s.bytes);
      expect_final_registers(rep_phe<kOpXsha256>(done, len, msg.data() + done, s.bytes), msg.data() + len, len);
      EXPECT_EQ(to_hex(s.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", msg)));
      StateBuffer s1(kIvSha1);
      rep_phe<kOpXsha1>(kMultiBlock, prefix_blocks, msg.data(), s1.bytes);
      rep_phe<kOpXsha1>(done, len, msg.data() + done, s1.bytes);
      EXPECT_EQ(to_hex(s1.digest<std::uint32_t>(5)), to_hex(openssl("SHA1", msg)));
    }
  }
}

// Empty final: Zhaoxin leaves everything untouched (docs/isa/padlock.md §1.3 root cause 1), VIA pads to SHA("").
TEST_P(PheModel, FinalEmptyMessageFollowsProfile) {
  const std::uint8_t* nothing = reinterpret_cast<const std::uint8_t*>(16);  // never dereferenced
  StateBuffer s1(kIvSha1), s256(kIvSha256);
  const StateBuffer untouched1 = s1, untouched256 = s256;
  PheOut o1 = rep_phe<kOpXsha1>(0, 0, nothing, s1.bytes);
  PheOut o256 = rep_phe<kOpXsha256>(0, 0, nothing, s256.bytes);
  EXPECT_EQ(o1.rsi, nothing);
  EXPECT_EQ(o256.rsi, nothing);
  if (via()) {
    EXPECT_EQ(to_hex(s1.digest<std::uint32_t>(5)), to_hex(openssl("SHA1", {})));
    EXPECT_EQ(to_hex(s256.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", {})));
  } else {
    EXPECT_EQ(0, std::memcmp(s1.bytes, untouched1.bytes, sizeof s1.bytes));
    EXPECT_EQ(0, std::memcmp(s256.bytes, untouched256.bytes, sizeof s256.bytes));
  }
  EXPECT_EQ(completed_since(Insn::xsha256), 1u);
}

// RCX = 0 in multi-block mode touches no memory: RSI and RDI both point into a PROT_NONE page.
TEST_P(PheModel, MultiBlockZeroCountTouchesNoMemory) {
  GuardedBuffer buf(0);
  PheOut out = rep_phe<kOpXsha256>(kMultiBlock, 0, buf.end(), buf.end());
  EXPECT_EQ(out.rsi, buf.end());
  EXPECT_EQ(out.rcx, 0u);
  rep_phe<kOpXsha1>(kMultiBlock, 0, buf.end(), buf.end());
  if (!via()) rep_phe<kOpXsha512>(kMultiBlock, 0, buf.end(), buf.end());
  if (!via()) rep_phe<kOpXsha256>(0, 0, buf.end(), buf.end());  // Zhaoxin empty final: a no-op too
  EXPECT_EQ(completed_since(Insn::xsha256), via() ? 1u : 2u);
}

// Reads exactly the bytes consumed (padlock.md §1.5 item 10): input ending at a guard page is fine in every mode.
TEST_P(PheModel, ReadsExactlyTheConsumedBytes) {
  for (std::size_t len : {std::size_t{1}, std::size_t{64}, std::size_t{130}, std::size_t{257}}) {
    SCOPED_TRACE(len);
    const auto msg = message(len, 9);
    GuardedBuffer data(len);
    std::memcpy(data.data(), msg.data(), len);
    StateBuffer s(kIvSha256);
    rep_phe<kOpXsha256>(0, len, data.data(), s.bytes);
    EXPECT_EQ(to_hex(s.digest<std::uint32_t>(8)), to_hex(openssl("SHA256", msg)));
    GuardedBuffer blocks(len / 64 * 64);
    StateBuffer m(kIvSha256);
    rep_phe<kOpXsha256>(kMultiBlock, len / 64, blocks.data(), m.bytes);
    if (!via()) {
      GuardedBuffer blocks512(len / 128 * 128);
      StateBuffer m512(kIvSha512);
      rep_phe<kOpXsha512>(kMultiBlock, len / 128, blocks512.data(), m512.bytes);
    }
  }
}

// Bytes written at RDI (padlock.md §1.5 item 8): Zhaoxin 32/32/64 with XSHA1's 12 zero bytes (strict: XSHA512
// also poisons the rest of the 128 bytes Zhaoxin's code reserves); VIA 128 (probe or poison). Nothing beyond is
// touched.
TEST_P(PheModel, WriteWidthFollowsProfile) {
  const auto block = message(128, 5);
  struct Case {
    const char* name;
    std::size_t state_bytes, zhaoxin_bytes;
    void (*run)(const std::uint8_t*, StateBuffer&);
  };
  const Case cases[] = {
      {"xsha1", 20, 32, [](const std::uint8_t* d, StateBuffer& s) { rep_phe<kOpXsha1>(kMultiBlock, 1, d, s.bytes); }},
      {"xsha256", 32, 32,
       [](const std::uint8_t* d, StateBuffer& s) { rep_phe<kOpXsha256>(kMultiBlock, 1, d, s.bytes); }},
      {"xsha512", 64, 64, [](const std::uint8_t* d, StateBuffer& s) { rep_phe<kOpXsha512>(kMultiBlock, 1, d, s.bytes); }},
  };
  for (const Case& c : cases) {
    if (via() && c.state_bytes == 64) continue;
    SCOPED_TRACE(c.name);
    StateBuffer s(kIvSha512);  // 64 bytes of IV-like words; only the first state_bytes are state
    std::memset(s.bytes + c.state_bytes, StateBuffer::kSentinel, sizeof s.bytes - c.state_bytes);
    c.run(block.data(), s);
    for (std::size_t i = c.state_bytes; i < sizeof s.bytes; ++i) {
      std::uint8_t want = StateBuffer::kSentinel;
      if (!via() && i < c.zhaoxin_bytes) want = 0;
      if (via() && strict() && i < detail::kViaStateBuffer) want = detail::kScratchPoison;
      if (!via() && strict() && c.state_bytes == 64 && i < detail::kZhaoxinXsha512Buffer)
        want = detail::kScratchPoison;
      ASSERT_EQ(s.bytes[i], want) << "byte " << i;
    }
  }
}

// The interrupted mode really interrupts: more traps than instructions, same results (checked above).
TEST_P(PheModel, InterruptedModeResumes) {
  const auto msg = message(64 * 10, 2);
  StateBuffer s(kIvSha256);
  const std::uint64_t traps = traps_since();
  rep_phe<kOpXsha256>(kMultiBlock, 10, msg.data(), s.bytes);
  const std::uint64_t k = options().interrupt_blocks;
  const std::uint64_t expected_traps = k == 0 ? 1 : (10 + k - 1) / k;
  EXPECT_EQ(traps_since() - traps, expected_traps);
  EXPECT_EQ(completed_since(Insn::xsha256), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Profiles, PheModel,
    ::testing::Values(make_options(PheProfile::zhaoxin), make_options(PheProfile::zhaoxin, true),
                      make_options(PheProfile::zhaoxin, false, 1), make_options(PheProfile::zhaoxin, true, 3),
                      make_options(PheProfile::via), make_options(PheProfile::via, true),
                      make_options(PheProfile::via, true, 2)),
    options_name);

// XSHA384 (D8) has no documented semantics and XSHA512 does not exist on VIA: both stay illegal (chained).
TEST(PheModelDeath, UndefinedOpcodesStillRaiseSigill) {
  StateBuffer s(kIvSha512);
  const auto block = message(128);
  EXPECT_EXIT(
      {
        install(make_options(PheProfile::zhaoxin));
        rep_phe<kOpXsha384>(kMultiBlock, 1, block.data(), s.bytes);
      },
      ::testing::KilledBySignal(SIGILL), "");
  EXPECT_EXIT(
      {
        install(make_options(PheProfile::via));
        rep_phe<kOpXsha512>(kMultiBlock, 1, block.data(), s.bytes);
      },
      ::testing::KilledBySignal(SIGILL), "");
}

// A caller that asks for more blocks than it has (the GnuTLS check_phe_partial probe, padlock.md §1.2.2) hits the guard.
TEST(PheModelDeath, OverReadHitsGuardPage) {
  GuardedBuffer data(64);
  StateBuffer s(kIvSha256);
  EXPECT_DEATH(
      {
        install(make_options(PheProfile::zhaoxin));
        rep_phe<kOpXsha256>(kMultiBlock, 7, data.data(), s.bytes);
      },
      "");
}

}  // namespace
}  // namespace shakedown::emul::test
