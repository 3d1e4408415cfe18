// PadLock PHE semantics (docs/isa/padlock.md §1.2, §1.5): multi-block and final modes, vendor profiles,
// exact memory footprint, register updates and strict-mode poisoning.
#include "phe_model.h"

#include <cstring>

#include "sha_reference.h"
#include "test_break.h"

namespace shakedown::emul::detail {
namespace {

// One hash function as PHE sees it: block size, bytes of native-endian state at RDI, how many bytes the
// Zhaoxin parts write there (docs/isa/padlock.md §1.5 item 8), and up to where strict mode treats the buffer as
// scratch.
struct Engine {
  std::uint64_t block_bytes;
  std::uint64_t state_bytes;
  std::uint64_t zhaoxin_write_bytes;
  std::uint64_t zhaoxin_strict_scratch_end;
  void (*compress)(unsigned char* state, const std::uint8_t* block);
  Insn insn;  // the instruction kind (counters, SHAKEDOWN_EMUL_TEST_BREAK)
};

// State lives in a byte array so the three engines share one driver; words are native-endian (padlock.md §1.2.4).
void compress_sha1(unsigned char* state, const std::uint8_t* block) {
  std::uint32_t h[5];
  std::memcpy(h, state, sizeof h);
  sha1_compress(h, block);
  std::memcpy(state, h, sizeof h);
}
void compress_sha256(unsigned char* state, const std::uint8_t* block) {
  std::uint32_t h[8];
  std::memcpy(h, state, sizeof h);
  sha256_compress(h, block);
  std::memcpy(state, h, sizeof h);
}
void compress_sha512(unsigned char* state, const std::uint8_t* block) {
  std::uint64_t h[8];
  std::memcpy(h, state, sizeof h);
  sha512_compress(h, block);
  std::memcpy(state, h, sizeof h);
}

constexpr Engine kSha1{64,         20, 32, 32, compress_sha1,
                       Insn::xsha1};  // 20 state bytes + 12 zero bytes (AlanSong 2025-06-16)
constexpr Engine kSha256{64, 32, 32, 32, compress_sha256, Insn::xsha256};
constexpr Engine kSha512{128, 64, 64, kZhaoxinXsha512Buffer, compress_sha512, Insn::xsha512};
constexpr std::uint64_t kMaxBlock = 128;
constexpr std::uint64_t kMaxState = 64;

const Engine& engine(Insn insn) {
  switch (insn) {
    case Insn::xsha1: return kSha1;
    case Insn::xsha256: return kSha256;
    default: return kSha512;
  }
}

std::uint8_t* at(std::uint64_t address) { return reinterpret_cast<std::uint8_t*>(address); }

// The state buffer at RDI: read exactly state_bytes, write back per profile.
struct StateBuffer {
  const Engine& e;
  const Options& options;
  std::uint8_t* rdi;
  unsigned char words[kMaxState];

  StateBuffer(const Engine& engine_, const Options& options_, std::uint64_t address)
      : e(engine_), options(options_), rdi(at(address)) {
    std::memcpy(words, rdi, e.state_bytes);  // docs/isa/padlock.md §1.5 item 3: never start from the IV
  }

  void store() {
    if (broken_by_test(e.insn)) words[0] ^= 1;  // test-only (test_break.h): the third-party suites must catch it
    std::memcpy(rdi, words, e.state_bytes);
    if (options.profile == PheProfile::zhaoxin) {
      // The XSHA1 tail zeroing that clobbered sha1_state.count (docs/isa/padlock.md §1.3 root cause 2).
      std::memset(rdi + e.state_bytes, 0, e.zhaoxin_write_bytes - e.state_bytes);
      if (options.strict)
        std::memset(rdi + e.zhaoxin_write_bytes, kScratchPoison, e.zhaoxin_strict_scratch_end - e.zhaoxin_write_bytes);
      return;
    }
    // VIA: the microcode may use all 128 bytes (padlock.md §1.2.4). Strict models scratch use with poison; otherwise
    // each byte is rewritten unchanged, a write probe that a guard page or ASan redzone turns into a report.
    for (std::uint64_t i = e.state_bytes; i < kViaStateBuffer; ++i) {
      volatile std::uint8_t* byte = rdi + i;
      *byte = options.strict ? kScratchPoison : *byte;
    }
  }
};

// Reads exactly one block from RSI (docs/isa/padlock.md §1.5 item 10: no over-read) and compresses it.
void compress_from(const Engine& e, StateBuffer& st, std::uint64_t address) {
  std::uint8_t block[kMaxBlock];
  std::memcpy(block, at(address), e.block_bytes);
  e.compress(st.words, block);
}

std::uint64_t step_limit(const Options& options, std::uint64_t wanted) {
  return options.interrupt_blocks != 0 && wanted > options.interrupt_blocks ? options.interrupt_blocks : wanted;
}

// RAX = -1 (or any XSHA512): RCX whole blocks, no padding (docs/isa/padlock.md §1.5 item 5).
PheStep multi_block(const Engine& e, PheRegisters& r, const Options& options) {
  std::uint64_t n = step_limit(options, r.rcx);
  if (n != 0) {  // RCX = 0: no memory access at all (docs/isa/padlock.md §1.5 item 7)
    StateBuffer st(e, options, r.rdi);
    for (std::uint64_t i = 0; i < n; ++i) compress_from(e, st, r.rsi + i * e.block_bytes);
    st.store();
  }
  r.rsi += n * e.block_bytes;
  r.rcx -= n;
  if (r.rcx != 0) return {StepOutcome::interrupted, n, nullptr};
  if (options.strict) r.rax = kPoisonRax;
  return {StepOutcome::completed, n, nullptr};
}

// RAX = bytes already hashed, RCX = total length: hash RCX - RAX bytes, then pad with bit length 8*RCX
// (docs/isa/padlock.md §1.5 item 6; FIPS 180-4 §5.1.1: 0x80, zeros, 64-bit big-endian length).
PheStep final_mode(const Engine& e, PheRegisters& r, const Options& options) {
  if (r.rax > r.rcx || r.rax % e.block_bytes != 0)
    return {StepOutcome::fault, 0,
            "final mode needs RAX = bytes already hashed, a multiple of 64 and <= RCX (docs/isa/padlock.md "
            "§1.2, §1.5 item 4); RAX was probably clobbered or declared input-only"};
  const bool finish = [&] {
    if (r.rcx == 0 && options.profile == PheProfile::zhaoxin) return false;  // §1.3 root cause 1: a no-op
    return true;
  }();
  std::uint64_t blocks = 0;
  if (finish) {
    const std::uint64_t remaining = r.rcx - r.rax;
    const std::uint64_t whole = remaining / e.block_bytes;
    const std::uint64_t n = step_limit(options, whole);
    StateBuffer st(e, options, r.rdi);
    for (std::uint64_t i = 0; i < n; ++i) compress_from(e, st, r.rsi + i * e.block_bytes);
    blocks = n;
    if (n < whole) {  // interrupted: RAX counts the bytes hashed so far, RCX (the total) stays
      st.store();
      r.rsi += n * e.block_bytes;
      r.rax += n * e.block_bytes;
      return {StepOutcome::interrupted, n, nullptr};
    }
    const std::uint64_t tail = remaining % e.block_bytes;
    std::uint8_t pad[2 * kMaxBlock] = {};
    std::memcpy(pad, at(r.rsi + whole * e.block_bytes), tail);
    pad[tail] = 0x80;
    const std::uint64_t pad_bytes = tail + 1 + 8 <= e.block_bytes ? e.block_bytes : 2 * e.block_bytes;
    const std::uint64_t bit_length = r.rcx * 8;
    for (unsigned i = 0; i < 8; ++i) pad[pad_bytes - 1 - i] = static_cast<std::uint8_t>(bit_length >> (8 * i));
    for (std::uint64_t off = 0; off < pad_bytes; off += e.block_bytes) e.compress(st.words, pad + off);
    blocks += pad_bytes / e.block_bytes;
    st.store();
    r.rsi += remaining;
    r.rax = r.rcx;  // [inferred] "resumed-complete": every byte hashed (docs/isa/padlock.md §1.5 item 6)
  }
  if (options.strict) {
    r.rax = kPoisonRax;
    r.rcx = kPoisonRcx;
  }
  return {StepOutcome::completed, blocks, nullptr};
}

}  // namespace

std::optional<Insn> decode_phe(const std::uint8_t bytes[kPheLength], PheProfile profile) noexcept {
  if (bytes[0] != 0xf3 || bytes[1] != 0x0f || bytes[2] != 0xa6) return std::nullopt;
  switch (bytes[3]) {
    case 0xc8: return Insn::xsha1;
    case 0xd0: return Insn::xsha256;
    case 0xe0:
      if (profile == PheProfile::zhaoxin) return Insn::xsha512;
      return std::nullopt;
    default: return std::nullopt;  // D8 XSHA384, E8 SM3, F0/F8 montmul/xmodexp: not modelled
  }
}

PheStep run_phe(Insn insn, PheRegisters& regs, const Options& options) noexcept {
  if (regs.rdi % 16 != 0)
    return {StepOutcome::fault, 0,
            "state buffer RDI is not 16-byte aligned; PadLock requires 16 (docs/isa/padlock.md §1.2, "
            "§1.5 item 2)"};
  const Engine& e = engine(insn);
  // XSHA512 has only the multi-block form (docs/isa/padlock.md §1.5 item 4): RAX selects nothing there.
  if (insn == Insn::xsha512 || regs.rax == kMultiBlockMode) return multi_block(e, regs, options);
  return final_mode(e, regs, options);
}

}  // namespace shakedown::emul::detail
