// Regression proofs: deliberately wrong CPACF callers, each of which the model must catch (issue #8).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstring>

#include "cpacf_caller.h"
#include "emul/emul.h"
#include "guarded.h"
#include "openssl_ref.h"

namespace shakedown::emul::test {
namespace {

Options cpacf_profile(std::uint64_t interrupt) {
  Options o;
  o.model = Model::cpacf;
  o.interrupt_blocks = interrupt;
  return o;
}

// SHA-256 initial value as the big-endian KIMD parameter block (FIPS 180-4 §5.3.3).
void sha256_iv(std::uint8_t p[32]) {
  const std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  for (int i = 0; i < 8; ++i)
    for (int b = 0; b < 4; ++b) p[4 * i + b] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * b));
}

// 1. A caller without the `brc 1` loop. Complete execution hides the bug; interrupt=1 (CC3 after one block,
//    as QEMU and hardware may do) leaves blocks unprocessed and the digest wrong.
TEST(CpacfRegression, CallerWithoutTheCc3LoopIsCaught) {
  const auto msg = pattern(4 * 64);  // four whole blocks, then an empty KLMD final
  const auto want = openssl("SHA256", msg);
  for (std::uint64_t interrupt : {0u, 1u}) {
    install(cpacf_profile(interrupt));
    std::uint8_t param[40];
    sha256_iv(param);
    std::memset(param + 32, 0, 8);
    param[38] = 0x08;  // MBL = 256 bytes * 8 = 0x800 bits, big-endian
    const CpacfRegs r = cpacf<kKimd, /*Loop=*/false>(2, param, msg.data(), msg.size());
    cpacf<kKlmd>(2, param, nullptr, 0);
    if (interrupt == 0) {
      EXPECT_EQ(r.cc, 0u);
      EXPECT_EQ(to_hex({param, 32}), to_hex(want)) << "the latent bug is invisible without interruption";
    } else {
      EXPECT_EQ(r.cc, 3u);
      EXPECT_EQ(r.src_len, 3u * 64) << "one block processed, three left for the missing loop";
      EXPECT_NE(to_hex({param, 32}), to_hex(want)) << "a caller without the CC3 loop went unnoticed";
    }
    uninstall();
  }
}

// 2. KLMD-SHA-256 whose caller forgets the message bit length: the instruction pads with whatever MBL the
//    parameter block holds (it never counts bytes itself), so the digest is wrong.
TEST(CpacfRegression, KlmdSha256WithoutTheMessageBitLengthIsCaught) {
  install(cpacf_profile(0));
  const auto msg = pattern(100);
  std::uint8_t param[40];
  sha256_iv(param);
  std::memset(param + 32, 0, 8);  // MBL forgotten (left 0)
  cpacf<kKlmd>(2, param, msg.data(), msg.size());
  EXPECT_NE(to_hex({param, 32}), to_hex(openssl("SHA256", msg)));
  sha256_iv(param);
  param[38] = 0x03;  // 800 bits = 0x320
  param[39] = 0x20;
  cpacf<kKlmd>(2, param, msg.data(), msg.size());
  EXPECT_EQ(to_hex({param, 32}), to_hex(openssl("SHA256", msg))) << "with the MBL set the same caller is right";
  uninstall();
}

// 3. A 20-byte SHA-1 chaining value next to another field. KIMD reads and writes exactly 20 bytes, so the
//    neighbour survives; KLMD needs 28 (ICV + 8-byte MBL): it takes the neighbour as the MBL — wrong digest — and
//    a 20-byte block at a guard page faults.
struct Sha1Context {
  std::uint8_t h[20];
  std::uint32_t buffered;  // the neighbouring field
};
static_assert(offsetof(Sha1Context, buffered) == 20, "the field the KLMD-SHA-1 MBL overlaps");

TEST(CpacfRegression, TwentyByteSha1BlockNextToAnotherFieldIsCaught) {
  install(cpacf_profile(0));
  const std::uint8_t iv[20] = {0x67, 0x45, 0x23, 0x01, 0xef, 0xcd, 0xab, 0x89, 0x98, 0xba,
                               0xdc, 0xfe, 0x10, 0x32, 0x54, 0x76, 0xc3, 0xd2, 0xe1, 0xf0};
  const auto msg = pattern(64 + 10);
  Sha1Context ctx;
  std::memcpy(ctx.h, iv, 20);
  ctx.buffered = 0x11223344;
  cpacf<kKimd>(1, &ctx, msg.data(), 64);
  EXPECT_EQ(ctx.buffered, 0x11223344u) << "KIMD-SHA-1 must touch exactly its 20-byte block";
  cpacf<kKlmd>(1, &ctx, msg.data() + 64, 10);
  EXPECT_NE(to_hex({ctx.h, 20}), to_hex(openssl("SHA1", msg))) << "KLMD took the neighbouring field as the MBL";

  GuardedBuffer twenty(20);
  std::memcpy(twenty.data(), iv, 20);
  EXPECT_EXIT(cpacf<kKlmd>(1, twenty.data(), msg.data(), 10), ::testing::KilledBySignal(SIGSEGV), "");
  uninstall();
}

}  // namespace
}  // namespace shakedown::emul::test
