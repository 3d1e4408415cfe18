// Test-side reference framing written from the specs (FIPS 180-4 §5.1, §6; FIPS 202 §B.1, §B.2).
#include "reference.h"

#include <cstring>
#include <stdexcept>

#include "shakedown/testing.h"

namespace shakedown::diff::ref {

std::vector<std::uint8_t> md_padding(std::uint64_t bytes_lo, std::uint64_t bytes_hi, std::size_t block) {
  const std::size_t length_field = block == 64 ? 8 : 16;  // §5.1.1: 64-bit l; §5.1.2: 128-bit l
  const unsigned __int128 bits = ((static_cast<unsigned __int128>(bytes_hi) << 64) | bytes_lo) * 8;
  // k zero bits with l + 1 + k = 448 mod 512 (or 896 mod 1024): in bytes, fill to block - field.
  const std::size_t used = static_cast<std::size_t>(bytes_lo % block);
  std::size_t total = block - used;
  if (total < 1 + length_field) total += block;
  std::vector<std::uint8_t> pad(total, 0);
  pad[0] = 0x80;
  for (std::size_t i = 0; i < length_field; ++i)
    pad[total - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
  return pad;
}

std::vector<std::uint8_t> md_padded(std::span<const std::uint8_t> msg, std::size_t block) {
  std::vector<std::uint8_t> out(msg.begin(), msg.end());
  auto pad = md_padding(msg.size(), 0, block);
  out.insert(out.end(), pad.begin(), pad.end());
  return out;
}

namespace {
template <class Word>
std::vector<std::uint8_t> serialize(const Word h[8], std::size_t outlen) {
  std::vector<std::uint8_t> out;
  for (int i = 0; i < 8; ++i)
    for (int b = sizeof(Word) - 1; b >= 0; --b) out.push_back(static_cast<std::uint8_t>(h[i] >> (8 * b)));
  out.resize(outlen);
  return out;
}

template <class State, class Word>
void read_chaining(const Hasher& ctx, Word h[8]) {
  auto raw = testing::raw_state(ctx);
  if (raw.size() < sizeof(State)) throw std::logic_error("raw_state smaller than the SHA-2 state");
  State s;
  std::memcpy(&s, raw.data(), sizeof s);
  std::memcpy(h, s.h, sizeof s.h);
}
}  // namespace

std::vector<std::uint8_t> md_digest(const std::uint32_t h[8], std::size_t outlen) { return serialize(h, outlen); }
std::vector<std::uint8_t> md_digest(const std::uint64_t h[8], std::size_t outlen) { return serialize(h, outlen); }

void chaining_value(const Hasher& ctx, std::uint32_t h[8]) { read_chaining<detail::Sha256State>(ctx, h); }
void chaining_value(const Hasher& ctx, std::uint64_t h[8]) { read_chaining<detail::Sha512State>(ctx, h); }

std::vector<std::uint8_t> sponge_padded(std::span<const std::uint8_t> msg, std::size_t rate, bool xof) {
  std::vector<std::uint8_t> out(msg.begin(), msg.end());
  out.push_back(xof ? 0x1f : 0x06);
  while (out.size() % rate) out.push_back(0);
  out.back() |= 0x80;
  return out;
}

void sponge_xor(std::uint64_t state[25], const std::uint8_t* block, std::size_t rate) {
  for (std::size_t j = 0; j < rate; ++j) state[j / 8] ^= static_cast<std::uint64_t>(block[j]) << (8 * (j % 8));
}

void sponge_extract(const std::uint64_t state[25], std::uint8_t* out, std::size_t len) {
  for (std::size_t j = 0; j < len; ++j) out[j] = static_cast<std::uint8_t>(state[j / 8] >> (8 * (j % 8)));
}

}  // namespace shakedown::diff::ref
