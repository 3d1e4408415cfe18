// Portable SHA-256 compression: the FIPS 180-4 SHA-256 constants and functions for Sha2Compress.
#include "internal/generic.h"
#include "internal/sha2_compress.h"

namespace shakedown::internal {
namespace {

struct Sha256Traits : Sha256Words {
  static constexpr Word rotr(Word x, int n) { return (x >> n) | (x << (32 - n)); }
  // §4.1.2 (4.4)-(4.7).
  static constexpr Word Sigma0(Word x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
  static constexpr Word Sigma1(Word x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
  static constexpr Word sigma0(Word x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
  static constexpr Word sigma1(Word x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }
};

}  // namespace

void sha256_blocks_generic(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  Sha2Compress<Sha256Traits>::blocks_and_burn(h, data, nblocks);
}

constinit const Sha256Backend kSha256Generic = {{"generic", "nothing", always_available, kBackendDefault},
                                                sha256_blocks_generic};

}  // namespace shakedown::internal
