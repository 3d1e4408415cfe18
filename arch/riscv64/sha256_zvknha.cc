// SHA-256 with the RISC-V vector-crypto instructions (Zvknha or Zvknhb, plus Zvkb for vrev8), VLEN >= 128.
#include "backend_rows.h"
#include "internal/sha2_constants.h"
#include "rv_features.h"
#include "zvk_sha2.h"

namespace shakedown::internal {
namespace {

// SEW = 32 gives EGW = 128 bits, so LMUL = 1 suffices at every VLEN >= 128 (docs/isa/riscv-crypto.md §3.2.1).
void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  zvk_sha2_blocks(h, data, nblocks, kSha256K, 64, rvv::vtype(32, 1));
}

// SHA-256 (SEW 32) is in Zvknha and in Zvknhb (its superset).
bool available(const CpuFeatures& f) {
  return rv::vector_crypto_base(f) && (f.has(CpuFeature::rv_zvknha) || f.has(CpuFeature::rv_zvknhb));
}

}  // namespace

constinit const Sha256Backend rows::sha256_riscv64_zvknha = {
    {"riscv64/zvknha", "V with VLEN >= 128, Zvknha or Zvknhb, and Zvkb", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
