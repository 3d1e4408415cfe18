// Emulator conformance, s390x: the CPACF model's KIMD/KLMD-SHA-512 (src/cpacf_model.cc) judged by QEMU's own
// implementation, which QEMU 7.2 and QEMU 10 both execute (function code 3; docs/qemu10.md).
//
// One execution at a time, from random ICVs, message-bit lengths and message lengths: condition code, parameter
// block and R2/R2+1 must agree. Where QEMU stops early with CC3 after n blocks (the architecture lets the CPU
// choose n), the model must stop at the same point when told to interrupt after n. Then random KIMD/KLMD splits of
// one message, compared after every call and with OpenSSL at the end, and the specification exceptions. The model
// is called as a function (detail::run_cpacf), never through the trap handler.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cpacf_caller.h"
#include "cpacf_model.h"
#include "oracle.h"
#include "sigill_probe.h"

namespace shakedown::emul::test {
namespace {

using detail::CpacfInstruction;
using detail::CpacfOutcome;
using detail::CpacfRegisters;

// KIMD/KLMD-SHA-512 (z/Architecture Principles of Operation, message-security assist; src/cpacf_model.h):
// 128-byte blocks; the parameter block is the ICV (eight big-endian 64-bit words) followed, for KLMD, by the
// 128-bit message bit length (MBL).
constexpr unsigned kSha512 = detail::kFcSha512;
constexpr std::size_t kBlock = 128, kIcv = 64, kParam = 80;
using Param = std::array<std::uint8_t, kParam>;

// The outcome of one execution: condition code, parameter block, how far R2 moved and what R2+1 holds.
struct Execution {
  unsigned cc = 0;
  Param param{};
  std::uint64_t consumed = 0, remaining = 0;
  bool operator==(const Execution&) const = default;
};

std::string text(const Execution& e) {
  std::ostringstream out;
  out << "cc " << e.cc << ", R2 advanced by " << e.consumed << ", R2+1 = " << e.remaining << ", ICV "
      << to_hex({e.param.data(), kIcv});
  return out.str();
}

// One execution on QEMU: the caller without the CC3 loop, so the test sees where QEMU stopped.
Execution on_qemu(bool klmd, const Param& param, const std::uint8_t* msg, std::size_t len) {
  Execution e;
  e.param = param;
  const CpacfRegs r = klmd ? cpacf<kKlmd, false>(kSha512, e.param.data(), msg, len)
                           : cpacf<kKimd, false>(kSha512, e.param.data(), msg, len);
  e.cc = r.cc;
  e.consumed = r.src - reinterpret_cast<std::uintptr_t>(msg);
  e.remaining = r.src_len;
  return e;
}

// The same execution on the model, told to stop after `interrupt` whole blocks (0: run to completion); insn: the
// decoded instruction (R1 = 4, R2 = 2 as the library's).
Execution on_model(CpacfInstruction insn, const Param& param, const std::uint8_t* msg, std::size_t len,
                   std::uint64_t interrupt) {
  Execution e;
  e.param = param;
  CpacfRegisters regs{};
  regs.psw_mask = detail::kPsw64BitMode;
  regs.gr[0] = kSha512;
  regs.gr[1] = reinterpret_cast<std::uintptr_t>(e.param.data());
  regs.gr[2] = reinterpret_cast<std::uintptr_t>(msg);
  regs.gr[3] = len;
  Options o;
  o.model = Model::cpacf;
  o.cpacf_functions = kCpacfSha512;
  o.interrupt_blocks = interrupt;
  const auto step = detail::run_cpacf(insn, regs, o);
  e.cc = step.outcome == CpacfOutcome::partial ? 3 : step.outcome == CpacfOutcome::completed ? 0 : 99;
  e.consumed = regs.gr[2] - reinterpret_cast<std::uintptr_t>(msg);
  e.remaining = regs.gr[3];
  return e;
}

// Runs one instruction to completion on both, one execution at a time, each execution from the state QEMU left;
// returns the final parameter block, or nullopt after reporting the first difference.
std::optional<Param> compare_executions(bool klmd, Param param, const std::uint8_t* msg, std::size_t len,
                                        const std::string& what, int& executions) {
  for (;;) {
    const Execution q = on_qemu(klmd, param, msg, len);
    // QEMU's CC3 after n blocks is a point the model must reproduce when interrupted there.
    const std::uint64_t stop_after = q.cc == 3 ? q.consumed / kBlock : 0;
    const Execution m = on_model(CpacfInstruction{klmd, 4, 2}, param, msg, len, stop_after);
    ++executions;
    if (!(q == m)) {
      ADD_FAILURE() << (klmd ? "KLMD" : "KIMD") << "-SHA-512 " << what << ", this execution: " << len
                    << " bytes left, ICV in " << to_hex({param.data(), kIcv})
                    << (klmd ? ", MBL " + to_hex({param.data() + kIcv, kParam - kIcv}) : std::string())
                    << "\n  QEMU:  " << text(q) << "\n  model: " << text(m) << " (interrupt after " << stop_after
                    << " blocks)";
      return std::nullopt;
    }
    if (q.cc != 3) return q.param;
    param = q.param;
    msg += q.consumed;
    len = q.remaining;
  }
}

void put_be(std::uint8_t* out, std::uint64_t v, unsigned bytes) {
  for (unsigned i = bytes; i-- > 0; v >>= 8) out[i] = static_cast<std::uint8_t>(v);
}

// Message lengths around the places where implementations differ: empty, the KLMD padding edge (112 bytes of tail
// leave no room for the MBL), and a few dozen blocks on either side of QEMU's per-execution limit.
std::size_t random_length(std::mt19937_64& rng, bool klmd) {
  const std::size_t blocks = rng() % 4 == 0 ? rng() % 3 : rng() % 2 == 0 ? 60 + rng() % 10 : rng() % 140;
  if (!klmd) return blocks * kBlock;
  static constexpr std::size_t kEdges[] = {0, 1, 111, 112, 113, 127};
  const std::size_t tail = rng() % 2 ? kEdges[rng() % std::size(kEdges)] : rng() % kBlock;
  return blocks * kBlock + tail;
}

TEST(CpacfConformance, SingleExecutionsAgreeFromRandomStates) {
  std::mt19937_64 rng(0xc0ffee);
  int executions = 0, interrupted = 0;
  for (int i = 0; i < 300; ++i) {
    const bool klmd = rng() % 2 == 0;
    const std::size_t len = random_length(rng, klmd);
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    Param param;
    for (auto& b : param) b = static_cast<std::uint8_t>(rng());
    // The MBL: half the time consistent with some prefix plus this message, else any 128-bit value.
    if (rng() % 2 == 0) {
      std::memset(param.data() + kIcv, 0, 8);
      put_be(param.data() + kIcv + 8, 8 * (len + kBlock * (rng() % 1000)), 8);
    }
    interrupted += len >= 65 * kBlock;
    if (!compare_executions(klmd, param, msg.data(), len, "case " + std::to_string(i), executions)) return;
  }
  EXPECT_GT(interrupted, 0) << "no message was long enough to make QEMU stop with CC3";
  std::printf("%d executions compared, %d messages long enough for a CC3 stop\n", executions, interrupted);
}

// Splits: KIMD over random whole-block chunks, then KLMD over the rest with the true MBL, both from the SHA-512 IV
// and compared after every call; the final ICV is the digest, which OpenSSL must confirm.
TEST(CpacfConformance, RandomSplitsOfOneMessageAgreeAndGiveTheDigest) {
  std::mt19937_64 rng(0x5b1175);
  constexpr std::uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                    0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                    0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};  // FIPS 180-4 §5.3.5
  int executions = 0;
  for (int i = 0; i < 40; ++i) {
    std::vector<std::uint8_t> msg(rng() % 20000);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    Param param{};
    for (unsigned w = 0; w < 8; ++w) put_be(param.data() + 8 * w, kIv[w], 8);
    std::size_t at = 0;
    std::string splits;
    while (msg.size() - at >= kBlock && rng() % 4 != 0) {
      const std::size_t chunk = kBlock * (1 + rng() % std::min<std::size_t>(80, (msg.size() - at) / kBlock));
      splits += "KIMD " + std::to_string(chunk) + ", ";
      auto next = compare_executions(false, param, msg.data() + at, chunk, "split " + splits, executions);
      if (!next) return;
      param = *next;
      at += chunk;
    }
    put_be(param.data() + kIcv + 8, 8 * msg.size(), 8);  // MBL: the whole message, in bits (FIPS 180-4 §5.1.2)
    splits += "KLMD " + std::to_string(msg.size() - at);
    auto digest = compare_executions(true, param, msg.data() + at, msg.size() - at, "split " + splits, executions);
    if (!digest) return;
    EXPECT_EQ(to_hex({digest->data(), kIcv}), to_hex(openssl_evp("SHA512", msg))) << msg.size() << " bytes: " << splits;
  }
  std::printf("%d executions compared over 40 split messages\n", executions);
}

// What the program did wrong decides whether there is a specification exception (SIGILL under QEMU, an exception
// verdict from the model): a KIMD length that is not a multiple of the block, the modifier bit, R2 odd or 0.
TEST(CpacfConformance, SpecificationExceptionsAgree) {
  std::vector<std::uint8_t> msg(4 * kBlock, 0x61);
  Param param{};
  const auto model_says = [&](unsigned r2, std::uint64_t gr0, std::size_t len) {
    CpacfRegisters regs{};
    regs.psw_mask = detail::kPsw64BitMode;
    regs.gr[0] = gr0;
    regs.gr[1] = reinterpret_cast<std::uintptr_t>(param.data());
    if (r2 != 0) {  // R2 = 0 names GR0 itself: nothing to load there
      regs.gr[r2] = reinterpret_cast<std::uintptr_t>(msg.data());
      regs.gr[r2 + 1] = len;
    }
    Options o;
    o.model = Model::cpacf;
    return detail::run_cpacf(CpacfInstruction{false, 4, r2}, regs, o).outcome;
  };
  for (std::size_t len : {1u, 127u, 129u, 255u}) {
    EXPECT_TRUE(raises_sigill([&] { cpacf<kKimd, false>(kSha512, param.data(), msg.data(), len); }))
        << "QEMU, KIMD length " << len;
    EXPECT_EQ(model_says(2, kSha512, len), CpacfOutcome::exception) << "model, KIMD length " << len;
  }
  const std::uint64_t modified = kSha512 | detail::kGr0Modifier;
  EXPECT_TRUE(raises_sigill([&] { cpacf<kKimd, false>(modified, param.data(), msg.data(), 128); }));
  EXPECT_EQ(model_says(2, modified, 128), CpacfOutcome::exception);
  EXPECT_TRUE(raises_sigill([&] { cpacf<kKimd, false, 4, 0>(kSha512, param.data(), msg.data(), 128); }));
  EXPECT_EQ(model_says(0, kSha512, 128), CpacfOutcome::exception);
  EXPECT_TRUE(raises_sigill([&] { cpacf<kKimd, false, 4, 3>(kSha512, param.data(), msg.data(), 128); }));
  EXPECT_EQ(model_says(3, kSha512, 128), CpacfOutcome::exception);
  // Control: the same calls done right raise nothing on either.
  EXPECT_FALSE(raises_sigill([&] { cpacf<kKimd, false>(kSha512, param.data(), msg.data(), 128); }));
  EXPECT_EQ(model_says(2, kSha512, 128), CpacfOutcome::completed);
}

// OpenSSL 3.4 and later issue KIMD and KLMD with byte 2 = 0x80 (B93E 8002, B93F 8042: M3 = 8, a modifier that
// machines before MSA 12 ignore; docs/isa/cpacf.md §2.1.1), which the model first refused (found by OpenSSL's own
// code on it, docs/third-party.md). QEMU, the executor we did not write, must run that form as the KIMD/KLMD of its
// R1 and R2, and the model's decoder must read the same instruction out of the same four bytes and agree with QEMU.
template <std::uint32_t Word>
Execution m3_form_on_qemu(const Param& param, const std::uint8_t* msg, std::size_t len) {
  Execution e;
  e.param = param;
  register std::uint64_t r0 asm("0") = kSha512;
  register std::uint8_t* r1 asm("1") = e.param.data();
  register const std::uint8_t* r2 asm("2") = msg;
  register std::size_t r3 asm("3") = len;
  register std::uint64_t r4 asm("4") = 0, r5 asm("5") = 0;
  asm volatile("0: .long %[word]\n   brc 1,0b\n"
               : "+d"(r0), "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5)
               : "a"(r1), [word] "i"(Word)
               : "cc", "memory");
  e.consumed = reinterpret_cast<std::uintptr_t>(r2) - reinterpret_cast<std::uintptr_t>(msg);
  e.remaining = r3;
  return e;
}

Execution m3_form_on_model(std::uint32_t word, const Param& param, const std::uint8_t* msg, std::size_t len) {
  const std::uint8_t bytes[4] = {static_cast<std::uint8_t>(word >> 24), static_cast<std::uint8_t>(word >> 16),
                                 static_cast<std::uint8_t>(word >> 8), static_cast<std::uint8_t>(word)};
  const std::optional<CpacfInstruction> insn = detail::decode_cpacf(bytes);
  if (!insn) return Execution{99, param, 0, len};  // not decoded as KIMD/KLMD: the trap would chain to SIGILL
  return on_model(*insn, param, msg, len, 0);
}

// The parameter block after the plain form (byte 2 = 0) ran to completion on QEMU, CC3 re-executions included.
Param plain_form_on_qemu(bool klmd, Param param, const std::uint8_t* msg, std::size_t len) {
  if (klmd)
    cpacf<kKlmd>(kSha512, param.data(), msg, len);
  else
    cpacf<kKimd>(kSha512, param.data(), msg, len);
  return param;
}

TEST(CpacfConformance, TheM3FormOfOpenSsl34IsTheSameInstruction) {
  std::mt19937_64 rng(86);
  std::vector<std::uint8_t> msg(5 * kBlock + 17);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  Param param{};
  for (std::size_t i = 0; i < kIcv; ++i) param[i] = static_cast<std::uint8_t>(rng());
  // KIMD-SHA-512 over five blocks: the M3 form, the plain form and the model's reading of the M3 bytes.
  const Execution kimd_m3 = m3_form_on_qemu<0xb93e8002>(param, msg.data(), 5 * kBlock);
  EXPECT_EQ(kimd_m3.consumed, 5 * kBlock) << "QEMU, KIMD B93E 8002: " << text(kimd_m3);
  EXPECT_EQ(kimd_m3.param, plain_form_on_qemu(false, param, msg.data(), 5 * kBlock))
      << "QEMU's B93E 8002 and B93E 0002 differ";
  EXPECT_EQ(m3_form_on_model(0xb93e8002, param, msg.data(), 5 * kBlock), kimd_m3)
      << "model, B93E 8002: " << text(m3_form_on_model(0xb93e8002, param, msg.data(), 5 * kBlock))
      << "\n  QEMU: " << text(kimd_m3);
  // KLMD-SHA-512 (R1 = 4, as OpenSSL's B93F 8042) over the whole message with its bit length in the MBL.
  Param last = param;
  put_be(last.data() + kIcv + 8, msg.size() * 8, 8);
  const Execution klmd_m3 = m3_form_on_qemu<0xb93f8042>(last, msg.data(), msg.size());
  EXPECT_EQ(klmd_m3.param, plain_form_on_qemu(true, last, msg.data(), msg.size()))
      << "QEMU's B93F 8042 and B93F 0042 differ";
  EXPECT_EQ(m3_form_on_model(0xb93f8042, last, msg.data(), msg.size()), klmd_m3)
      << "model, B93F 8042: " << text(m3_form_on_model(0xb93f8042, last, msg.data(), msg.size()))
      << "\n  QEMU: " << text(klmd_m3);
}

}  // namespace
}  // namespace shakedown::emul::test
