// Portable SHA-512 compression: the FIPS 180-4 SHA-512 constants and functions for Sha2Compress.
#include "internal/generic.h"
#include "internal/sha2_compress.h"

namespace shakedown::internal {
namespace {

struct Sha512Traits : Sha512Words {
  static constexpr Word rotr(Word x, int n) { return (x >> n) | (x << (64 - n)); }
  // §4.1.3 (4.10)-(4.13).
  static constexpr Word Sigma0(Word x) { return rotr(x, 28) ^ rotr(x, 34) ^ rotr(x, 39); }
  static constexpr Word Sigma1(Word x) { return rotr(x, 14) ^ rotr(x, 18) ^ rotr(x, 41); }
  static constexpr Word sigma0(Word x) { return rotr(x, 1) ^ rotr(x, 8) ^ (x >> 7); }
  static constexpr Word sigma1(Word x) { return rotr(x, 19) ^ rotr(x, 61) ^ (x >> 6); }
};

}  // namespace

void sha512_blocks_generic(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  Sha2Compress<Sha512Traits>::blocks_and_burn(h, data, nblocks);
}

constinit const Sha512Backend kSha512Generic = {{"generic", "nothing", always_available, kBackendDefault},
                                                sha512_blocks_generic};

}  // namespace shakedown::internal
