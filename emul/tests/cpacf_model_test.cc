// The CPACF model on its own, against OpenSSL: every function through real KIMD/KLMD callers, exact memory
// accesses at guard pages, register post-conditions, CC3 resumption, exceptions, and QEMU-native SHA-512.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "cpacf_caller.h"
#include "cpacf_model.h"
#include "emul/emul.h"
#include "oracle.h"

namespace shakedown::emul::test {
namespace {

using detail::CpacfInstruction;
using detail::CpacfOutcome;
using detail::CpacfRegisters;

// SHA-1/2 parameters: function code, block size, ICV bytes, MBL bytes, initial values as the big-endian
// parameter block (FIPS 180-4 §5.3.1, §5.3.3, §5.3.5), digest name for OpenSSL.
struct Sha2Case {
  const char* name;
  unsigned fc, block, icv, mbl;
  Insn kimd, klmd;
};
constexpr Sha2Case kSha2Cases[] = {
    {"SHA1", 1, 64, 20, 8, Insn::kimd_sha1, Insn::klmd_sha1},
    {"SHA256", 2, 64, 32, 8, Insn::kimd_sha256, Insn::klmd_sha256},
    {"SHA512", 3, 128, 64, 16, Insn::kimd_sha512, Insn::klmd_sha512},
};

std::vector<std::uint8_t> initial_icv(unsigned fc) {
  const std::uint32_t sha1[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  const std::uint32_t sha256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const std::uint64_t sha512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                   0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
  std::vector<std::uint8_t> out;
  auto put = [&](std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  if (fc == 1)
    for (auto w : sha1) put(w, 4);
  if (fc == 2)
    for (auto w : sha256) put(w, 4);
  if (fc == 3)
    for (auto w : sha512) put(w, 8);
  return out;
}

// SHA-3/SHAKE: function code, rate, OpenSSL name, digest bytes (0 = XOF).
struct KeccakCase {
  const char* name;
  unsigned fc, rate, digest;
};
constexpr KeccakCase kKeccakCases[] = {
    {"SHA3-224", 0x20, 144, 28}, {"SHA3-256", 0x21, 136, 32}, {"SHA3-384", 0x22, 104, 48},
    {"SHA3-512", 0x23, 72, 64},  {"SHAKE128", 0x24, 168, 0},  {"SHAKE256", 0x25, 136, 0},
};

// Message bit length as the big-endian MBL field (16 bytes for SHA-512, 8 otherwise).
void put_mbl(std::uint8_t* field, unsigned bytes, std::uint64_t message_bytes) {
  std::memset(field, 0, bytes);
  const std::uint64_t bits = message_bytes * 8;
  for (unsigned i = 0; i < 8; ++i) field[bytes - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

class CpacfModel : public ::testing::TestWithParam<std::uint64_t> {
 protected:
  void SetUp() override {
    Options o;
    o.model = Model::cpacf;
    o.interrupt_blocks = GetParam();
    install(o);
    before_ = counters();
  }
  void TearDown() override { uninstall(); }
  std::uint64_t completed_since(Insn kind) const {
    const auto i = static_cast<std::size_t>(kind);
    return counters().completed[i] - before_.completed[i];
  }
  std::uint64_t traps_since() const { return counters().traps - before_.traps; }
  // Executions of an instruction that processes `blocks` blocks: 1 + one CC3 per interrupt boundary.
  std::uint64_t expected_executions(std::uint64_t blocks) const {
    const std::uint64_t k = GetParam();
    return k == 0 || blocks == 0 ? 1 : (blocks + k - 1) / k;
  }
  Counters before_;
};

// SHA-1/2: KIMD over the whole blocks of a prefix, then KLMD over the rest with MBL = total bits, both with the
// parameter block at a guard page (exactly the documented size) and the input at another.
TEST_P(CpacfModel, Sha2KimdThenKlmdMatchesOpenssl) {
  for (const Sha2Case& c : kSha2Cases) {
    const bool native = qemu_implements(kKimd, c.fc);
    for (std::size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 111u, 112u, 119u, 120u, 127u, 128u, 129u, 300u, 1000u}) {
      SCOPED_TRACE(std::string(c.name) + " len " + std::to_string(len));
      const auto msg = pattern(len, static_cast<std::uint32_t>(len + c.fc));
      GuardedBuffer input(len), param(c.icv + c.mbl);
      if (len) std::memcpy(input.data(), msg.data(), len);
      const auto iv = initial_icv(c.fc);
      std::memcpy(param.data(), iv.data(), c.icv);
      put_mbl(param.data() + c.icv, c.mbl, len);
      const std::size_t prefix = len / c.block / 2 * c.block;  // some whole blocks through KIMD
      const std::uint64_t kimd_before = completed_since(c.kimd), klmd_before = completed_since(c.klmd);
      const CpacfRegs k = cpacf<kKimd>(c.fc, param.data(), input.data(), prefix);
      EXPECT_EQ(k.cc, 0u);
      EXPECT_EQ(k.src, reinterpret_cast<std::uintptr_t>(input.data() + prefix));
      EXPECT_EQ(k.src_len, 0u);
      if (!native) {
        EXPECT_EQ(k.executions, expected_executions(prefix / c.block));  // QEMU's own split is its business
      }
      const CpacfRegs l = cpacf<kKlmd>(c.fc, param.data(), input.data() + prefix, len - prefix);
      EXPECT_EQ(l.cc, 0u);
      EXPECT_EQ(l.src, reinterpret_cast<std::uintptr_t>(input.end()));
      EXPECT_EQ(l.src_len, 0u);
      EXPECT_EQ(to_hex({param.data(), c.icv}), to_hex(openssl_evp(c.name, msg)));
      if (!native) {
        EXPECT_EQ(completed_since(c.klmd) - klmd_before, 1u) << "the KLMD was not emulated";
        EXPECT_EQ(completed_since(c.kimd) - kimd_before, 1u) << "the KIMD was not emulated";
      }
    }
  }
}

// SHA-3: KIMD over whole blocks, then KLMD with the padding; the 200-byte state at a guard page.
TEST_P(CpacfModel, Sha3KimdThenKlmdMatchesOpenssl) {
  for (const KeccakCase& c : kKeccakCases) {
    if (c.digest == 0) continue;
    for (std::size_t len : {0u, 1u, 71u, 72u, 73u, 103u, 104u, 135u, 136u, 143u, 144u, 145u, 500u}) {
      SCOPED_TRACE(std::string(c.name) + " len " + std::to_string(len));
      const auto msg = pattern(len, static_cast<std::uint32_t>(len * 3 + c.fc));
      GuardedBuffer input(len), param(200);
      if (len) std::memcpy(input.data(), msg.data(), len);
      std::memset(param.data(), 0, 200);
      const std::size_t prefix = len / c.rate * c.rate;
      const CpacfRegs k = cpacf<kKimd>(c.fc, param.data(), input.data(), prefix);
      EXPECT_EQ(k.executions, expected_executions(prefix / c.rate));
      const CpacfRegs l = cpacf<kKlmd>(c.fc, param.data(), input.data() + prefix, len - prefix);
      EXPECT_EQ(l.src_len, 0u);
      EXPECT_EQ(to_hex({param.data(), c.digest}), to_hex(openssl_evp(c.name, msg)));
    }
  }
  EXPECT_GT(completed_since(Insn::kimd_sha3), 0u);
  EXPECT_GT(completed_since(Insn::klmd_sha3), 0u);
}

// KLMD alone over a long message (the CC3 loop runs inside KLMD), with NIP and garbage in the block.
TEST_P(CpacfModel, Sha3KlmdNoIcvIgnoresTheBlock) {
  for (const KeccakCase& c : kKeccakCases) {
    if (c.digest == 0) continue;
    const auto msg = pattern(3 * c.rate + 5, c.fc);
    GuardedBuffer param(200);
    std::memset(param.data(), 0xa5, 200);
    const CpacfRegs l =
        cpacf<kKlmd>(c.fc | detail::kGr0NoIcv | detail::kGr0Dufop, param.data(), msg.data(), msg.size());
    EXPECT_EQ(l.executions, expected_executions(3));
    EXPECT_EQ(to_hex({param.data(), c.digest}), to_hex(openssl_evp(c.name, msg))) << c.name;
  }
}

// SHAKE: KLMD squeezes R1+1 bytes to R1 (output at a guard page), then the padding-state bit continues.
TEST_P(CpacfModel, ShakeKlmdSqueezesAndContinues) {
  for (const KeccakCase& c : kKeccakCases) {
    if (c.digest != 0) continue;
    for (std::size_t len : {0u, 1u, 167u, 168u, 169u, 400u}) {
      for (std::size_t outlen : {0u, 1u, 32u, 136u, 168u, 169u, 500u}) {
        SCOPED_TRACE(std::string(c.name) + " len " + std::to_string(len) + " out " + std::to_string(outlen));
        const auto msg = pattern(len, static_cast<std::uint32_t>(len + 7 * outlen));
        GuardedBuffer param(200), out(outlen);
        std::memset(param.data(), 0, 200);
        const CpacfRegs l = cpacf<kKlmd>(c.fc, param.data(), msg.data(), len, out.data(), outlen);
        EXPECT_EQ(l.dst, reinterpret_cast<std::uintptr_t>(out.end()));
        EXPECT_EQ(l.dst_len, 0u);
        EXPECT_EQ(l.src_len, 0u);
        EXPECT_EQ(to_hex({out.data(), outlen}), to_hex(openssl_evp(c.name, msg, outlen)));
      }
    }
    // Continuation: 2 rates of output, then 3 more rates with the padding-state bit (no absorb, no padding).
    const auto msg = pattern(77, c.fc);
    std::vector<std::uint8_t> out(5 * c.rate);
    GuardedBuffer param(200);
    std::memset(param.data(), 0, 200);
    cpacf<kKlmd>(c.fc, param.data(), msg.data(), msg.size(), out.data(), 2 * c.rate);
    cpacf<kKlmd>(c.fc | detail::kGr0PaddingState, param.data(), nullptr, 0, out.data() + 2 * c.rate, 3 * c.rate);
    EXPECT_EQ(to_hex(out), to_hex(openssl_evp(c.name, msg, out.size()))) << c.name;
  }
  EXPECT_GT(completed_since(Insn::klmd_shake), 0u);
}

// A bare Keccak-f[1600]: KIMD-SHA3-512 over one zero block on the zero state. Lane 0 of Keccak-f[1600](0) is
// 0xF1258F7940E1DDE7 (the Keccak team's KeccakF-1600 intermediate values), stored little-endian.
TEST_P(CpacfModel, KimdOverAZeroBlockIsThePermutation) {
  std::uint8_t state[200] = {}, zero[72] = {};
  cpacf<kKimd>(0x23, state, zero, sizeof zero);
  const std::uint8_t lane0[8] = {0xe7, 0xdd, 0xe1, 0x40, 0x79, 0x8f, 0x25, 0xf1};
  EXPECT_EQ(to_hex({state, 8}), to_hex(lane0));
}

TEST_P(CpacfModel, KimdLengthZeroTouchesNothing) {
  GuardedBuffer empty(0);  // the parameter block pointer is the guard page itself
  const CpacfRegs r = cpacf<kKimd>(0x21, empty.data(), empty.data(), 0);
  EXPECT_EQ(r.cc, 0u);
  EXPECT_EQ(r.src_len, 0u);
}

INSTANTIATE_TEST_SUITE_P(Interrupts, CpacfModel, ::testing::Values(0u, 1u, 3u),
                         [](const ::testing::TestParamInfo<std::uint64_t>& i) {
                           return i.param == 0 ? std::string("complete") : "interrupt" + std::to_string(i.param);
                         });

// ---- Specification exceptions and functions the profile lacks (death tests, fork style) ----

Options profile(std::uint32_t functions) {
  Options o;
  o.model = Model::cpacf;
  o.cpacf_functions = functions;
  return o;
}

TEST(CpacfExceptions, ProgramErrorsAreSpecificationExceptions) {
  std::uint8_t param[200] = {}, data[136] = {}, out[8];
  install(profile(kCpacfAll));
  EXPECT_DEATH(cpacf<kKimd>(0x21, param, data, 135), "KIMD length .* not a multiple");
  EXPECT_DEATH((cpacf<kKimd, true, 4, 3>(0x21, param, data, 136)), "R2 must designate an even register");
  EXPECT_DEATH((cpacf<kKimd, true, 4, 0>(0x21, param, data, 136)), "R2 must designate an even register");
  EXPECT_DEATH(cpacf<kKimd>(0x21 | detail::kGr0Modifier, param, data, 136), "modifier bit");
  EXPECT_DEATH((cpacf<kKlmd, true, 5, 2>(0x24, param, data, 1, out, sizeof out)), "R1 even and non-zero");
  uninstall();
}

TEST(CpacfExceptions, AFunctionTheProfileLacksStaysIllegal) {
  std::uint8_t param[32] = {}, data[64] = {};
  install(profile(kCpacfSha3));
  EXPECT_EXIT(cpacf<kKimd>(0x02, param, data, 64), ::testing::KilledBySignal(SIGILL), "");
  uninstall();
}

// OpenSSL 3.4+ (s390xcpuid.pl's s390x_kimd / s390x_klmd, Debian forky's libcrypto 3.6.5) issues B93E 8002 and
// B93F 8042: M3 = 8 in byte 2, a modifier that machines before MSA 12 and QEMU ignore. The model refused byte 2 != 0
// (SIGILL) until OpenSSL's own code ran on it (docs/third-party.md).
TEST(CpacfDecode, TheM3FieldIsAModifierNotAnotherInstruction) {
  const std::uint8_t kimd[4] = {0xb9, 0x3e, 0x80, 0x02}, klmd[4] = {0xb9, 0x3f, 0x80, 0x42};
  const auto a = detail::decode_cpacf(kimd), b = detail::decode_cpacf(klmd);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(a->klmd);
  EXPECT_EQ(a->r1, 0u);
  EXPECT_EQ(a->r2, 2u);
  EXPECT_EQ(a->m3, 8u);
  EXPECT_TRUE(b->klmd);
  EXPECT_EQ(b->r1, 4u);
  EXPECT_EQ(b->r2, 2u);
  const std::uint8_t other[4] = {0xb9, 0x2e, 0x80, 0x42};  // KM: not ours
  EXPECT_FALSE(detail::decode_cpacf(other).has_value());
}

// The query (fc 0) lists exactly the emulated codes; QEMU answers the real query itself, so the model's answer
// is checked by calling it directly.
TEST(CpacfQuery, ListsTheEmulatedFunctions) {
  Options o = profile(kCpacfSha256 | kCpacfSha3);
  std::uint8_t vector[16];
  CpacfRegisters regs{};
  regs.gr[1] = reinterpret_cast<std::uintptr_t>(vector);
  regs.psw_mask = detail::kPsw64BitMode;
  const auto step = detail::run_cpacf(CpacfInstruction{false, 0, 0}, regs, o);
  EXPECT_EQ(step.outcome, CpacfOutcome::completed);
  const std::uint8_t want[16] = {0xa0, 0, 0, 0, 0xfc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // fc 0, 2, 0x20..0x25
  EXPECT_EQ(to_hex(vector), to_hex(want));
}

// ---- QEMU-native SHA-512 vs the model ----

// Under `-cpu max` QEMU runs KIMD/KLMD-SHA-512 itself; the same inputs through the model (called directly, no
// trap) must give the same parameter block and registers. Under `nosha512` the instruction traps and the test
// checks the emulated one instead. SHAKEDOWN_CPACF_SHA512=native|emulated (set by the ctest entries) states
// which one must happen, so a run where QEMU silently changed cannot pass.
TEST(CpacfSha512, QemuNativeAndModelAgree) {
  const bool native = qemu_implements(kKimd, 3) && qemu_implements(kKlmd, 3);
  if (const char* want = std::getenv("SHAKEDOWN_CPACF_SHA512"); want && *want) {
    ASSERT_EQ(native, std::string(want) == "native") << "SHAKEDOWN_CPACF_SHA512=" << want;
  }
  Options o = profile(kCpacfAll);
  install(o);
  const Counters before = counters();
  for (std::size_t len : {0u, 1u, 111u, 112u, 128u, 129u, 255u, 256u, 1000u, 9000u}) {
    for (bool klmd : {false, true}) {
      const std::size_t n = klmd ? len : len / 128 * 128;
      const auto msg = pattern(n, static_cast<std::uint32_t>(n + klmd));
      std::uint8_t real[80], model[80];
      const auto iv = initial_icv(3);
      std::memcpy(real, iv.data(), 64);
      put_mbl(real + 64, 16, n);
      std::memcpy(model, real, sizeof real);
      const CpacfRegs r = klmd ? cpacf<kKlmd>(3, real, msg.data(), n) : cpacf<kKimd>(3, real, msg.data(), n);
      CpacfRegisters regs{};
      regs.psw_mask = detail::kPsw64BitMode;
      regs.gr[0] = 3;
      regs.gr[1] = reinterpret_cast<std::uintptr_t>(model);
      regs.gr[2] = reinterpret_cast<std::uintptr_t>(msg.data());
      regs.gr[3] = n;
      const auto step = detail::run_cpacf(CpacfInstruction{klmd, 4, 2}, regs, o);
      ASSERT_EQ(step.outcome, CpacfOutcome::completed);
      EXPECT_EQ(to_hex(real), to_hex(model)) << (klmd ? "KLMD" : "KIMD") << " len " << n;
      EXPECT_EQ(r.src, regs.gr[2]);
      EXPECT_EQ(r.src_len, regs.gr[3]);
      if (klmd) {
        EXPECT_EQ(to_hex({real, 64}), to_hex(openssl_evp("SHA512", msg)));
      }
    }
  }
  const Counters after = counters();
  const auto idx = static_cast<std::size_t>(Insn::klmd_sha512);
  if (native) {
    EXPECT_EQ(after.completed[idx] - before.completed[idx], 0u) << "QEMU should have run KLMD-SHA-512 itself";
  } else {
    EXPECT_EQ(after.completed[idx] - before.completed[idx], 10u) << "every KLMD-SHA-512 must have been emulated";
  }
  uninstall();
}

}  // namespace
}  // namespace shakedown::emul::test
