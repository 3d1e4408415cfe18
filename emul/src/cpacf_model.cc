// CPACF KIMD/KLMD (SHA-1, SHA-256, SHA-512, SHA-3, SHAKE) on a register view, per docs/isa/cpacf.md §2.
#include "cpacf_model.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "sha_reference.h"
#include "test_break.h"

namespace shakedown::emul::detail {
namespace {

enum class Kind : std::uint8_t { sha1, sha256, sha512, sha3, shake };

// One function code: its block (rate) size and parameter-block layout (docs/isa/cpacf.md §2.1.4).
struct Function {
  Kind kind;
  std::uint32_t group;   // the CpacfFunctions bit that enables it
  unsigned block;        // bytes per block: 64 / 128 for SHA-1/2, the rate for SHA-3/SHAKE
  unsigned state_bytes;  // ICV (SHA-1/2) or the 200-byte Keccak state
  unsigned mbl_bytes;    // KLMD message-bit-length field after the ICV: 8 (SHA-1/256), 16 (SHA-512)
};

std::optional<Function> function_of(unsigned fc) {
  switch (fc) {
    case kFcSha1: return Function{Kind::sha1, kCpacfSha1, 64, 20, 8};
    case kFcSha256: return Function{Kind::sha256, kCpacfSha256, 64, 32, 8};
    case kFcSha512: return Function{Kind::sha512, kCpacfSha512, 128, 64, 16};
    // Rates 1600 - 2d bits (FIPS 202 §6.1) and 1600 - 2*128 / 2*256 for SHAKE (§6.2).
    case kFcSha3_224: return Function{Kind::sha3, kCpacfSha3, 144, kKeccakParamBytes, 0};
    case kFcSha3_256: return Function{Kind::sha3, kCpacfSha3, 136, kKeccakParamBytes, 0};
    case kFcSha3_384: return Function{Kind::sha3, kCpacfSha3, 104, kKeccakParamBytes, 0};
    case kFcSha3_512: return Function{Kind::sha3, kCpacfSha3, 72, kKeccakParamBytes, 0};
    case kFcShake128: return Function{Kind::shake, kCpacfSha3, 168, kKeccakParamBytes, 0};
    case kFcShake256: return Function{Kind::shake, kCpacfSha3, 136, kKeccakParamBytes, 0};
    default: return std::nullopt;
  }
}

Insn insn_of(const Function& f, bool klmd) {
  switch (f.kind) {
    case Kind::sha1: return klmd ? Insn::klmd_sha1 : Insn::kimd_sha1;
    case Kind::sha256: return klmd ? Insn::klmd_sha256 : Insn::kimd_sha256;
    case Kind::sha512: return klmd ? Insn::klmd_sha512 : Insn::kimd_sha512;
    case Kind::sha3: return klmd ? Insn::klmd_sha3 : Insn::kimd_sha3;
    case Kind::shake: return klmd ? Insn::klmd_shake : Insn::kimd_sha3;
  }
  return Insn::count_;
}

// Addresses and lengths per addressing mode (docs/isa/cpacf.md §2.3 item 4): 64-bit mode uses whole registers; 31- and
// 24-bit modes mask addresses and use the low 32 bits of lengths, and update only bits 32-63.
struct AddressingMode {
  std::uint64_t address_mask;
  bool full;  // 64-bit mode
  std::uint64_t address(std::uint64_t reg) const { return reg & address_mask; }
  std::uint64_t length(std::uint64_t reg) const { return full ? reg : reg & 0xffffffffu; }
  void set_address(std::uint64_t& reg, std::uint64_t value) const {
    reg = full ? value : (reg & ~std::uint64_t{0xffffffff}) | (value & address_mask);
  }
  void set_length(std::uint64_t& reg, std::uint64_t value) const {
    reg = full ? value : (reg & ~std::uint64_t{0xffffffff}) | (value & 0xffffffffu);
  }
};

AddressingMode mode_of(std::uint64_t psw_mask) {
  const bool ea = psw_mask & kPswExtendedAddressing, ba = psw_mask & kPswBasicAddressing;
  if (ea && ba) return {~std::uint64_t{0}, true};
  if (ba) return {0x7fffffff, false};
  return {0xffffff, false};
}

template <class T = std::uint8_t>
T* memory(std::uint64_t address) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(address));
}

// The chaining state while an execution runs: SHA-1/2 as native words, SHA-3 as native lanes.
struct State {
  std::uint32_t h32[8];
  std::uint64_t h64[8];
  std::uint64_t lanes[25];
};

std::uint64_t load_be(const std::uint8_t* p, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}
void store_be(std::uint8_t* p, std::uint64_t v, unsigned n) {
  for (unsigned i = n; i-- > 0; v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}
std::uint64_t load_le(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (unsigned i = 8; i-- > 0;) v = (v << 8) | p[i];
  return v;
}
void store_le(std::uint8_t* p, std::uint64_t v) {
  for (unsigned i = 0; i < 8; ++i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

// Parameter block -> state. SHA-1/2 ICVs are big-endian words (docs/isa/cpacf.md §2.1.6); the
// Keccak state is 25 little-endian lanes. NIP starts SHA-3/SHAKE from zero without reading the block.
void load_state(const Function& f, const std::uint8_t* param, bool no_icv, State& s) {
  switch (f.kind) {
    case Kind::sha1:
    case Kind::sha256:
      for (unsigned i = 0; i < f.state_bytes / 4; ++i) s.h32[i] = static_cast<std::uint32_t>(load_be(param + 4 * i, 4));
      break;
    case Kind::sha512:
      for (unsigned i = 0; i < 8; ++i) s.h64[i] = load_be(param + 8 * i, 8);
      break;
    case Kind::sha3:
    case Kind::shake:
      for (unsigned i = 0; i < 25; ++i) s.lanes[i] = no_icv ? 0 : load_le(param + 8 * i);
      break;
  }
}

void store_state(const Function& f, const State& s, std::uint8_t* param) {
  switch (f.kind) {
    case Kind::sha1:
    case Kind::sha256:
      for (unsigned i = 0; i < f.state_bytes / 4; ++i) store_be(param + 4 * i, s.h32[i], 4);
      break;
    case Kind::sha512:
      for (unsigned i = 0; i < 8; ++i) store_be(param + 8 * i, s.h64[i], 8);
      break;
    case Kind::sha3:
    case Kind::shake:
      for (unsigned i = 0; i < 25; ++i) store_le(param + 8 * i, s.lanes[i]);
      break;
  }
}

// One block into the state: a compression (FIPS 180-4 §6) or XOR-then-permute (FIPS 202 §4, Algorithm 8).
void process_block(const Function& f, State& s, const std::uint8_t* block) {
  switch (f.kind) {
    case Kind::sha1: sha1_compress(s.h32, block); break;
    case Kind::sha256: sha256_compress(s.h32, block); break;
    case Kind::sha512: sha512_compress(s.h64, block); break;
    case Kind::sha3:
    case Kind::shake:
      for (unsigned i = 0; i < f.block / 8; ++i) s.lanes[i] ^= load_le(block + 8 * i);
      keccak_f1600(s.lanes);
      break;
  }
}

// KLMD's last step for SHA-1/2 (docs/isa/cpacf.md §2.1.9): 0x80, zeros, then the MBL field copied from the
// parameter block — the model never counts bytes itself, so a caller that leaves MBL unset gets a wrong digest.
unsigned pad_sha2(const Function& f, State& s, const std::uint8_t* tail, std::size_t tail_len,
                  const std::uint8_t* mbl) {
  std::uint8_t buf[2 * 128] = {};
  std::memcpy(buf, tail, tail_len);
  buf[tail_len] = 0x80;
  const unsigned blocks = tail_len + 1 + f.mbl_bytes <= f.block ? 1 : 2;
  std::memcpy(buf + blocks * f.block - f.mbl_bytes, mbl, f.mbl_bytes);
  for (unsigned i = 0; i < blocks; ++i) process_block(f, s, buf + i * f.block);
  return blocks;
}

// KLMD's last step for SHA-3/SHAKE: the tail with the domain bits and pad10*1 XORed in (FIPS 202 §6.1, §6.2,
// §B.2: 0x06 / 0x1F at the first free byte, 0x80 into the last byte of the rate), then one permutation — for
// SHAKE the permutation happens in the squeeze loop instead (docs/isa/cpacf.md §2.1.9 [inferred]).
void pad_keccak(const Function& f, State& s, const std::uint8_t* tail, std::size_t tail_len) {
  std::uint8_t buf[168] = {};
  std::memcpy(buf, tail, tail_len);
  buf[tail_len] ^= f.kind == Kind::shake ? 0x1f : 0x06;
  buf[f.block - 1] ^= 0x80;
  for (unsigned i = 0; i < f.block / 8; ++i) s.lanes[i] ^= load_le(buf + 8 * i);
  if (f.kind == Kind::sha3) keccak_f1600(s.lanes);
}

CpacfStep exception(Insn insn, const char* problem) {
  CpacfStep step;
  step.outcome = CpacfOutcome::exception;
  step.insn = insn;
  step.problem = problem;
  return step;
}

}  // namespace

std::optional<CpacfInstruction> decode_cpacf(const std::uint8_t bytes[kCpacfLength]) noexcept {
  const unsigned opcode = (unsigned{bytes[0]} << 8) | bytes[1];
  if (opcode != kKimdOpcode && opcode != kKlmdOpcode) return std::nullopt;
  return CpacfInstruction{opcode == kKlmdOpcode, static_cast<unsigned>(bytes[3] >> 4),
                          static_cast<unsigned>(bytes[3] & 0xf), static_cast<unsigned>(bytes[2] >> 4)};
}

void cpacf_query_vector(const Options& options, std::uint8_t out[kCpacfQueryBytes]) noexcept {
  std::memset(out, 0, kCpacfQueryBytes);
  for (unsigned fc = 0; fc < 8 * kCpacfQueryBytes; ++fc) {
    const auto f = function_of(fc);
    if (fc == kFcQuery || (f && (options.cpacf_functions & f->group)))
      out[fc >> 3] = static_cast<std::uint8_t>(out[fc >> 3] | (0x80u >> (fc & 7)));
  }
}

CpacfStep run_cpacf(const CpacfInstruction& insn, CpacfRegisters& regs, const Options& options) noexcept {
  std::uint64_t& gr0 = regs.gr[0];
  const unsigned fc = static_cast<unsigned>(gr0 & kGr0FunctionCode);
  const AddressingMode mode = mode_of(regs.psw_mask);
  if (gr0 & kGr0Modifier)
    return exception(Insn::count_,
                     "specification exception: the modifier bit (GR0 0x80) must be 0 for KIMD/KLMD "
                     "(docs/isa/cpacf.md §2.1.2)");
  CpacfStep step;
  if (fc == kFcQuery) {
    // cpacf.md §2.3 item 3: the status vector of the emulated codes (only reached where the query itself traps).
    cpacf_query_vector(options, memory(mode.address(regs.gr[1])));
    step.outcome = CpacfOutcome::completed;
    step.insn = Insn::kimd_query;
    return step;
  }
  const auto found = function_of(fc);
  if (!found || !(options.cpacf_functions & found->group)) return step;  // not_emulated: re-raised
  const Function f = *found;
  step.insn = insn_of(f, insn.klmd);
  const bool shake_output = insn.klmd && f.kind == Kind::shake;
  if (insn.r2 == 0 || insn.r2 % 2 != 0)
    return exception(step.insn,
                     "specification exception: R2 must designate an even register other than 0 (the "
                     "source address/length pair; docs/isa/cpacf.md §2.1.3)");
  if (shake_output && (insn.r1 == 0 || insn.r1 % 2 != 0))
    return exception(step.insn,
                     "specification exception: KLMD-SHAKE needs R1 even and non-zero (the output "
                     "address/length pair; docs/isa/cpacf.md §2.1.3)");

  std::uint64_t& src_reg = regs.gr[insn.r2];
  std::uint64_t& len_reg = regs.gr[insn.r2 + 1];
  const std::uint8_t* src = memory<const std::uint8_t>(mode.address(src_reg));
  std::uint64_t len = mode.length(len_reg);
  if (!insn.klmd && len % f.block != 0)
    return exception(step.insn,
                     "specification exception: the KIMD length (R2+1) is not a multiple of the "
                     "function's block size (docs/isa/cpacf.md §2.1.7)");
  if (!insn.klmd && len == 0) {
    step.outcome = CpacfOutcome::completed;  // KIMD with length 0 does nothing, not even read the block
    return step;
  }

  // The parameter block: exactly its documented size (docs/isa/cpacf.md §2.3 item 10), read once and written once.
  std::uint8_t* param = memory(mode.address(regs.gr[1]));
  const bool keccak = f.kind == Kind::sha3 || f.kind == Kind::shake;
  if (shake_output) {
    // docs/isa/cpacf.md §2.1.9 [not confirmed]: output over the message or the parameter block is treated as
    // unpredictable, so no caller may rely on what this model (which reads all input first) would do.
    const std::uint8_t* out = memory<const std::uint8_t>(mode.address(regs.gr[insn.r1]));
    const std::uint64_t out_len = mode.length(regs.gr[insn.r1 + 1]);
    const auto overlaps = [&](const std::uint8_t* p, std::uint64_t n) {
      const std::less<const std::uint8_t*> before;
      return out_len != 0 && n != 0 && before(out, p + n) && before(p, out + out_len);
    };
    const bool reads_message = !(gr0 & kGr0PaddingState);
    if ((reads_message && overlaps(src, len)) || overlaps(param, f.state_bytes + f.mbl_bytes))
      return exception(step.insn,
                       "KLMD-SHAKE output (first operand) overlaps the message (second operand) or the "
                       "parameter block: unpredictable results (docs/isa/cpacf.md §2.1.9)");
  }
  const bool no_icv = keccak && (gr0 & kGr0NoIcv);  // NIP is ignored by SHA-1/2 (docs/isa/cpacf.md §2.1.2)
  const bool squeeze_only = shake_output && (gr0 & kGr0PaddingState);
  State s{};
  load_state(f, param, no_icv, s);
  std::uint8_t mbl[16] = {};
  if (insn.klmd && !keccak) std::memcpy(mbl, param + f.state_bytes, f.mbl_bytes);

  // Whole blocks; with interrupt_blocks = k, the execution stops with CC3 before block k + 1 (cpacf.md §2.3 item 9).
  std::uint64_t consumed = 0;
  bool partial = false;
  while (!squeeze_only && len - consumed >= f.block) {
    if (options.interrupt_blocks != 0 && step.blocks == options.interrupt_blocks) {
      partial = true;
      break;
    }
    std::uint8_t block[168];
    std::memcpy(block, src + consumed, f.block);  // exact reads: guard pages see any over-read
    process_block(f, s, block);
    consumed += f.block;
    ++step.blocks;
  }

  std::uint64_t out_written = 0;
  if (!partial && insn.klmd) {
    if (!squeeze_only) {
      std::uint8_t tail[168];
      const std::size_t tail_len = static_cast<std::size_t>(len - consumed);
      if (tail_len != 0) std::memcpy(tail, src + consumed, tail_len);
      consumed += tail_len;
      if (keccak) {
        pad_keccak(f, s, tail, tail_len);
        step.blocks += f.kind == Kind::sha3 ? 1 : 0;
      } else {
        step.blocks += pad_sha2(f, s, tail, tail_len, mbl);
      }
    }
    if (shake_output) {
      // Squeeze R1+1 bytes to R1: permute, then output up to one rate of bytes (FIPS 202 §4 step 8-10).
      std::uint8_t* out = memory(mode.address(regs.gr[insn.r1]));
      const std::uint64_t out_len = mode.length(regs.gr[insn.r1 + 1]);
      while (out_written < out_len) {
        keccak_f1600(s.lanes);
        ++step.blocks;
        std::uint8_t block[168];
        for (unsigned i = 0; i < f.block / 8; ++i) store_le(block + 8 * i, s.lanes[i]);
        const std::uint64_t n = std::min<std::uint64_t>(f.block, out_len - out_written);
        std::memcpy(out + out_written, block, n);
        out_written += n;
      }
    }
  }

  store_state(f, s, param);                      // the ICV only: the MBL field is an input
  if (broken_by_test(step.insn)) param[0] ^= 1;  // test-only (test_break.h)
  mode.set_address(src_reg, mode.address(src_reg) + consumed);
  mode.set_length(len_reg, len - consumed);
  if (shake_output) {
    mode.set_address(regs.gr[insn.r1], mode.address(regs.gr[insn.r1]) + out_written);
    mode.set_length(regs.gr[insn.r1 + 1], mode.length(regs.gr[insn.r1 + 1]) - out_written);
  }
  // [inferred] After a partial completion the stored state is the ICV to continue from, so NIP must not apply
  // to the re-execution: the model clears it in GR0 (callers keep GR0 as an in/out operand).
  if (partial) gr0 &= ~kGr0NoIcv;
  step.outcome = partial ? CpacfOutcome::partial : CpacfOutcome::completed;
  return step;
}

}  // namespace shakedown::emul::detail
