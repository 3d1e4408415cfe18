// Compact SHA-1/SHA-256/SHA-512 compression for the emulator (FIPS 180-4 §6), written apart from lib/
// so that a bug in the library's compression cannot hide behind the same bug in its emulated check.
#include "sha_reference.h"

#include <bit>
#include <cstring>

namespace shakedown::emul::detail {
namespace {

template <class W>
W load_be(const std::uint8_t* p) noexcept {
  W w = 0;
  for (unsigned i = 0; i < sizeof(W); ++i) w = static_cast<W>((w << 8) | p[i]);
  return w;
}

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64 primes.
constexpr std::uint32_t kK256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 §4.2.3: first 64 bits of the fractional parts of the cube roots of the first 80 primes.
constexpr std::uint64_t kK512[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

// Rotation amounts of Σ0, Σ1, σ0, σ1 (FIPS 180-4 §4.1.2 for 32-bit words, §4.1.3 for 64-bit words).
struct Sha256Shape {
  using Word = std::uint32_t;
  static constexpr int kRounds = 64;
  static constexpr const Word* K = kK256;
  static constexpr int S0[3] = {2, 13, 22}, S1[3] = {6, 11, 25}, s0[3] = {7, 18, 3}, s1[3] = {17, 19, 10};
};
struct Sha512Shape {
  using Word = std::uint64_t;
  static constexpr int kRounds = 80;
  static constexpr const Word* K = kK512;
  static constexpr int S0[3] = {28, 34, 39}, S1[3] = {14, 18, 41}, s0[3] = {1, 8, 7}, s1[3] = {19, 61, 6};
};

// §6.2.2 / §6.4.2 written plainly: the full message schedule, then the rounds with explicit renaming.
template <class Shape>
void sha2_compress(typename Shape::Word h[8], const std::uint8_t* block) noexcept {
  using W = typename Shape::Word;
  auto big_sigma = [](W x, const int* r) { return std::rotr(x, r[0]) ^ std::rotr(x, r[1]) ^ std::rotr(x, r[2]); };
  auto small_sigma = [](W x, const int* r) { return std::rotr(x, r[0]) ^ std::rotr(x, r[1]) ^ (x >> r[2]); };
  W w[Shape::kRounds];
  for (int t = 0; t < 16; ++t) w[t] = load_be<W>(block + t * sizeof(W));
  for (int t = 16; t < Shape::kRounds; ++t)
    w[t] = small_sigma(w[t - 2], Shape::s1) + w[t - 7] + small_sigma(w[t - 15], Shape::s0) + w[t - 16];
  W a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < Shape::kRounds; ++t) {
    W t1 = hh + big_sigma(e, Shape::S1) + ((e & f) ^ (~e & g)) + Shape::K[t] + w[t];
    W t2 = big_sigma(a, Shape::S0) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

}  // namespace

// §6.1.2, with f_t and K_t from §4.1.1 and §4.2.1.
void sha1_compress(std::uint32_t h[5], const std::uint8_t block[64]) noexcept {
  std::uint32_t w[80];
  for (int t = 0; t < 16; ++t) w[t] = load_be<std::uint32_t>(block + 4 * t);
  for (int t = 16; t < 80; ++t) w[t] = std::rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; ++t) {
    std::uint32_t f, k;
    if (t < 20) { f = (b & c) ^ (~b & d); k = 0x5a827999; }
    else if (t < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
    else if (t < 60) { f = (b & c) ^ (b & d) ^ (c & d); k = 0x8f1bbcdc; }
    else { f = b ^ c ^ d; k = 0xca62c1d6; }
    std::uint32_t tmp = std::rotl(a, 5) + f + e + k + w[t];
    e = d; d = c; c = std::rotl(b, 30); b = a; a = tmp;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

void sha256_compress(std::uint32_t h[8], const std::uint8_t block[64]) noexcept {
  sha2_compress<Sha256Shape>(h, block);
}

void sha512_compress(std::uint64_t h[8], const std::uint8_t block[128]) noexcept {
  sha2_compress<Sha512Shape>(h, block);
}

namespace {

// rc(t) of FIPS 202 §3.2.5 (Algorithm 5): the output bit of an LFSR with polynomial x^8 + x^6 + x^5 + x^4 + 1.
constexpr bool keccak_rc_bit(unsigned t) {
  if (t % 255 == 0) return true;
  unsigned r = 1;  // R = 10000000, bit k of r is R[k]
  for (unsigned i = 1; i <= t % 255; ++i) {
    r <<= 1;                              // R = 0 || R: R[8] is the bit shifted out of R[7]
    const bool r8 = (r >> 8) & 1;
    r &= 0xff;                            // Trunc8
    if (r8) r ^= 0x71;                    // R[0], R[4], R[5], R[6] ^= R[8]
  }
  return (r & 1) != 0;
}

// ι's round constant for round ir (§3.2.5, Algorithm 6): bit 2^j - 1 is rc(j + 7 ir), j = 0..6.
constexpr std::uint64_t keccak_round_constant(unsigned ir) {
  std::uint64_t rc = 0;
  for (unsigned j = 0; j <= 6; ++j)
    if (keccak_rc_bit(j + 7 * ir)) rc |= std::uint64_t{1} << ((1u << j) - 1);
  return rc;
}

struct KeccakTables {
  std::uint64_t round_constants[24];
  unsigned rho[25];  // rotation of lane x + 5y (§3.2.2, Algorithm 2)
};

constexpr KeccakTables make_keccak_tables() {
  KeccakTables t{};
  for (unsigned ir = 0; ir < 24; ++ir) t.round_constants[ir] = keccak_round_constant(ir);
  // ρ walks (x, y) from (1, 0) with (x, y) <- (y, 2x + 3y); lane t of the walk rotates by (t+1)(t+2)/2.
  unsigned x = 1, y = 0;
  for (unsigned step = 0; step < 24; ++step) {
    t.rho[x + 5 * y] = ((step + 1) * (step + 2) / 2) % 64;
    const unsigned nx = y, ny = (2 * x + 3 * y) % 5;
    x = nx;
    y = ny;
  }
  return t;
}
constexpr KeccakTables kKeccak = make_keccak_tables();
// Spot checks against the published values (FIPS 202 §3.2.5 / the Keccak reference): RC[0], RC[1], RC[23].
static_assert(kKeccak.round_constants[0] == 0x0000000000000001ull);
static_assert(kKeccak.round_constants[1] == 0x0000000000008082ull);
static_assert(kKeccak.round_constants[23] == 0x8000000080008008ull);
static_assert(kKeccak.rho[1] == 1 && kKeccak.rho[24] == 14);

}  // namespace

// Every loop fully unrolled, so that each index is a compile-time constant and the 25 lanes stay in registers:
// ten times faster under qemu-user than rolled loops, and the CPACF model runs one permutation per emulated
// block (docs/history.md §2).
void keccak_f1600(std::uint64_t lanes[25]) noexcept {
  std::uint64_t a[25];
  std::memcpy(a, lanes, sizeof a);
  for (unsigned round = 0; round < 24; ++round) {
    // θ (§3.2.1)
    std::uint64_t c[5], d[5];
#pragma GCC unroll 5
    for (unsigned x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (unsigned x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
#pragma GCC unroll 25
    for (unsigned i = 0; i < 25; ++i) a[i] ^= d[i % 5];
    // ρ and π (§3.2.2, §3.2.3): A'[x][y] = A[(x + 3y) mod 5][x], rotated by ρ of its source lane.
    std::uint64_t b[25];
#pragma GCC unroll 5
    for (unsigned x = 0; x < 5; ++x)
#pragma GCC unroll 5
      for (unsigned y = 0; y < 5; ++y) {
        const unsigned src = (x + 3 * y) % 5 + 5 * x;
        b[x + 5 * y] = std::rotl(a[src], static_cast<int>(kKeccak.rho[src]));
      }
    // χ (§3.2.4)
#pragma GCC unroll 5
    for (unsigned y = 0; y < 25; y += 5)
#pragma GCC unroll 5
      for (unsigned x = 0; x < 5; ++x) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
    // ι (§3.2.5)
    a[0] ^= kKeccak.round_constants[round];
  }
  std::memcpy(lanes, a, sizeof a);
}

}  // namespace shakedown::emul::detail
