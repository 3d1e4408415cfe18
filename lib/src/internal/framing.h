// Message framing written once: SHA-2 buffering, padding and counters; the Keccak sponge; Framing<F> per family.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "internal/algorithm_spec.h"
#include "internal/bytes.h"
#include "internal/generic.h"
#include "shakedown/backend.h"
#include "shakedown/hash.h"

namespace shakedown::internal {

// ---- SHA-2 (FIPS 180-4 §5.1 padding, §5.3 initial values) ----

// What the framing adds to FamilyTraits for the two Merkle-Damgard families: the length field and its limit.
template <class State>
struct MdTraits;
template <>
struct MdTraits<detail::Sha256State> : FamilyTraits<Family::sha256> {
  static constexpr std::size_t kBlock = kBlockBytes;
  static constexpr std::size_t kLengthBytes = 8;                 // §5.1.1: 64-bit length field
  static constexpr std::uint64_t kMaxBytesLo = (1ull << 61) - 1;  // §1: message < 2^64 bits
  static void store(std::uint8_t* p, Word w) { store_be32(p, w); }
};
template <>
struct MdTraits<detail::Sha512State> : FamilyTraits<Family::sha512> {
  static constexpr std::size_t kBlock = kBlockBytes;
  static constexpr std::size_t kLengthBytes = 16;  // §5.1.2: 128-bit length field
  static void store(std::uint8_t* p, Word w) { store_be64(p, w); }
};
// md_final pads in place after hashing at most one buffered block, which needs room for two.
static_assert(sizeof(detail::Sha256State::buf) == 2 * MdTraits<detail::Sha256State>::kBlock);
static_assert(sizeof(detail::Sha512State::buf) == 2 * MdTraits<detail::Sha512State>::kBlock);

template <class State>
void md_init(State& s, const typename MdTraits<State>::Word* iv) noexcept {
  std::memcpy(s.h, iv, sizeof s.h);
  s.bytes_lo = 0;
  s.bytes_hi = 0;
  s.buflen = 0;
}

// Adds len to the byte counter; false if the message would exceed the algorithm's limit.
template <class State>
bool md_count(State& s, std::size_t len) noexcept {
  std::uint64_t lo = s.bytes_lo + len;
  std::uint64_t hi = s.bytes_hi + (lo < s.bytes_lo);
  if constexpr (MdTraits<State>::kLengthBytes == 8) {
    if (hi != 0 || lo > MdTraits<State>::kMaxBytesLo) return false;
  } else {
    if (hi >> 61) return false;  // bit length must stay below 2^128
  }
  s.bytes_lo = lo;
  s.bytes_hi = hi;
  return true;
}

// Copies less than the buffer into it. The empty asm hides the bound that gcc can prove (n < buffer): with
// it, gcc expands the copy into a loop of 8-byte moves whose exit mispredicts whenever the update size makes the
// length vary (100-byte updates into 64- or 128-byte blocks); the C library's copy uses a few overlapping vector
// moves instead (bench/: sha512-upd100).
inline void copy_partial_block(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  __asm__("" : "+r"(n));
  std::memcpy(dst, src, n);
}

// Buffered bytes wait until the buffer holds all its blocks (kMdBufferBlocks), which go to the block function in
// one call; whole blocks of the data that follow go straight from the caller's memory, and less than a block of
// it is kept.
template <class State, class Backend>
void md_update(State& s, const Backend& be, const std::uint8_t* data, std::size_t len) noexcept {
  constexpr std::size_t B = MdTraits<State>::kBlock;
  constexpr std::size_t C = sizeof s.buf;
  if (s.buflen) {
    std::size_t take = C - s.buflen < len ? C - s.buflen : len;
    copy_partial_block(s.buf + s.buflen, data, take);
    s.buflen += static_cast<std::uint32_t>(take);
    data += take;
    len -= take;
    if (s.buflen < C) return;
    be.blocks(s.h, s.buf, C / B);
    s.buflen = 0;
  }
  if (std::size_t n = len / B) {
    be.blocks(s.h, data, n);
    data += n * B;
    len -= n * B;
  }
  if (len) {
    copy_partial_block(s.buf, data, len);
    s.buflen = static_cast<std::uint32_t>(len);
  }
}

// Pads (0x80, zeros, big-endian bit length) and writes the first outlen bytes of the
// big-endian chaining value. Leaves the state dirty: callers zeroize.
// The padded tail (buffered bytes, 0x80, zeros, length field) is one to three blocks. It goes to the block
// function in one call when it fits the two-block buffer; a third block is needed only when the buffer is all but
// full, so its first block is all message bytes and goes first.
template <class State, class Backend>
void md_final(State& s, const Backend& be, std::uint8_t* out, std::size_t outlen) noexcept {
  using T = MdTraits<State>;
  constexpr std::size_t B = T::kBlock;
  constexpr std::size_t C = sizeof s.buf;
  s.buf[s.buflen++] = 0x80;
  std::size_t end = (s.buflen + T::kLengthBytes + B - 1) / B * B;
  if (end > C) {
    be.blocks(s.h, s.buf, 1);
    std::memmove(s.buf, s.buf + B, s.buflen - B);
    s.buflen -= B;
    end -= B;
  }
  std::memset(s.buf + s.buflen, 0, end - 8 - s.buflen);
  // Bit length = bytes * 8 over the 64- or 128-bit field.
  if constexpr (T::kLengthBytes == 16) store_be64(s.buf + end - 16, (s.bytes_hi << 3) | (s.bytes_lo >> 61));
  store_be64(s.buf + end - 8, s.bytes_lo << 3);
  be.blocks(s.h, s.buf, end / B);
  std::uint8_t full[8 * sizeof(typename T::Word)];
  for (int i = 0; i < 8; ++i) T::store(full + i * sizeof(typename T::Word), s.h[i]);
  std::memcpy(out, full, outlen);
  secure_zero(full, sizeof full);
}

// Hashes the whole blocks a context has buffered, leaving less than a block: where a prefix context's state
// starts the lanes of hash_many(), which carry at most a partial block (lanes.h).
template <class State, class Backend>
void md_flush_whole_blocks(State& s, const Backend& be) noexcept {
  constexpr std::size_t B = MdTraits<State>::kBlock;
  if (s.buflen < B) return;
  be.blocks(s.h, s.buf, s.buflen / B);
  std::memmove(s.buf, s.buf + s.buflen / B * B, s.buflen % B);
  s.buflen %= B;
}

// ---- Keccak sponge (FIPS 202 §4, §6) ----

inline void keccak_init(detail::KeccakState& s, std::size_t rate, std::uint8_t domain) noexcept {
  std::memset(s.lanes, 0, sizeof s.lanes);
  s.rate = static_cast<std::uint32_t>(rate);
  s.pos = 0;
  s.domain = domain;
}

inline void keccak_absorb(detail::KeccakState& s, const KeccakBackend& be, const std::uint8_t* data,
                          std::size_t len) noexcept {
  const std::size_t rate = s.rate;
  if (s.pos) {
    std::size_t take = rate - s.pos < len ? rate - s.pos : len;
    keccak_xor_bytes(s.lanes, s.pos, data, take);
    s.pos += static_cast<std::uint32_t>(take);
    data += take;
    len -= take;
    if (s.pos < rate) return;
    be.permute(s.lanes);
    s.pos = 0;
  }
  if (std::size_t n = len / rate) {
    if (be.absorb) {
      be.absorb(s.lanes, data, n, rate);
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        keccak_xor_bytes(s.lanes, 0, data + i * rate, rate);
        be.permute(s.lanes);
      }
    }
    data += n * rate;
    len -= n * rate;
  }
  if (len) {
    keccak_xor_bytes(s.lanes, 0, data, len);
    s.pos = static_cast<std::uint32_t>(len);
  }
}

// Domain bits + pad10*1 (FIPS 202 §5.1, Table 6 of §B.2), then the first permutation.
inline void keccak_pad(detail::KeccakState& s, const KeccakBackend& be) noexcept {
  const std::uint8_t first = s.domain, last = 0x80;
  keccak_xor_bytes(s.lanes, s.pos, &first, 1);
  keccak_xor_bytes(s.lanes, s.rate - 1, &last, 1);
  be.permute(s.lanes);
  s.pos = 0;
}

// Output; pos == rate means the block is used up and the next byte needs a permutation.
inline void keccak_squeeze(detail::KeccakState& s, const KeccakBackend& be, std::uint8_t* out,
                           std::size_t len) noexcept {
  while (len) {
    if (s.pos == s.rate) {
      be.permute(s.lanes);
      s.pos = 0;
    }
    std::size_t take = s.rate - s.pos < len ? s.rate - s.pos : len;
    keccak_extract_bytes(s.lanes, s.pos, out, take);
    s.pos += static_cast<std::uint32_t>(take);
    out += take;
    len -= take;
  }
}

// ---- Framing<F>: the family's operations under one set of names, for Hasher and the one-shot path ----
//
//   init(state, spec)                      the empty message of the algorithm
//   absorb(state, backend, data, len)      false if the message would exceed the algorithm's limit
//   finish(state, backend, out, outlen)    pad and write the first outlen output bytes (fixed digests; the
//                                          sponge's first squeeze); leaves the state dirty: callers zeroize

template <class State>
struct MdFraming {
  using Word = typename MdTraits<State>::Word;
  static void init(State& s, const AlgorithmSpec& spec) noexcept { md_init(s, initial_value<Word>(spec)); }
  template <class Backend>
  static bool absorb(State& s, const Backend& be, const std::uint8_t* data, std::size_t len) noexcept {
    if (!md_count(s, len)) return false;
    md_update(s, be, data, len);
    return true;
  }
  template <class Backend>
  static void finish(State& s, const Backend& be, std::uint8_t* out, std::size_t outlen) noexcept {
    md_final(s, be, out, outlen);
  }
};

struct SpongeFraming {
  static void init(detail::KeccakState& s, const AlgorithmSpec& spec) noexcept {
    keccak_init(s, spec.block, spec.domain);
  }
  static bool absorb(detail::KeccakState& s, const KeccakBackend& be, const std::uint8_t* data,
                     std::size_t len) noexcept {
    keccak_absorb(s, be, data, len);
    return true;  // FIPS 202 sets no length limit
  }
  static void finish(detail::KeccakState& s, const KeccakBackend& be, std::uint8_t* out, std::size_t outlen) noexcept {
    keccak_pad(s, be);
    keccak_squeeze(s, be, out, outlen);
  }
};

template <Family F>
struct Framing;
template <>
struct Framing<Family::sha256> : MdFraming<detail::Sha256State> {};
template <>
struct Framing<Family::sha512> : MdFraming<detail::Sha512State> {};
template <>
struct Framing<Family::keccak> : SpongeFraming {};

}  // namespace shakedown::internal
