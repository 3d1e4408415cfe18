// Block functions of the s390x CPACF backends, declared once for backends.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shakedown/algorithm.h"

namespace shakedown::internal {

// The seam of backend.h; each must only be called when its predicate in backends.cc holds.
void sha256_blocks_s390x_cpacf(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
void sha512_blocks_s390x_cpacf(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
void keccak_permute_s390x_cpacf(std::uint64_t state[25]);
void keccak_absorb_s390x_cpacf(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                               std::size_t rate);
bool keccak_digest_s390x_cpacf(Algorithm alg, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                               std::size_t outlen);

}  // namespace shakedown::internal
