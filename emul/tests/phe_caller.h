// Hand-written PadLock callers for the model tests: the instruction bytes with every register in/out, and
// the FIPS 180-4 constants and padding the tests need to drive it without the library.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace shakedown::emul::test {

// Last byte of F3 0F A6 xx (docs/isa/padlock.md §1.1).
inline constexpr unsigned char kOpXsha1 = 0xc8, kOpXsha256 = 0xd0, kOpXsha384 = 0xd8, kOpXsha512 = 0xe0;
inline constexpr std::uint64_t kMultiBlock = ~std::uint64_t{0};

// Registers after the instruction.
struct PheOut {
  std::uint64_t rax, rcx;
  const std::uint8_t* rsi;
};

// Correct use: RAX, RCX, RSI in/out, RDI input, memory clobbered (docs/isa/padlock.md §1.5 item 9).
template <unsigned char Op>
inline PheOut rep_phe(std::uint64_t rax, std::uint64_t rcx, const void* rsi, void* rdi) {
  const std::uint8_t* src = static_cast<const std::uint8_t*>(rsi);
  __asm__ volatile(".byte 0xf3,0x0f,0xa6,%c[op]" : "+a"(rax), "+c"(rcx), "+S"(src) : "D"(rdi), [op] "i"(Op)
                   : "memory");
  return {rax, rcx, src};
}

// FIPS 180-4 §5.3.1 (SHA-1), §5.3.3 (SHA-256), §5.3.5 (SHA-512) initial hash values.
inline constexpr std::uint32_t kIvSha1[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
inline constexpr std::uint32_t kIvSha256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
inline constexpr std::uint64_t kIvSha512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                               0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                               0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// A 16-byte aligned 128-byte state buffer (the VIA size, docs/isa/padlock.md §1.2.4) with a sentinel after the state.
struct alignas(16) StateBuffer {
  std::uint8_t bytes[256];
  static constexpr std::uint8_t kSentinel = 0x5c;
  template <class Word, std::size_t N>
  explicit StateBuffer(const Word (&iv)[N]) {
    std::memset(bytes, kSentinel, sizeof bytes);
    std::memcpy(bytes, iv, sizeof iv);
  }
  // The digest: the first n native words written big-endian (what padlock_output_block's swab does).
  template <class Word>
  std::vector<std::uint8_t> digest(std::size_t words) const {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < words; ++i) {
      Word w;
      std::memcpy(&w, bytes + i * sizeof(Word), sizeof w);
      for (int b = sizeof(Word) - 1; b >= 0; --b) out.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    }
    return out;
  }
};
static_assert(alignof(StateBuffer) == 16);

// FIPS 180-4 §5.1.1 / §5.1.2: message || 0x80 || zeros || length (64-bit or 128-bit big-endian bit count).
inline std::vector<std::uint8_t> md_pad(const std::vector<std::uint8_t>& msg, std::size_t block) {
  const std::size_t length_bytes = block == 128 ? 16 : 8;
  std::vector<std::uint8_t> out = msg;
  out.push_back(0x80);
  while (out.size() % block != block - length_bytes) out.push_back(0);
  const std::uint64_t bits = static_cast<std::uint64_t>(msg.size()) * 8;
  for (std::size_t i = 0; i + 8 < length_bytes; ++i) out.push_back(0);
  for (int b = 7; b >= 0; --b) out.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
  return out;
}

// Deterministic message bytes that no hash produced.
inline std::vector<std::uint8_t> message(std::size_t len, std::uint32_t seed = 1) {
  std::vector<std::uint8_t> m(len);
  std::uint32_t x = seed * 2654435761u + 12345;
  for (auto& b : m) {
    x = x * 1103515245u + 12345;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return m;
}

}  // namespace shakedown::emul::test
