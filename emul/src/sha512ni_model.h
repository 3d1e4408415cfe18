// The Intel SHA512-extension model: decode VEX.256.F2.0F38.W0 CB/CC/CD and execute them on YMM values.
//
// Pure C++, no signals: trap_x86_64.cc moves the registers between the signal frame and these functions.
// Semantics, encodings and their sources: docs/intel-sha512.md.
#pragma once

#include <array>
#include <cstdint>

#include "emul/emul.h"

namespace shakedown::emul::detail {

// One YMM register: qword 0 holds bits 63:0.
using Ymm = std::array<std::uint64_t, 4>;

enum class VexDecode : std::uint8_t {
  not_ours,  // not a VEX F2.0F38 CB/CC/CD instruction: somebody else's illegal instruction
  invalid,   // one of ours in a form that raises #UD on hardware (reason says which rule): stays illegal
  ok,
};

struct Sha512niDecoded {
  VexDecode status = VexDecode::not_ours;
  Insn insn = Insn::count_;
  unsigned length = 0;                  // bytes, prefixes included (status ok)
  unsigned reg = 0, vvvv = 0, rm = 0;   // ymm numbers 0-15: ModRM.reg (+ VEX.R), VEX.vvvv, ModRM.rm (+ VEX.B)
  const char* reason = nullptr;         // status invalid: the violated rule, with its source
};

// Decodes the instruction at code. Reads one byte at a time and stops as soon as the answer is known, so it never
// reads beyond the instruction (whose bytes the CPU fetched, so they are mapped).
Sha512niDecoded decode_sha512ni(const std::uint8_t* code) noexcept;

// The architectural effect on the destination (Intel SDM Vol. 2C, Operation sections): dst is ymm1 (ModRM.reg),
// src1 the VEX.vvvv register (VSHA512RNDS2 only), src2 the ModRM.rm register, of which VSHA512RNDS2 reads qwords
// 0-1 (K + W), VSHA512MSG1 qword 0 (W[t-12]) and VSHA512MSG2 qwords 2-3 (W[t-2], W[t-1]). The caller passes
// copies, so dst may be the same register as a source.
void execute_sha512ni(Insn insn, Ymm& dst, const Ymm& src1, const Ymm& src2) noexcept;

}  // namespace shakedown::emul::detail
