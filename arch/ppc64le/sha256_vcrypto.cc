// SHA-256 with the POWER8 vector-crypto instruction vshasigmaw (Power ISA 2.07 Book I §5.11, Vector SHA-256
// Sigma Word) on the VSX register file.
#include <cstring>

#include "backend_rows.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "sha2_vcrypto.h"

namespace shakedown::internal {
namespace {

// One stream over nblocks blocks (FIPS 180-4 §6.2.2). The eight working variables live in vector registers,
// each word broadcast to all four lanes, so that vshasigmaw computes Σ0/Σ1 in one instruction and vsel computes
// Ch and Maj in one more; the schedule is computed four words per vector in a stack array.
[[gnu::noinline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO void compress_blocks(std::uint32_t h[8], const std::uint8_t* data,
                                                                        std::size_t nblocks) {
  // Zeroed once: the schedule's first pass below reads W[t], W[t+1] before it writes them (lanes it then redoes).
  alignas(16) std::uint32_t w[64] = {};
  U32x4 s[8];
  for (int i = 0; i < 8; ++i) s[i] = vec_splats(h[i]);
  for (std::size_t b = 0; b < nblocks; ++b, data += 64) {
    for (int i = 0; i < 16; ++i) {  // §3.1: big-endian words
      std::uint32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      w[i] = __builtin_bswap32(v);
    }
    // §6.2.2 step 1, four words at a time: W[t..t+3] = σ1(W[t-2..t+1]) + W[t-7..t-4] + σ0(W[t-15..t-12]) +
    // W[t-16..t-13]. σ1's last two inputs are W[t] and W[t+1] themselves: the first pass gets lanes 0-1 right,
    // the second, reading them back, lanes 2-3.
    for (int t = 16; t < 64; t += 4) {
      const U32x4 part = small_sigma0(vec_xl(0, w + t - 15)) + vec_xl(0, w + t - 16) + vec_xl(0, w + t - 7);
      vec_xst(part + small_sigma1(vec_xl(0, w + t - 2)), 0, w + t);
      vec_xst(part + small_sigma1(vec_xl(0, w + t - 2)), 0, w + t);
    }
    Working<U32x4> wv{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
#pragma GCC unroll 16
    for (int t = 0; t < 64; t += 4) {
      const U32x4 wk4 = vec_xl(0, w + t) + vec_xl(0, kSha256K + t);
      wv.round(vec_splat(wk4, 0));
      wv.round(vec_splat(wk4, 1));
      wv.round(vec_splat(wk4, 2));
      wv.round(vec_splat(wk4, 3));
    }
    add_into(s, wv);  // step 4
  }
  for (int i = 0; i < 8; ++i) h[i] = vec_extract(s[i], 0);
}

// The schedule array (256 bytes) and the compiler's spills are burnt after the block function returns
// (stack_burn.h); UBSan's checks deepen the frame.
constexpr std::size_t kVcryptoStack = 1024;

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(kVcryptoStack);
}

// 4 streams, one in each element: hash_many's lanes (compress_lanes in sha2_vcrypto.h).
constexpr auto kSplatK = splat_k<std::uint32_t, 4>(kSha256K);

[[gnu::noinline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO void compress_x4(std::uint32_t* const h[],
                                                                    const std::uint8_t* const data[],
                                                                    std::size_t nblocks) {
  compress_lanes<std::uint32_t, U32x4>(h, data, nblocks, kSplatK);
}

}  // namespace

constinit const Sha256Backend rows::sha256_ppc64le_vcrypto = {
    {"ppc64le/vcrypto", "POWER8 vector crypto vshasigmaw (HWCAP2 VEC_CRYPTO) and VSX (HWCAP VSX)", vcrypto_available,
     kBackendDefault},
    blocks,
    // 4 lanes from 2 busy ones: two streams take one call's rounds instead of two calls' (instruction counts
    // under QEMU, bench/qemu_insn_ratio.py; docs/platforms.md); no POWER hardware here to time it.
    {4, 2, blocks_lanes<std::uint32_t, compress_x4>}};

}  // namespace shakedown::internal
