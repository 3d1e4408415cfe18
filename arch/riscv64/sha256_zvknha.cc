// SHA-256 with the RISC-V vector-crypto instructions (Zvknha or Zvknhb, plus Zvkb for vrev8), VLEN >= 128.
#include "internal/sha2_constants.h"
#include "riscv64_backends.h"
#include "zvk_sha2.h"

namespace shakedown::internal {

// SEW = 32 gives EGW = 128 bits, so LMUL = 1 suffices at every VLEN >= 128 (docs/isa/riscv-crypto.md §3.2.1).
void sha256_blocks_riscv64_zvknha(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  zvk_sha2_blocks(h, data, nblocks, kSha256K, 64, rvv::vtype(32, 1));
}

}  // namespace shakedown::internal
