// Round-by-round traces of SHA-2 (FIPS 180-4 §6.2.2, §6.4.2) and Keccak (FIPS 202 §3.2) that list every
// secret-derived value, for the dead-stack scans.
#include "secret_trace.h"

#include <bit>
#include <cstring>

#include "internal/sha2_constants.h"  // the round constants K (FIPS 180-4 §4.2.2, §4.2.3): data only
#include "reference.h"
#include "shakedown/hex.h"

namespace shakedown::diff::trace {
namespace {

// A word as its big-endian bytes in hex: all its digits, most significant first.
template <class Word>
std::string hex(Word w) {
  std::uint8_t bytes[sizeof(Word)];
  for (std::size_t i = 0; i < sizeof(Word); ++i)
    bytes[i] = static_cast<std::uint8_t>(w >> (8 * (sizeof(Word) - 1 - i)));
  return to_hex(bytes);
}

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// ---- SHA-2, FIPS 180-4 §4.1.2 / §4.1.3 functions and §6.2.2 / §6.4.2 rounds ----

template <class Word>
struct Sha2Params;
template <>
struct Sha2Params<std::uint32_t> {
  static constexpr int kRounds = 64;
  static constexpr int S0[3] = {2, 13, 22}, S1[3] = {6, 11, 25}, s0[3] = {7, 18, 3}, s1[3] = {17, 19, 10};
  static constexpr const std::uint32_t* K = internal::kSha256K;
};
template <>
struct Sha2Params<std::uint64_t> {
  static constexpr int kRounds = 80;
  static constexpr int S0[3] = {28, 34, 39}, S1[3] = {14, 18, 41}, s0[3] = {1, 8, 7}, s1[3] = {19, 61, 6};
  static constexpr const std::uint64_t* K = internal::kSha512K;
};

template <class Word>
void add_word(Secrets& s, Word w, const std::string& what) {
  if constexpr (sizeof(Word) == 4) s.add_word32(w, what);
  else s.add_word64(w, what);
}

// Compresses each block of `padded` into h, adding W_t, W_t + K_t, a..h after every round and H after every
// block to the secrets. The first `secret_bytes` of padded are the message; a schedule word made of padding
// only (0x80, zeros, the bit length) is public, and so is W_t + K_t then.
template <class Word>
void trace_md(Word h[8], std::span<const std::uint8_t> padded, std::size_t secret_bytes, const std::string& label,
              Secrets& out) {
  using P = Sha2Params<Word>;
  constexpr std::size_t kBlock = 16 * sizeof(Word);
  auto rotr = [](Word x, int n) { return std::rotr(x, n); };
  for (std::size_t off = 0; off < padded.size(); off += kBlock) {
    const std::string where = label + " block " + std::to_string(off / kBlock);
    Word w[80];
    for (int t = 0; t < 16; ++t) {
      Word v = 0;
      for (std::size_t b = 0; b < sizeof(Word); ++b) v = (v << 8) | padded[off + t * sizeof(Word) + b];
      w[t] = v;
    }
    for (int t = 16; t < P::kRounds; ++t) {
      const Word x = w[t - 15], y = w[t - 2];
      const Word sig0 = rotr(x, P::s0[0]) ^ rotr(x, P::s0[1]) ^ (x >> P::s0[2]);
      const Word sig1 = rotr(y, P::s1[0]) ^ rotr(y, P::s1[1]) ^ (y >> P::s1[2]);
      w[t] = sig1 + w[t - 7] + sig0 + w[t - 16];
    }
    Word a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < P::kRounds; ++t) {
      const bool public_word = t < 16 && off + t * sizeof(Word) >= secret_bytes;
      if (!public_word) {
        add_word(out, w[t], where + " W" + std::to_string(t));
        add_word(out, static_cast<Word>(w[t] + P::K[t]), where + " W+K" + std::to_string(t));
      }
      const Word big1 = rotr(e, P::S1[0]) ^ rotr(e, P::S1[1]) ^ rotr(e, P::S1[2]);
      const Word ch = (e & f) ^ (~e & g);
      const Word t1 = hh + big1 + ch + P::K[t] + w[t];
      const Word big0 = rotr(a, P::S0[0]) ^ rotr(a, P::S0[1]) ^ rotr(a, P::S0[2]);
      const Word maj = (a & b) ^ (a & c) ^ (b & c);
      const Word t2 = big0 + maj;
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
      add_word(out, a, where + " a after round " + std::to_string(t));
      add_word(out, e, where + " e after round " + std::to_string(t));
    }
    const Word work[8] = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; ++i) {
      h[i] += work[i];
      add_word(out, h[i], where + " H" + std::to_string(i));
    }
  }
}

template <class Word>
std::vector<std::uint8_t> hash_md(Algorithm alg, std::span<const std::uint8_t> msg, bool output_public,
                                  const std::string& label, Secrets& out) {
  Word h[8];
  ref::chaining_value(Hasher(alg, "generic"), h);  // the IV (FIPS 180-4 §5.3), public
  trace_md(h, ref::md_padded(msg, 16 * sizeof(Word)), msg.size(), label, out);
  if (output_public)
    for (Word w : h) {
      if constexpr (sizeof(Word) == 4) out.drop_word32(w);
      else out.drop_word64(w);
    }
  return ref::md_digest(h, digest_size(alg));
}

// ---- Keccak-p[1600,24], FIPS 202 §3.2.1-§3.2.5 ----

// rc(t) of §3.2.5 (Algorithm 5): the LFSR x^8 + x^6 + x^5 + x^4 + 1.
bool rc_bit(unsigned t) {
  if (t % 255 == 0) return true;
  unsigned r = 1;  // R = 10000000, bit i of R is bit i of r
  for (unsigned i = 1; i <= t % 255; ++i) {
    const unsigned r8 = r >> 7 & 1;  // R[8] after prepending 0 is the old R[7]
    r = (r << 1) & 0x1ff;
    r ^= r8 | r8 << 4 | r8 << 5 | r8 << 6;
    r &= 0xff;
  }
  return r & 1;
}

std::uint64_t round_constant(unsigned ir) {
  std::uint64_t rc = 0;
  for (unsigned j = 0; j <= 6; ++j)
    if (rc_bit(j + 7 * ir)) rc |= std::uint64_t{1} << ((1u << j) - 1);
  return rc;
}

void add_lanes(Secrets& out, const std::uint64_t a[25], const std::string& what) {
  for (int i = 0; i < 25; ++i) out.add_word64(a[i], what + " lane " + std::to_string(i));
}

void trace_permute(std::uint64_t a[25], const std::string& label, Secrets& out) {
  for (unsigned ir = 0; ir < 24; ++ir) {
    std::uint64_t c[5], d[5], b[25];
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];  // θ
    for (int x = 0; x < 5; ++x) {
      d[x] = c[(x + 4) % 5] ^ std::rotl(c[(x + 1) % 5], 1);
      out.add_word64(c[x], label + " theta C");
      out.add_word64(d[x], label + " theta D");
    }
    for (int i = 0; i < 25; ++i) a[i] ^= d[i % 5];
    int x = 1, y = 0;  // ρ (offsets (t+1)(t+2)/2 along the (x, y) walk) and π
    std::uint64_t rho[25];
    rho[0] = a[0];
    for (int t = 0; t < 24; ++t) {
      rho[x + 5 * y] = std::rotl(a[x + 5 * y], ((t + 1) * (t + 2) / 2) % 64);
      const int nx = y, ny = (2 * x + 3 * y) % 5;
      x = nx, y = ny;
    }
    for (int yy = 0; yy < 5; ++yy)
      for (int xx = 0; xx < 5; ++xx) b[xx + 5 * yy] = rho[(xx + 3 * yy) % 5 + 5 * xx];
    for (int yy = 0; yy < 5; ++yy)  // χ
      for (int xx = 0; xx < 5; ++xx)
        a[xx + 5 * yy] = b[xx + 5 * yy] ^ (~b[(xx + 1) % 5 + 5 * yy] & b[(xx + 2) % 5 + 5 * yy]);
    a[0] ^= round_constant(ir);  // ι
    add_lanes(out, b, label + " round " + std::to_string(ir) + " pi");
    add_lanes(out, a, label + " round " + std::to_string(ir));
  }
}

std::vector<std::uint8_t> hash_sponge(Algorithm alg, std::span<const std::uint8_t> msg, std::size_t outlen,
                                      bool output_public, const std::string& label, Secrets& out) {
  const std::size_t rate = block_size(alg);
  const auto padded = ref::sponge_padded(msg, rate, is_xof(alg));
  std::uint64_t a[25] = {};
  for (std::size_t off = 0; off < padded.size(); off += rate) {
    ref::sponge_xor(a, padded.data() + off, rate);
    add_lanes(out, a, label + " absorbed block " + std::to_string(off / rate));
    trace_permute(a, label + " permutation " + std::to_string(off / rate), out);
  }
  std::vector<std::uint8_t> output(outlen);
  for (std::size_t done = 0; done < outlen; done += rate) {
    if (done) trace_permute(a, label + " squeeze", out);
    const std::size_t take = std::min(rate, outlen - done);
    ref::sponge_extract(a, output.data() + done, take);
    if (output_public)  // the lanes that became output, and only those
      for (std::size_t lane = 0; lane * 8 < take; ++lane) out.drop_word64(a[lane]);
  }
  return output;
}

}  // namespace

void Secrets::add_word32(std::uint32_t w, const std::string& what) {
  // 0 and all-ones also fill memory for other reasons (cleared buffers, masks): no evidence either way.
  if (w == 0 || w == ~std::uint32_t{0}) return;
  w32_.emplace(w, what + " = " + hex(w));
  w32_.emplace(__builtin_bswap32(w), what + " = " + hex(w) + " (byte-swapped)");
}

void Secrets::add_word64(std::uint64_t w, const std::string& what) {
  if (w == 0 || w == ~std::uint64_t{0}) return;
  w64_.emplace(w, what + " = " + hex(w));
  w64_.emplace(__builtin_bswap64(w), what + " = " + hex(w) + " (byte-swapped)");
}

void Secrets::add_bytes(std::span<const std::uint8_t> bytes, const std::string& what) {
  for (std::size_t i = 0; i + 8 <= bytes.size(); ++i) {
    const std::uint64_t v = load_le64(bytes.data() + i);
    if (v != 0) windows_.emplace(v, what + " bytes " + std::to_string(i) + ".." + std::to_string(i + 7));
  }
}

void Secrets::drop_word32(std::uint32_t w) {
  w32_.erase(w);
  w32_.erase(__builtin_bswap32(w));
}

void Secrets::drop_word64(std::uint64_t w) {
  w64_.erase(w);
  w64_.erase(__builtin_bswap64(w));
}

std::string Secrets::find_in(std::span<const std::uint8_t> memory) const {
  for (std::size_t i = 0; i + 8 <= memory.size(); ++i) {
    std::uint32_t v32;
    std::uint64_t v64;
    std::memcpy(&v32, memory.data() + i, 4);
    std::memcpy(&v64, memory.data() + i, 8);
    const std::uint64_t window = load_le64(memory.data() + i);
    const std::string* hit = nullptr;
    if (auto it = windows_.find(window); it != windows_.end()) hit = &it->second;
    if (!hit && i % 8 == 0)
      if (auto it = w64_.find(v64); it != w64_.end()) hit = &it->second;
    if (!hit && i % 4 == 0)
      if (auto it = w32_.find(v32); it != w32_.end()) hit = &it->second;
    if (hit) return *hit + " at offset " + std::to_string(i);
  }
  return {};
}

std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> msg, std::size_t outlen,
                               bool output_public, Secrets& out) {
  const std::string label = std::string(name(alg)) + "(" + std::to_string(msg.size()) + " bytes)";
  out.add_bytes(msg, label + " message");
  switch (family_of(alg)) {
    case Family::sha256: return hash_md<std::uint32_t>(alg, msg, output_public, label, out);
    case Family::sha512: return hash_md<std::uint64_t>(alg, msg, output_public, label, out);
    case Family::keccak: return hash_sponge(alg, msg, outlen, output_public, label, out);
  }
  return {};
}

std::vector<std::uint8_t> hmac(Algorithm alg, std::span<const std::uint8_t> key, std::span<const std::uint8_t> msg,
                               Secrets& out) {
  const std::size_t B = block_size(alg), L = digest_size(alg);
  out.add_bytes(key, "HMAC key");
  std::vector<std::uint8_t> k0(key.begin(), key.end());  // FIPS 198-1 §4 steps 1-3
  if (k0.size() > B) k0 = hash(alg, key, L, false, out);
  k0.resize(B, 0);
  std::vector<std::uint8_t> inner(k0), outer(k0);
  for (std::size_t i = 0; i < B; ++i) inner[i] ^= 0x36, outer[i] ^= 0x5c;
  out.add_bytes(inner, "K0 ^ ipad");
  out.add_bytes(outer, "K0 ^ opad");
  inner.insert(inner.end(), msg.begin(), msg.end());
  const auto inner_digest = hash(alg, inner, L, false, out);  // secret: it is hashed again under the key
  outer.insert(outer.end(), inner_digest.begin(), inner_digest.end());
  return hash(alg, outer, L, true, out);
}

}  // namespace shakedown::diff::trace
