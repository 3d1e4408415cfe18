// SHA-512 with the POWER8 vector-crypto instruction vshasigmad (Power ISA 2.07 Book I §5.11, Vector SHA-512
// Sigma Doubleword) on the VSX register file.
#include <cstring>

#include "backend_rows.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "sha2_vcrypto.h"

namespace shakedown::internal {
namespace {

// One stream over nblocks blocks (FIPS 180-4 §6.4.2), the working variables broadcast to both lanes of a vector
// register (see sha256_vcrypto.cc); the schedule two words per vector in a stack array.
[[gnu::noinline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO void compress_blocks(std::uint64_t h[8], const std::uint8_t* data,
                                                                        std::size_t nblocks) {
  alignas(16) std::uint64_t w[80];
  U64x2 s[8];
  for (int i = 0; i < 8; ++i) s[i] = vec_splats(static_cast<unsigned long long>(h[i]));
  for (std::size_t b = 0; b < nblocks; ++b, data += 128) {
    for (int i = 0; i < 16; ++i) {  // §3.1: big-endian words
      std::uint64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      w[i] = __builtin_bswap64(v);
    }
    // §6.4.2 step 1, two words at a time: W[t..t+1] = σ1(W[t-2..t-1]) + W[t-7..t-6] + σ0(W[t-15..t-14]) +
    // W[t-16..t-15]; no lane depends on the other.
    auto* const wl = reinterpret_cast<unsigned long long*>(w);
    for (int t = 16; t < 80; t += 2) {
      vec_xst(small_sigma1(vec_xl(0, wl + t - 2)) + vec_xl(0, wl + t - 7) + small_sigma0(vec_xl(0, wl + t - 15)) +
                  vec_xl(0, wl + t - 16),
              0, wl + t);
    }
    Working<U64x2> wv{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
    const auto* const k = reinterpret_cast<const unsigned long long*>(kSha512K);
#pragma GCC unroll 40
    for (int t = 0; t < 80; t += 2) {
      const U64x2 wk2 = vec_xl(0, wl + t) + vec_xl(0, k + t);
      wv.round(vec_splat(wk2, 0));
      wv.round(vec_splat(wk2, 1));
    }
    add_into(s, wv);  // step 4
  }
  for (int i = 0; i < 8; ++i) h[i] = vec_extract(s[i], 0);
}

// The schedule array (640 bytes) and the compiler's spills are burnt after the block function returns
// (stack_burn.h); UBSan's checks deepen the frame.
constexpr std::size_t kVcryptoStack = 2048;

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(kVcryptoStack);
}

// vshasigmad needs the vector-crypto facility (HWCAP2 VEC_CRYPTO, every POWER8 and later) and the unaligned VSX
// loads and stores (HWCAP VSX).
bool available(const CpuFeatures& f) { return f.has(CpuFeature::ppc_vsx) && f.has(CpuFeature::ppc_vec_crypto); }

}  // namespace

constinit const Sha512Backend rows::sha512_ppc64le_vcrypto = {
    {"ppc64le/vcrypto", "POWER8 vector crypto vshasigmad (HWCAP2 VEC_CRYPTO) and VSX (HWCAP VSX)", available,
     kBackendDefault},
    blocks};

}  // namespace shakedown::internal
