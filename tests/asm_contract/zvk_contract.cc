// Contract of the vector-crypto SHA-2 loop (arch/riscv64/zvk_sha2.h, zvk_sha2_blocks): one asm statement.
//
// The statement reads the state arrays, the message and K through pointers ("memory"), advances the data pointer
// and counts the block count down ("+r"), uses two scratch registers (early-clobber "=&r"), and writes v0, v4..v25,
// vl and vtype (docs/isa/riscv-crypto.md §3.2; the register plan is in the header). The caller keeps its data
// pointer, block count, K pointer, vtype and 32 unrelated values live across it. Built twice: by g++-12 without
// vector code generation (the library's build), and by clang-19 with -march=rv64gcv (SHAKEDOWN_CONTRACT_RVV), where
// the caller also keeps kVectorLive vector values live (RVV intrinsics), so every vector register the compiler
// believes the statement leaves alone holds one, and does e8 arithmetic after it (a stale vl/vtype would cut it
// short). Runs under qemu-riscv64 with V and the Zvk emulator (SHAKEDOWN_EMULATE=zvk:...): QEMU 7.2 has no Zvk.
#include "contract.h"
#include "internal/sha2_constants.h"
#include "sha2_blocks.h"
#include "vlenb.h"
#include "zvk_sha2.h"
#if SHAKEDOWN_CONTRACT_RVV
#include <riscv_vector.h>
#endif

namespace shakedown::asm_contract {
namespace {

// The caller's K pointer and vtype, before and after the statement.
template <class Word>
struct Io : Sha2Blocks<Word> {
  const Word* volatile k;
  volatile unsigned long vtype;
  const Word* volatile k_after;
  volatile unsigned long vtype_after;
};

Pressure g_pressure;
template <class Word>
Io<Word> g_io;

#if SHAKEDOWN_CONTRACT_RVV
// More vector values than the 9 registers the statement leaves alone (v1..v3, v26..v31), 16 bytes each (e8, vl 16:
// one register at every VLEN >= 128).
constexpr int kVectorLive = 16;
constexpr std::size_t kVl = 16;
std::uint8_t g_vin[kVectorLive][kVl], g_vout[kVectorLive][kVl], g_vsum[kVl];
#define SHAKEDOWN_VLIVE_EACH(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define SHAKEDOWN_VLIVE_LOAD_ONE(i) const vuint8m1_t vlive_##i = __riscv_vle8_v_u8m1(g_vin[i], kVl);
#define SHAKEDOWN_VLIVE_STORE_ONE(i) __riscv_vse8_v_u8m1(g_vout[i], vlive_##i, kVl);
static_assert(kVectorLive == 16, "SHAKEDOWN_VLIVE_EACH lists kVectorLive values");
#endif

template <class Word>
[[gnu::noinline, gnu::flatten]] void call_blocks(std::size_t rounds) {
  auto& io = g_io<Word>;
  SHAKEDOWN_LIVE_LOAD(g_pressure)
#if SHAKEDOWN_CONTRACT_RVV
  SHAKEDOWN_VLIVE_EACH(SHAKEDOWN_VLIVE_LOAD_ONE)
#endif
  const std::uint8_t* data = opaque(io.data);
  std::size_t nblocks = opaque(io.nblocks);
  const Word* k = opaque(io.k);
  unsigned long vtype = opaque(io.vtype);
  internal::zvk_sha2_blocks(io.h, data, nblocks, k, rounds, vtype);
  sink(io.data_after, data);
  sink(io.nblocks_after, nblocks);
  sink(io.k_after, k);
  sink(io.vtype_after, vtype);
#if SHAKEDOWN_CONTRACT_RVV
  // e8 arithmetic at vl 16 right after the statement: needs the compiler to set vl and vtype again.
  __riscv_vse8_v_u8m1(g_vsum, __riscv_vadd_vv_u8m1(vlive_0, vlive_1, kVl), kVl);
  SHAKEDOWN_VLIVE_EACH(SHAKEDOWN_VLIVE_STORE_ONE)
#endif
  SHAKEDOWN_LIVE_STORE()
}

#if SHAKEDOWN_CONTRACT_RVV
void fill_vectors(std::uint64_t seed) {
  for (int i = 0; i < kVectorLive; ++i)
    for (std::size_t b = 0; b < kVl; ++b) {
      g_vin[i][b] = static_cast<std::uint8_t>(seed * 31 + static_cast<std::uint64_t>(i) * 17 + b * 7 + 0x81);
      g_vout[i][b] = 0;
    }
  std::memset(g_vsum, 0, sizeof g_vsum);
}

void check_vectors(Report& report, const char* wrapper) {
  static const char* const kNames[kVectorLive] = {
      "vector live value 0",  "vector live value 1",  "vector live value 2",  "vector live value 3",
      "vector live value 4",  "vector live value 5",  "vector live value 6",  "vector live value 7",
      "vector live value 8",  "vector live value 9",  "vector live value 10", "vector live value 11",
      "vector live value 12", "vector live value 13", "vector live value 14", "vector live value 15"};
  for (int i = 0; i < kVectorLive; ++i) report.expect_bytes(wrapper, kNames[i], g_vout[i], g_vin[i], kVl);
  std::uint8_t sum[kVl];
  for (std::size_t b = 0; b < kVl; ++b) sum[b] = static_cast<std::uint8_t>(g_vin[0][b] + g_vin[1][b]);
  report.expect_bytes(wrapper, "e8 vector sum at vl 16 after the statement (vl and vtype set again)", g_vsum, sum,
                      kVl);
}
#endif

template <class Word>
void check(Report& report, const char* wrapper, const Word* k, std::size_t rounds, unsigned long vtype,
           std::size_t nblocks) {
  Report::running(wrapper);
  auto& io = g_io<Word>;
  io.prepare(nblocks, 11);
  io.k = k;
  io.vtype = vtype;
  g_pressure.reset(nblocks);
#if SHAKEDOWN_CONTRACT_RVV
  fill_vectors(nblocks);
#endif
  call_blocks<Word>(rounds);
  report.expect(wrapper, "caller's data pointer (which the loop advances)", address(io.data_after),
                address(io.message));
  report.expect(wrapper, "caller's block count (which the loop counts down)", io.nblocks_after, nblocks);
  report.expect(wrapper, "caller's K pointer", address(io.k_after), address(k));
  report.expect(wrapper, "caller's vtype", io.vtype_after, vtype);
  report.expect_bytes(wrapper, "state written through the abef/cdgh arrays", io.h, io.want, sizeof io.want);
  g_pressure.check(report, wrapper);
#if SHAKEDOWN_CONTRACT_RVV
  check_vectors(report, wrapper);
#endif
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  using internal::rvv::vtype;
  // SHA-512 needs LMUL = 2 at VLEN 128 (docs/isa/riscv-crypto.md §3.2.1): then v24/v25 is the last group written.
  const unsigned sha512_lmul = internal::read_vlenb() >= 32 ? 1 : 2;
  for (std::size_t nblocks : {1, 3}) {
    check<std::uint32_t>(report, "zvk_sha2_blocks<uint32_t>", internal::kSha256K, 64, vtype(32, 1), nblocks);
    check<std::uint64_t>(report, "zvk_sha2_blocks<uint64_t>", internal::kSha512K, 80, vtype(64, sha512_lmul),
                         nblocks);
  }
}

}  // namespace shakedown::asm_contract
