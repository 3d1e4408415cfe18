// The YMM registers of an interrupted x86-64 thread, read and written in its Linux signal frame's XSAVE image.
//
// The legacy FXSAVE part of the frame holds only XMM0-15 (bits 127:0); bits 255:128 live in the XSAVE extended
// region, state component 2 (AVX, "YMM_Hi128"), at the offset CPUID.(EAX=0DH, ECX=2).EBX reports (Intel SDM
// Vol. 1 §13.2, §13.4; Linux arch/x86/include/uapi/asm/sigcontext.h). sigreturn restores the registers from this
// image, so writing it is how the handler changes them. Details and measurements: docs/intel-sha512.md.
#pragma once

#include <ucontext.h>

#include <cstdint>

#include "sha512ni_model.h"

namespace shakedown::emul::detail {

// Where the XSAVE standard format puts the components a VEX.256 write touches; 0 = not reported.
struct XsaveLayout {
  std::uint32_t avx_offset = 0;        // component 2, YMM_Hi128: 16 x 16 bytes
  std::uint32_t zmm_hi256_offset = 0;  // component 6, ZMM_Hi256: 16 x 32 bytes (AVX-512 CPUs only)
};
// CPUID leaf 0DH of the CPU (or of QEMU, whose frames follow its own CPUID), queried on first use and cached.
// Async-signal-safe: CPUID and a lock-free atomic only.
XsaveLayout xsave_layout() noexcept;

class YmmFrame {
 public:
  YmmFrame(ucontext_t& uc, const XsaveLayout& layout) noexcept;
  // Why the frame holds no usable YMM state, or nullptr. With none, the OS has not enabled YMM state (no XSAVE
  // area, or XCR0 without SSE and AVX), and every VEX.256 instruction raises #UD.
  const char* problem() const noexcept { return problem_; }
  Ymm read(unsigned reg) const noexcept;
  // Writes ymm[reg] the way a VEX.256 instruction does: all 256 bits, and bits 511:256 of zmm[reg] become 0.
  void write(unsigned reg, const Ymm& value) noexcept;

 private:
  std::uint64_t xstate_bv() const noexcept;
  std::uint8_t* fp_ = nullptr;
  std::uint32_t avx_ = 0;  // offset of YMM_Hi128 in the frame
  std::uint32_t zmm_ = 0;  // offset of ZMM_Hi256 in the frame, 0 when the frame has none
  const char* problem_ = nullptr;
};

}  // namespace shakedown::emul::detail
