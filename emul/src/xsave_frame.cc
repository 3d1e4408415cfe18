// YMM registers in the XSAVE image of a Linux x86-64 signal frame (see xsave_frame.h).
#include "xsave_frame.h"

#include <cpuid.h>

#include <atomic>
#include <cstddef>
#include <cstring>

namespace shakedown::emul::detail {
namespace {

// Linux arch/x86/include/uapi/asm/sigcontext.h, spelled out here because that header clashes with glibc's
// <signal.h>: the FXSAVE image (512 bytes) ends in 48 software-reserved bytes where the kernel puts
// struct _fpx_sw_bytes {u32 magic1, extended_size; u64 xfeatures; u32 xstate_size, padding[7];} when the XSAVE
// area follows; the area is xstate_size bytes from the start and is followed by the u32 FP_XSTATE_MAGIC2.
constexpr std::uint32_t kFpXstateMagic1 = 0x46505853;
constexpr std::uint32_t kFpXstateMagic2 = 0x46505845;
constexpr std::size_t kSwBytes = 464;                  // offset of struct _fpx_sw_bytes
constexpr std::size_t kSwXfeatures = kSwBytes + 8;     // the XCR0 components saved in this frame
constexpr std::size_t kSwXstateSize = kSwBytes + 16;
// FXSAVE image (SDM Vol. 1 Table 10-2): XMM0-15 at byte 160, 16 bytes each. XSAVE header (Vol. 1 §13.4.2):
// XSTATE_BV, the bitmap of components not in their initial state, at byte 512.
constexpr std::size_t kXmm0 = 160;
constexpr std::size_t kXstateBv = 512;
constexpr std::size_t kXsaveHeaderEnd = 576;
static_assert(sizeof(_libc_fpstate) == 512 && offsetof(_libc_fpstate, _xmm) == kXmm0, "glibc's FXSAVE image");
constexpr std::uint64_t kSse = 1u << 1, kAvx = 1u << 2, kZmmHi256 = 1u << 6;  // XCR0 / XSTATE_BV bits

std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
std::uint32_t load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

XsaveLayout xsave_layout() noexcept {
  // avx_offset | zmm_hi256_offset << 32, or 0 before the first query (avx_offset is never 0: it follows the
  // 576-byte legacy area and header). Constant-initialised, so no guard variable and no lock.
  static std::atomic<std::uint64_t> cached{0};
  std::uint64_t packed = cached.load(std::memory_order_relaxed);
  if (packed == 0) {
    XsaveLayout l;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0, nullptr) >= 0xd) {
      __cpuid_count(0xd, 2, a, b, c, d);
      if (a == 256) l.avx_offset = b;  // EAX = size: 16 registers x 16 bytes
      __cpuid_count(0xd, 6, a, b, c, d);
      if (a == 512) l.zmm_hi256_offset = b;  // 16 registers x 32 bytes
    }
    packed = l.avx_offset | static_cast<std::uint64_t>(l.zmm_hi256_offset) << 32;
    cached.store(packed, std::memory_order_relaxed);  // every thread computes the same value
  }
  return {static_cast<std::uint32_t>(packed), static_cast<std::uint32_t>(packed >> 32)};
}

YmmFrame::YmmFrame(ucontext_t& uc, const XsaveLayout& layout) noexcept
    : fp_(reinterpret_cast<std::uint8_t*>(uc.uc_mcontext.fpregs)) {
  if (fp_ == nullptr) {
    problem_ = "the signal frame has no FPU state";
    return;
  }
  if (load32(fp_ + kSwBytes) != kFpXstateMagic1) {
    problem_ = "the signal frame has no XSAVE area (the OS saves no YMM state: XSAVE is not enabled)";
    return;
  }
  const std::uint64_t xfeatures = load64(fp_ + kSwXfeatures);
  const std::uint32_t size = load32(fp_ + kSwXstateSize);
  if (size < kXsaveHeaderEnd || load32(fp_ + size) != kFpXstateMagic2) {
    problem_ = "the signal frame's XSAVE area is malformed (xstate_size / FP_XSTATE_MAGIC2)";
    return;
  }
  if ((xfeatures & (kSse | kAvx)) != (kSse | kAvx)) {
    problem_ = "YMM state is not enabled (XCR0 lacks SSE or AVX): VEX.256 instructions raise #UD";
    return;
  }
  if (layout.avx_offset < kXsaveHeaderEnd || layout.avx_offset + 16 * 16 > size) {
    problem_ = "CPUID leaf 0DH gives no AVX state offset inside the frame's XSAVE area";
    return;
  }
  avx_ = layout.avx_offset;
  if ((xfeatures & kZmmHi256) && layout.zmm_hi256_offset >= kXsaveHeaderEnd &&
      layout.zmm_hi256_offset + 16 * 32 <= size)
    zmm_ = layout.zmm_hi256_offset;
}

std::uint64_t YmmFrame::xstate_bv() const noexcept { return load64(fp_ + kXstateBv); }

// A component whose XSTATE_BV bit is 0 is in its initial state, all zeros, whatever the image holds there (XSAVE
// need not write it: SDM Vol. 1 §13.7).
Ymm YmmFrame::read(unsigned reg) const noexcept {
  Ymm v{};
  const std::uint64_t bv = xstate_bv();
  if (bv & kSse) std::memcpy(&v[0], fp_ + kXmm0 + 16 * reg, 16);
  if (bv & kAvx) std::memcpy(&v[2], fp_ + avx_ + 16 * reg, 16);
  return v;
}

// XRSTOR (sigreturn) loads a component from the image only if its XSTATE_BV bit is set and re-initialises it
// otherwise (SDM Vol. 1 §13.8): writing YMM_Hi128 after VZEROUPPER (bit 2 clear, measured natively) without
// setting the bit would be silently lost. A component being switched on is first given its initial zeros.
void YmmFrame::write(unsigned reg, const Ymm& value) noexcept {
  std::uint64_t bv = xstate_bv();
  if (!(bv & kSse)) std::memset(fp_ + kXmm0, 0, 16 * 16);
  if (!(bv & kAvx)) std::memset(fp_ + avx_, 0, 16 * 16);
  bv |= kSse | kAvx;
  std::memcpy(fp_ + kXmm0 + 16 * reg, &value[0], 16);
  std::memcpy(fp_ + avx_ + 16 * reg, &value[2], 16);
  // VEX.256 zeroes bits MAXVL-1:256 of the destination (SDM Vol. 2C Operation: DEST[MAXVL-1:256] := 0). With the
  // ZMM_Hi256 bit clear they are zero already.
  if (zmm_ != 0 && (bv & kZmmHi256)) std::memset(fp_ + zmm_ + 32 * reg, 0, 32);
  std::memcpy(fp_ + kXstateBv, &bv, sizeof bv);
}

}  // namespace shakedown::emul::detail
