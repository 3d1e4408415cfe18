// Intel SHA512 extension: VEX decoding of VSHA512RNDS2 / VSHA512MSG1 / VSHA512MSG2 and their semantics.
//
// Sources (docs/intel-sha512.md): Intel SDM Vol. 2C instruction pages (opcode, "11:rrr:bbb" register-only form,
// Operation), Vol. 2A §2.3 (VEX prefix, #UD on a preceding 66/F2/F3/LOCK/REX prefix), FIPS 180-4 §4.1.3.
#include "sha512ni_model.h"

#include "sha2_functions.h"
#include "test_break.h"

namespace shakedown::emul::detail {
namespace {

// The longest x86 instruction is 15 bytes (SDM Vol. 2A §2.3.11); hardware does not raise #UD for a longer one.
constexpr unsigned kMaxInsnLength = 15;
// VEX: 3-byte form C4 (map 0F38 needs it: the 2-byte C5 form implies map 0F).
constexpr std::uint8_t kVex3 = 0xc4;
constexpr unsigned kMap0F38 = 2;  // VEX.m-mmmm
constexpr unsigned kPpF2 = 3;     // VEX.pp

// Legacy prefixes that may precede VEX and mean nothing to a register-only instruction: segment overrides and
// the address-size override (SDM Vol. 2A §2.1.1). 66, F2, F3, F0 (LOCK) and REX before VEX raise #UD (§2.3.2).
bool ignored_prefix(std::uint8_t b) {
  return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65 || b == 0x67;
}
bool ud_prefix(std::uint8_t b) { return b == 0x66 || b == 0xf2 || b == 0xf3 || b == 0xf0 || (b & 0xf0) == 0x40; }

Insn insn_of(std::uint8_t opcode) {
  switch (opcode) {
    case 0xcb: return Insn::vsha512rnds2;
    case 0xcc: return Insn::vsha512msg1;
    case 0xcd: return Insn::vsha512msg2;
    default: return Insn::count_;
  }
}

Sha512niDecoded invalid(Insn insn, const char* reason) { return {VexDecode::invalid, insn, 0, 0, 0, 0, reason}; }

}  // namespace

Sha512niDecoded decode_sha512ni(const std::uint8_t* code) noexcept {
  unsigned i = 0;
  const char* prefix_problem = nullptr;
  // Five bytes (C4, two VEX payload bytes, opcode, ModRM) must still fit after the prefixes.
  for (; i + 5 <= kMaxInsnLength; ++i) {
    if (ud_prefix(code[i]))
      prefix_problem = "a 66, F2, F3, LOCK or REX prefix before VEX (SDM Vol. 2A §2.3.2: #UD)";
    else if (!ignored_prefix(code[i]))
      break;
  }
  if (i + 5 > kMaxInsnLength || code[i] != kVex3) return {};
  const std::uint8_t p1 = code[i + 1];  // R̄ X̄ B̄ m-mmmm
  const std::uint8_t p2 = code[i + 2];  // W v̄v̄v̄v̄ L pp
  if ((p1 & 0x1f) != kMap0F38 || (p2 & 3) != kPpF2) return {};
  const Insn insn = insn_of(code[i + 3]);
  if (insn == Insn::count_) return {};
  // From here on it is one of ours: every other field must match, or the CPU raises #UD.
  if (prefix_problem) return invalid(insn, prefix_problem);
  if (p2 & 0x80) return invalid(insn, "VEX.W1 (the instructions are defined with W0 only)");
  if (!(p2 & 0x04)) return invalid(insn, "VEX.L0 (the instructions are VEX.256 only)");
  const std::uint8_t modrm = code[i + 4];
  if ((modrm >> 6) != 3)
    return invalid(insn, "memory operand (SDM: register operands only, ModRM 11:rrr:bbb; there is no memory form)");
  const unsigned vvvv = ~(p2 >> 3) & 15;
  if (insn != Insn::vsha512rnds2 && vvvv != 0)
    return invalid(insn, "VEX.vvvv is not 1111b (VSHA512MSG1/MSG2 have no VEX.vvvv operand)");
  Sha512niDecoded d;
  d.status = VexDecode::ok;
  d.insn = insn;
  d.length = i + 5;
  d.reg = ((modrm >> 3) & 7) | (p1 & 0x80 ? 0 : 8);  // VEX.R is stored inverted
  d.rm = (modrm & 7) | (p1 & 0x20 ? 0 : 8);          // VEX.B likewise; VEX.X extends only a SIB index: unused
  d.vvvv = vvvv;
  return d;
}

namespace {

void execute_exactly(Insn insn, Ymm& dst, const Ymm& src1, const Ymm& src2) noexcept {
  using F = Sha2Fns<std::uint64_t>;
  switch (insn) {
    case Insn::vsha512rnds2:
      // SRCDEST = {H, G, D, C}, SRC1 = {F, E, B, A}, SRC2 qwords 0, 1 = WK[0], WK[1]; the new {F, E, B, A}
      // replaces SRCDEST.
      sha2_two_rounds(dst.data(), src1.data(), src2[0], src2[1]);
      return;
    case Insn::vsha512msg1:
      // W[0..3] = SRCDEST, W[4] = SRC1 qword 0; SRCDEST[i] = W[i] + s0(W[i + 1]). In place upwards: dst[i + 1]
      // is still the old W[i + 1] when dst[i] reads it.
      for (int q = 0; q < 3; ++q) dst[q] += F::sigma0(dst[q + 1]);
      dst[3] += F::sigma0(src2[0]);
      return;
    case Insn::vsha512msg2:
      // W[14], W[15] = SRC1 qwords 2, 3; W[16 + i] = SRCDEST[i] + s1(W[14 + i]): W[18], W[19] use the new W[16],
      // W[17].
      dst[0] += F::sigma1(src2[2]);
      dst[1] += F::sigma1(src2[3]);
      dst[2] += F::sigma1(dst[0]);
      dst[3] += F::sigma1(dst[1]);
      return;
    default: return;
  }
}

}  // namespace

void execute_sha512ni(Insn insn, Ymm& dst, const Ymm& src1, const Ymm& src2) noexcept {
  execute_exactly(insn, dst, src1, src2);
  if (broken_by_test(insn)) dst[0] ^= 1;  // test-only (test_break.h): the conformance suite must catch it
}

}  // namespace shakedown::emul::detail
