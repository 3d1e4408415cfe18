// Every intermediate value a hash or HMAC computation derives from its secret inputs, for dead-stack scans.
//
// Written from FIPS 180-4 §6.2.2 / §6.4.2 (SHA-2 rounds, message schedule) and FIPS 202 §3.2 (the five step
// mappings, round constants from the rc(t) LFSR), round by round, so that a spilled working variable,
// schedule word or Keccak lane of any round is recognised. Not the library's code: a trace, not a hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "shakedown/shakedown.h"

namespace shakedown::diff::trace {

// What a scan looks for. Words are matched at their natural alignment (4-byte words of SHA-256 at 4-byte
// offsets, 8-byte words at 8-byte offsets) in both byte orders; byte strings of 8 bytes at any offset.
class Secrets {
 public:
  void add_word32(std::uint32_t w, const std::string& what);
  void add_word64(std::uint64_t w, const std::string& what);
  // Every 8-byte window of the bytes (message or key material copied into buffers).
  void add_bytes(std::span<const std::uint8_t> bytes, const std::string& what);
  // Drops words handed to the caller on purpose (the digest, a squeezed lane).
  void drop_word32(std::uint32_t w);
  void drop_word64(std::uint64_t w);

  // The first secret found in `memory` (a description with its offset), or "" if none.
  std::string find_in(std::span<const std::uint8_t> memory) const;
  std::size_t size() const { return w32_.size() + w64_.size() + windows_.size(); }

 private:
  std::unordered_map<std::uint32_t, std::string> w32_;
  std::unordered_map<std::uint64_t, std::string> w64_;       // 8-byte words, aligned
  std::unordered_map<std::uint64_t, std::string> windows_;   // 8-byte windows, any offset
};

// The secrets of hashing `msg` with alg and, when output_public, without the output handed back (the final
// chaining value of SHA-2, the squeezed lanes of a sponge). Returns the output (digest or `outlen` SHAKE bytes).
std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> msg, std::size_t outlen,
                               bool output_public, Secrets& out);

// The secrets of HMAC(alg, key, msg) (FIPS 198-1 §4: key hashing, both keyed states, the inner digest);
// only the MAC itself is public. Returns the MAC.
std::vector<std::uint8_t> hmac(Algorithm alg, std::span<const std::uint8_t> key, std::span<const std::uint8_t> msg,
                               Secrets& out);

}  // namespace shakedown::diff::trace
