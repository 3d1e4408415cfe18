// Zhaoxin PadLock hash engine: detection rule and the aligned-state multi-block call shared by PHE/PHE2.
//
// Semantics: docs/isa/padlock.md §1. The register discipline follows the Linux lib/crypto patch
// 44b02a14d993d91ae36409a54941ac5a5ad20b44 ("lib/crypto: x86/sha256: PHE Extensions optimized SHA256
// transform function"): RAX = -1 selects multi-block mode, RCX = block count, RSI = data, RDI = a
// 16-byte aligned copy of the state in native word order; RAX, RCX and RSI are in/out ("+a", "+c",
// "+S") because the instruction changes them (§1.2 "Register outputs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "internal/bytes.h"
#include "shakedown/cpu.h"

namespace shakedown::internal::padlock {

// §1.4: PadLock exists on VIA ("CentaurHauls") and Zhaoxin ("  Shanghai  "); family >= 7 is the Zhaoxin
// behaviour this code relies on (RAX = -1 multi-block mode, RCX = 0 is a no-op), the same rule as the
// Linux patch (boot_cpu_data.x86 >= 7).
inline bool zhaoxin_family7(const CpuFeatures& f) {
  return (f.vendor == "CentaurHauls" || f.vendor == "  Shanghai  ") && f.family >= 7;
}

// The state buffer the instruction reads and writes at RDI (§1.2 "State buffer"): 8 native words first,
// 16-byte aligned. Zhaoxin writes 32 bytes for XSHA256 and 64 for XSHA512, but its own XSHA512 patches reserve
// 128 bytes and VIA's microcode needs 128 for XSHA256, so the buffer is 128 bytes for both: nothing the
// hardware may write can reach past it. blocks() wipes all of it.
inline constexpr std::size_t kStateBufferBytes = 128;
template <class Word>
struct alignas(16) HashState {
  Word h[8];
  std::uint8_t scratch[kStateBufferBytes - sizeof(Word[8])];
};
static_assert(sizeof(HashState<std::uint32_t>) == kStateBufferBytes && alignof(HashState<std::uint32_t>) == 16);
static_assert(sizeof(HashState<std::uint64_t>) == kStateBufferBytes && alignof(HashState<std::uint64_t>) == 16);

// RAX value selecting multi-block mode (§1.2): all ones.
inline constexpr std::uint64_t kMultiBlockMode = ~std::uint64_t{0};

// REP XSHA256, F3 0F A6 D0 (§1.1): compresses nblocks 64-byte blocks into st. nblocks must be > 0.
inline void rep_xsha256(HashState<std::uint32_t>& st, const std::uint8_t* data, std::size_t nblocks) {
  std::uint64_t mode = kMultiBlockMode;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_XSHA256
  __asm__ volatile(".byte 0xf3,0x0f,0xa6,0xd0" : "+a"(mode), "+c"(nblocks), "+S"(data) : "D"(&st) : "memory");
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): RSI declared input-only.
  __asm__ volatile(".byte 0xf3,0x0f,0xa6,0xd0" : "+a"(mode), "+c"(nblocks) : "S"(data), "D"(&st) : "memory");
#endif
}

// REP XSHA512, F3 0F A6 E0 (§1.1): compresses nblocks 128-byte blocks into st. nblocks must be > 0.
// The unmerged Zhaoxin patches (§1.3) leave RAX unset; we pass the XSHA256 multi-block value so that the
// input is deterministic, and declare RAX modified like the other in/out registers.
inline void rep_xsha512(HashState<std::uint64_t>& st, const std::uint8_t* data, std::size_t nblocks) {
  std::uint64_t mode = kMultiBlockMode;
#ifndef SHAKEDOWN_TEST_ASM_FLIP_XSHA512
  __asm__ volatile(".byte 0xf3,0x0f,0xa6,0xe0" : "+a"(mode), "+c"(nblocks), "+S"(data) : "D"(&st) : "memory");
#else  // Test-only understatement (tests/asm_contract, docs/asm-contracts.md): RCX declared input-only.
  __asm__ volatile(".byte 0xf3,0x0f,0xa6,0xe0" : "+a"(mode), "+S"(data) : "c"(nblocks), "D"(&st) : "memory");
#endif
}

// Copies h into an aligned HashState, runs `rep` over the blocks, copies back and wipes the copy.
// nblocks == 0 returns before the instruction: on Zhaoxin RCX = 0 is a no-op, but on VIA final-mode
// semantics differ (§1.3, §1.5 item 7), so it is never issued.
template <class Word, void (*Rep)(HashState<Word>&, const std::uint8_t*, std::size_t)>
inline void blocks(Word h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;
  HashState<Word> st;
  std::memcpy(st.h, h, sizeof st.h);
  Rep(st, data, nblocks);
  std::memcpy(h, st.h, sizeof st.h);
  secure_zero(&st, sizeof st);
}

}  // namespace shakedown::internal::padlock
