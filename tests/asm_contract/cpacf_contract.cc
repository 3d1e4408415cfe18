// Contract of the CPACF wrapper (arch/s390x/cpacf.h, cpacf::run): KIMD/KLMD with the condition-code-3 loop.
//
// docs/isa/cpacf.md §2.1: the instruction reads GR0 (function code and flags) and GR1 (parameter block), advances
// the source pair R2/R2+1 (%r2 address, %r3 length) and, for KLMD-SHAKE, the output pair R1/R1+1 (%r4, %r5), writes
// the parameter block and the output, and sets the condition code; an emulator may clear NIP in GR0 after a
// partial completion (§2.1.8). The caller keeps its own copies of every operand and 32 unrelated values live.
// The command line names the functions this environment executes (query sha256 sha512 sha3): QEMU 7.2 runs the
// query and SHA-512 itself; SHA-256 and SHA-3/SHAKE need SHAKEDOWN_EMULATE=cpacf:... (a missing one is SIGILL).
#include <string_view>

#include "contract.h"
#include "cpacf.h"
#include "sha_reference.h"

namespace shakedown::asm_contract {
namespace {

namespace cpacf = internal::cpacf;

// The caller's operands of cpacf::run, once before and once (its copies) after the statement.
struct Operands {
  volatile std::uint64_t gr0;
  void* volatile param;
  const std::uint8_t* volatile src;
  volatile std::size_t src_len;
  std::uint8_t* volatile dst;
  volatile std::size_t dst_len;
};

struct Io {
  alignas(8) std::uint8_t param[cpacf::kKeccakStateBytes];
  alignas(8) std::uint8_t message[3 * 168];
  std::uint8_t output[64];
  Operands in, after;
};

Pressure g_pressure;
Io g_io;

template <std::uint32_t Opcode>
[[gnu::noinline, gnu::flatten]] void call_run() {
  auto& io = g_io;
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  const std::uint64_t gr0 = opaque(io.in.gr0);
  void* param = opaque(io.in.param);
  const std::uint8_t* src = opaque(io.in.src);
  std::size_t src_len = opaque(io.in.src_len);
  std::uint8_t* dst = opaque(io.in.dst);
  std::size_t dst_len = opaque(io.in.dst_len);
  cpacf::run<Opcode>(gr0, param, src, src_len, dst, dst_len);
  sink(io.after.gr0, gr0);
  sink(io.after.param, param);
  sink(io.after.src, src);
  sink(io.after.src_len, src_len);
  sink(io.after.dst, dst);
  sink(io.after.dst_len, dst_len);
  SHAKEDOWN_LIVE_STORE()
}

// Runs KIMD or KLMD with function code fc over message[0, src_len) into output[0, dst_len), then checks that the
// caller's operands survived and that the parameter block and output are want_param / want_output.
template <std::uint32_t Opcode>
void check(Report& report, const char* wrapper, std::uint64_t fc, std::size_t src_len, std::size_t dst_len,
           const std::uint8_t* want_param, std::size_t param_bytes, const std::uint8_t* want_output,
           std::uint64_t seed) {
  Report::running(wrapper);
  auto& io = g_io;
  io.in.gr0 = fc;
  io.in.param = io.param;
  io.in.src = src_len ? io.message : nullptr;
  io.in.src_len = src_len;
  io.in.dst = dst_len ? io.output : nullptr;
  io.in.dst_len = dst_len;
  g_pressure.reset(seed);
  call_run<Opcode>();
  report.expect(wrapper, "caller's function code (copied to GR0)", io.after.gr0, fc);
  report.expect(wrapper, "caller's parameter block address (copied to GR1)", address(io.after.param),
                address(io.param));
  report.expect(wrapper, "caller's source address (copied to R2, which the instruction advances)",
                address(io.after.src), address(src_len ? io.message : nullptr));
  report.expect(wrapper, "caller's source length (copied to R2+1, which the instruction counts down)",
                io.after.src_len, src_len);
  report.expect(wrapper, "caller's output address (copied to R1, which KLMD-SHAKE advances)", address(io.after.dst),
                address(dst_len ? io.output : nullptr));
  report.expect(wrapper, "caller's output length (copied to R1+1, which KLMD-SHAKE counts down)", io.after.dst_len,
                dst_len);
  if (want_param) report.expect_bytes(wrapper, "parameter block written at GR1", io.param, want_param, param_bytes);
  if (want_output) report.expect_bytes(wrapper, "output written at R1", io.output, want_output, dst_len);
  g_pressure.check(report, wrapper);
}

void fill_message() {
  for (std::size_t i = 0; i < sizeof g_io.message; ++i) g_io.message[i] = static_cast<std::uint8_t>(i * 13 + 5);
}

// Query (fc 0, docs/isa/cpacf.md §2.1.5): function code 0 itself is always listed; nothing is read or advanced.
template <std::uint32_t Opcode>
void check_query(Report& report, const char* wrapper) {
  std::memset(g_io.param, 0, sizeof g_io.param);
  check<Opcode>(report, wrapper, cpacf::kQuery, 0, 0, nullptr, 0, nullptr, 1);
  report.expect(wrapper, "query bit of function code 0", g_io.param[0] >> 7, 1);
}

// KIMD-SHA-256 / SHA-512 over three blocks: the ICV (big-endian words, §2.1.6: native words here) after them.
template <class Word>
void check_sha2(Report& report, const char* wrapper, std::uint64_t fc) {
  constexpr std::size_t kBlock = 16 * sizeof(Word);
  fill_message();
  Word icv[8], want[8];
  for (int i = 0; i < 8; ++i) icv[i] = want[i] = static_cast<Word>(0x0f1e2d3c4b5a6978u * (i + 3));
  for (std::size_t b = 0; b < 3; ++b) {
    if constexpr (sizeof(Word) == 4) emul::detail::sha256_compress(want, g_io.message + b * kBlock);
    else emul::detail::sha512_compress(want, g_io.message + b * kBlock);
  }
  std::memcpy(g_io.param, icv, sizeof icv);
  check<cpacf::kKimd>(report, wrapper, fc, 3 * kBlock, 0, reinterpret_cast<const std::uint8_t*>(want), sizeof want,
                      nullptr, fc);
}

// KIMD-SHAKE128 over two rate blocks (R2/R2+1 advanced) from a state whose lanes are little-endian in the block
// (§2.1.6), then KLMD-SHAKE128 of the empty message squeezing 32 bytes (R1/R1+1 advanced).
void check_sha3(Report& report) {
  constexpr std::size_t kRate = 168;  // SHAKE128, FIPS 202 §6.2
  fill_message();
  std::uint64_t lanes[25];
  for (int i = 0; i < 25; ++i) lanes[i] = 0x0101010101010101u * static_cast<std::uint64_t>(i + 1);
  std::uint64_t block[25];
  cpacf::lanes_to_block(lanes, block);
  std::memcpy(g_io.param, block, sizeof block);
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t i = 0; i < kRate / 8; ++i) {
      std::uint64_t le = 0;
      for (int k = 7; k >= 0; --k) le = le << 8 | g_io.message[b * kRate + 8 * i + k];
      lanes[i] ^= le;
    }
    emul::detail::keccak_f1600(lanes);
  }
  cpacf::lanes_to_block(lanes, block);
  check<cpacf::kKimd>(report, "cpacf::run<KIMD> SHAKE128", cpacf::kShake128, 2 * kRate, 0,
                      reinterpret_cast<const std::uint8_t*>(block), sizeof block, nullptr, 0x24);
  // SHAKE128("") (FIPS 202; NIST example values), the first 32 bytes.
  static constexpr std::uint8_t kShake128Empty[32] = {
      0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d, 0x61, 0x60, 0x45, 0x50, 0x76, 0x05, 0x85, 0x3e,
      0xd7, 0x3b, 0x80, 0x93, 0xf6, 0xef, 0xbc, 0x88, 0xeb, 0x1a, 0x6e, 0xac, 0xfa, 0x66, 0xef, 0x26};
  std::memset(g_io.param, 0, sizeof g_io.param);
  check<cpacf::kKlmd>(report, "cpacf::run<KLMD> SHAKE128", cpacf::kShake128, 0, sizeof kShake128Empty, nullptr, 0,
                      kShake128Empty, 0x124);
}

}  // namespace

void run_contracts(Report& report, std::span<char* const> args) {
  if (args.empty()) return report.fail("cpacf::run", "name the functions to run: query sha256 sha512 sha3");
  for (std::string_view fn : args) {
    if (fn == "query") {
      check_query<cpacf::kKimd>(report, "cpacf::run<KIMD> query");
      check_query<cpacf::kKlmd>(report, "cpacf::run<KLMD> query");
    } else if (fn == "sha256") {
      check_sha2<std::uint32_t>(report, "cpacf::run<KIMD> SHA-256", cpacf::kSha256);
    } else if (fn == "sha512") {
      check_sha2<std::uint64_t>(report, "cpacf::run<KIMD> SHA-512", cpacf::kSha512);
    } else if (fn == "sha3") {
      check_sha3(report);
    } else {
      report.fail("cpacf::run", "unknown function on the command line");
    }
  }
}

}  // namespace shakedown::asm_contract
