// SHA-512 with the POWER8 vector-crypto instruction vshasigmad (Power ISA 2.07 Book I §5.11, Vector SHA-512
// Sigma Doubleword) on the VSX register file.
#include "backend_rows.h"
#include "internal/sha2_constants.h"
#include "internal/stack_burn.h"
#include "sha2_vcrypto.h"

namespace shakedown::internal {
namespace {

// Element 0 of each vector is the stream; element 1 rides along unused (see round() in sha2_vcrypto.h).
[[gnu::always_inline]] inline U64x2 swap_halves(U64x2 v) { return __builtin_shufflevector(v, v, 1, 0); }
// (a[1], b[0]): a pair of schedule words that straddles two registers.
[[gnu::always_inline]] inline U64x2 straddle(U64x2 a, U64x2 b) { return __builtin_shufflevector(a, b, 1, 2); }

// One stream over nblocks blocks (FIPS 180-4 §6.4.2). The working variables live in element 0 of eight vector
// registers, so that vshasigmad computes Σ0/Σ1 in one instruction and vsel computes Ch and Maj in one more; the
// 16-word schedule window lives in eight more registers, two words each, so no word goes through memory.
[[gnu::noinline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO void compress_blocks(std::uint64_t h[8], const std::uint8_t* data,
                                                                        std::size_t nblocks) {
  using Bytes = __vector unsigned char;
  // §3.1: big-endian words; loaded in memory order, each doubleword's bytes reversed (one vperm).
  const Bytes byteswap = {7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8};
  const auto* const k = reinterpret_cast<const unsigned long long*>(kSha512K);
  U64x2 s[8];
  for (int i = 0; i < 8; ++i) s[i] = vec_splats(static_cast<unsigned long long>(h[i]));
  for (std::size_t b = 0; b < nblocks; ++b, data += 128) {
    U64x2 x[8];  // x[j] = (W[t+2j], W[t+2j+1]) for the 16 words W[t..t+15] of the current window
    for (int j = 0; j < 8; ++j) {
      const Bytes raw = vec_xl(0, data + 16 * j);
      x[j] = reinterpret_cast<U64x2>(vec_perm(raw, raw, byteswap));
    }
    Working<U64x2> wv{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
#pragma GCC unroll 5
    for (int t = 0; t < 80; t += 16) {
#pragma GCC unroll 8
      for (int j = 0; j < 8; ++j) {
        const U64x2 wk2 = x[j] + vec_xl(0, k + t + 2 * j);
        wv.round(wk2);
        wv.round(swap_halves(wk2));
      }
      if (t == 64) break;
        // §6.4.2 step 1 for the next 16 words, in place, two at a time (no lane depends on the other):
        // W[u..u+1] = σ1(W[u-2..u-1]) + W[u-7..u-6] + σ0(W[u-15..u-14]) + W[u-16..u-15], u = t + 16 + 2j.
        // x[j-1] is already the new W[u-2..u-1]; the straddles read x[j+4..j+5] and x[j..j+1] (indices mod 8),
        // new once they have been rewritten, which is what the recurrence asks for.
#pragma GCC unroll 8
      for (int j = 0; j < 8; ++j) {
        x[j] += small_sigma1(x[(j + 7) % 8]) + straddle(x[(j + 4) % 8], x[(j + 5) % 8]) +
                small_sigma0(straddle(x[j], x[(j + 1) % 8]));
      }
    }
    add_into(s, wv);  // step 4
  }
  for (int i = 0; i < 8; ++i) h[i] = vec_extract(s[i], 0);
}

// The compiler's spills (the message words and the state, if any) are burnt after the block function returns
// (stack_burn.h); UBSan's checks deepen the frame.
constexpr std::size_t kVcryptoStack = 2048;

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  compress_blocks(h, data, nblocks);
  burn_stack(kVcryptoStack);
}

// 2 streams, one in each element: hash_many's lanes (compress_lanes in sha2_vcrypto.h).
constexpr auto kSplatK = splat_k<std::uint64_t, 2>(kSha512K);

[[gnu::noinline]] SHAKEDOWN_PPC64LE_TARGET_VCRYPTO void compress_x2(std::uint64_t* const h[],
                                                                    const std::uint8_t* const data[],
                                                                    std::size_t nblocks) {
  compress_lanes<std::uint64_t, U64x2>(h, data, nblocks, kSplatK);
}

}  // namespace

constinit const Sha512Backend rows::sha512_ppc64le_vcrypto = {
    {"ppc64le/vcrypto", "POWER8 vector crypto vshasigmad (HWCAP2 VEC_CRYPTO) and VSX (HWCAP VSX)", vcrypto_available,
     kBackendDefault},
    blocks,
    // 2 lanes from 2 busy ones: two streams take one call's rounds instead of two calls' (instruction counts
    // under QEMU, bench/qemu_insn_ratio.py; docs/platforms.md); no POWER hardware here to time it.
    {2, 2, blocks_lanes<std::uint64_t, compress_x2>}};

}  // namespace shakedown::internal
