// Portable Keccak-p[1600,24] (FIPS 202 §3.3, §3.4) with fully unrolled steps, and sponge byte I/O.
#include <bit>
#include <cstring>

#include "internal/bytes.h"
#include "internal/generic.h"

namespace shakedown::internal {
namespace {

// FIPS 202 §3.2.5 round constants RC[ir] for ir = 0..23 (Algorithm 6, precomputed).
constexpr std::uint64_t kRoundConstants[24] = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000, 0x000000000000808b,
    0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008a, 0x0000000000000088,
    0x0000000080008009, 0x000000008000000a, 0x000000008000808b, 0x800000000000008b, 0x8000000000008089,
    0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

// ρ offsets (§3.2.2, Table 2) indexed by lane x + 5y.
constexpr int kRho[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};

constexpr int lane(int x, int y) { return x + 5 * y; }

// One round Rnd(A, ir) = ι(χ(π(ρ(θ(A))))) (§3.3), reading A and writing B.
// π (§3.2.3): B[y, 2x+3y] = ρ(A[x, y]), so the destination index is a compile-time constant.
inline __attribute__((always_inline)) void round(const std::uint64_t* A, std::uint64_t* out, std::uint64_t rc) {
  std::uint64_t C[5], D[5], B[25];
#pragma GCC unroll 5
  for (int x = 0; x < 5; ++x) C[x] = A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20];  // θ step 1
#pragma GCC unroll 5
  for (int x = 0; x < 5; ++x) D[x] = C[(x + 4) % 5] ^ std::rotl(C[(x + 1) % 5], 1);      // θ step 2
#pragma GCC unroll 5
  for (int y = 0; y < 5; ++y)
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) {
      int src = lane(x, y);
      B[lane(y, (2 * x + 3 * y) % 5)] = std::rotl(A[src] ^ D[x], kRho[src]);
    }
#pragma GCC unroll 5
  for (int y = 0; y < 5; ++y)
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x)  // χ (§3.2.4)
      out[lane(x, y)] = B[lane(x, y)] ^ (~B[lane((x + 1) % 5, y)] & B[lane((x + 2) % 5, y)]);
  out[0] ^= rc;  // ι (§3.2.5)
}

}  // namespace

void keccak_permute_generic(std::uint64_t state[25]) {
  std::uint64_t A[25], E[25];
  std::memcpy(A, state, sizeof A);
  for (int ir = 0; ir < 24; ir += 2) {  // two rounds per iteration: no copy back between rounds
    round(A, E, kRoundConstants[ir]);
    round(E, A, kRoundConstants[ir + 1]);
  }
  std::memcpy(state, A, sizeof A);
  secure_zero(E, sizeof E);
  secure_zero(A, sizeof A);
}

void keccak_xor_bytes(std::uint64_t state[25], std::size_t offset, const std::uint8_t* data, std::size_t len) {
  if constexpr (std::endian::native == std::endian::little) {
    auto* bytes = reinterpret_cast<std::uint8_t*>(state);
    for (std::size_t i = 0; i < len; ++i) bytes[offset + i] ^= data[i];
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      std::size_t at = offset + i;
      state[at / 8] ^= static_cast<std::uint64_t>(data[i]) << (8 * (at % 8));
    }
  }
}

void keccak_extract_bytes(const std::uint64_t state[25], std::size_t offset, std::uint8_t* out, std::size_t len) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, reinterpret_cast<const std::uint8_t*>(state) + offset, len);
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      std::size_t at = offset + i;
      out[i] = static_cast<std::uint8_t>(state[at / 8] >> (8 * (at % 8)));
    }
  }
}

void keccak_absorb_generic(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                           std::size_t rate) {
  const std::size_t lanes = rate / 8;  // every SHA-3/SHAKE rate is a whole number of lanes
  while (nblocks--) {
    for (std::size_t i = 0; i < lanes; ++i) state[i] ^= load_le64(data + 8 * i);
    keccak_permute_generic(state);
    data += rate;
  }
}

}  // namespace shakedown::internal
