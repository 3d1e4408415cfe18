// SHA-512 with the RISC-V vector-crypto instructions (Zvknhb + Zvkb), at every VLEN from 128 to 1024.
#include "backend_rows.h"
#include "internal/sha2_constants.h"
#include "rv_features.h"
#include "vlenb.h"
#include "zvk_sha2.h"

namespace shakedown::internal {
namespace {

// SEW = 64 makes an element group 256 bits wide (EGW), and LMUL * VLEN must reach it (docs/isa/riscv-crypto.md §3.2.1): at
// VLEN = 128 one register holds only two elements, so the groups are register pairs (LMUL = 2); from
// VLEN = 256 on, one register holds the group (LMUL = 1). The code is the same for both (vl is 4 and all
// groups start at even registers), only vtype differs. vlenb (CSR 0xC22) = VLEN / 8 (RVV 1.0 §3.6).
unsigned long sha512_vtype() {
  constexpr unsigned long kEgwBytes = 4 * sizeof(std::uint64_t);
  return rvv::vtype(64, read_vlenb() >= kEgwBytes ? 1 : 2);
}

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  zvk_sha2_blocks(h, data, nblocks, kSha512K, 80, sha512_vtype());
}

// SHA-512 (SEW 64) is reserved under Zvknha alone.
bool available(const CpuFeatures& f) { return rv::vector_crypto_base(f) && f.has(CpuFeature::rv_zvknhb); }

}  // namespace

constinit const Sha512Backend rows::sha512_riscv64_zvknhb = {
    {"riscv64/zvknhb", "V with VLEN >= 128, Zvknhb and Zvkb", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
