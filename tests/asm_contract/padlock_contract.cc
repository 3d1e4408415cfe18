// Contract of the PadLock wrappers (arch/x86_64/padlock.h): REP XSHA256 and REP XSHA512 in multi-block mode.
//
// docs/isa/padlock.md §1.2.3: the instruction reads RAX (mode), RCX (block count), RSI (data) and RDI (state
// buffer), advances RSI, counts RCX down, changes RAX, and writes the state buffer. The callers below keep their own
// data pointer and block count live across the wrapper, and across padlock::blocks (the seam the backends call), and
// 32 unrelated values besides; the emulator (SHAKEDOWN_EMULATE=phe:...) writes the registers as the hardware does.
#include "contract.h"
#include "padlock.h"
#include "sha2_blocks.h"

namespace shakedown::asm_contract {
namespace {

using internal::padlock::HashState;
template <class Word>
using Rep = void (*)(HashState<Word>&, const std::uint8_t*, std::size_t);

Pressure g_pressure;
template <class Word>
Sha2Blocks<Word> g_io;

// The wrapper itself on a state buffer of this frame (kSeam = false), or the seam the backends call, which copies
// to the aligned buffer, runs the instruction, copies back and wipes (kSeam = true).
template <class Word, Rep<Word> rep, bool kSeam>
[[gnu::noinline, gnu::flatten]] void call() {
  auto& io = g_io<Word>;
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  const std::uint8_t* data = opaque(io.data);
  std::size_t nblocks = opaque(io.nblocks);
  if constexpr (kSeam) {
    internal::padlock::blocks<Word, rep>(io.h, data, nblocks);
  } else {
    HashState<Word> st;
    std::memcpy(st.h, io.h, sizeof st.h);
    rep(st, data, nblocks);
    std::memcpy(io.h, st.h, sizeof st.h);
  }
  sink(io.data_after, data);
  sink(io.nblocks_after, nblocks);
  SHAKEDOWN_LIVE_STORE()
}

template <class Word, Rep<Word> rep, bool kSeam>
void check(Report& report, const char* wrapper, std::size_t nblocks) {
  Report::running(wrapper);
  auto& io = g_io<Word>;
  io.prepare(nblocks, 7);
  g_pressure.reset(nblocks);
  call<Word, rep, kSeam>();
  report.expect(wrapper, "caller's data pointer (copied to RSI, which the instruction advances)",
                address(io.data_after), address(io.message));
  report.expect(wrapper, "caller's block count (copied to RCX, which the instruction counts down)", io.nblocks_after,
                nblocks);
  report.expect_bytes(wrapper, "state written at RDI", io.h, io.want, sizeof io.want);
  g_pressure.check(report, wrapper);
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  using internal::padlock::rep_xsha256;
  using internal::padlock::rep_xsha512;
  for (std::size_t nblocks : {1, 2, 5}) {
    check<std::uint32_t, rep_xsha256, false>(report, "padlock::rep_xsha256", nblocks);
    check<std::uint64_t, rep_xsha512, false>(report, "padlock::rep_xsha512", nblocks);
    check<std::uint32_t, rep_xsha256, true>(report, "padlock::blocks<rep_xsha256>", nblocks);
    check<std::uint64_t, rep_xsha512, true>(report, "padlock::blocks<rep_xsha512>", nblocks);
  }
}

}  // namespace shakedown::asm_contract
