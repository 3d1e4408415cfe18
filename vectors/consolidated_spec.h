// Definition of the consolidated "hash of hashes" checksums, shared by the OpenSSL generator and the test.
//
// For an algorithm H and every length len = 0 .. 4096 (kMaxLength):
//   message(len)  = len bytes, byte i = (i * 31 + len) mod 256   (message_byte below)
//   output(len)   = H(message(len)): the digest for SHA-2 / SHA-3;
//                   for SHAKE128/256 the first (len mod 200) + 1 bytes of output (1..200 bytes,
//                   so every output length and both sides of the rate boundaries occur)
//   consolidated  = H(output(0) || output(1) || ... || output(4096)), for SHAKE 64 bytes of output.
// data/consolidated.txt lists "<name> <hex>" per algorithm. The definition uses no hash to build
// its inputs, so OpenSSL (make_consolidated.cc) and the library compute it independently.
// This header is self-contained on purpose: the generator must not link the library.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace shakedown::consolidated {

inline constexpr std::size_t kMaxLength = 4096;
inline constexpr std::size_t kShakeConsolidatedBytes = 64;

inline constexpr std::uint8_t message_byte(std::size_t len, std::size_t i) {
  return static_cast<std::uint8_t>((i * 31 + len) & 0xff);
}

inline constexpr std::size_t shake_output_bytes(std::size_t len) { return len % 200 + 1; }

struct Entry {
  std::string_view name;          // canonical shakedown name, as written in consolidated.txt
  std::string_view openssl_name;  // EVP digest name
  bool xof;
};

inline constexpr std::array<Entry, 12> kEntries = {{
    {"sha224", "SHA224", false},
    {"sha256", "SHA256", false},
    {"sha384", "SHA384", false},
    {"sha512", "SHA512", false},
    {"sha512-224", "SHA512-224", false},
    {"sha512-256", "SHA512-256", false},
    {"sha3-224", "SHA3-224", false},
    {"sha3-256", "SHA3-256", false},
    {"sha3-384", "SHA3-384", false},
    {"sha3-512", "SHA3-512", false},
    {"shake128", "SHAKE128", true},
    {"shake256", "SHAKE256", true},
}};

}  // namespace shakedown::consolidated
