// SHA-512 with the RISC-V scalar crypto Zknh instructions (RV64 forms) for Σ0, Σ1, σ0, σ1.
#include "backend_rows.h"
#include "internal/sha2_compress.h"
#include "zknh.h"

namespace shakedown::internal {
namespace {

// The shared compression loop (sha2_compress.h) with FIPS 180-4 §4.1.3 (4.10)-(4.13) as single instructions.
struct Sha512ZknhTraits : Sha512Words {
  static Word Sigma0(Word x) { return zknh_sha512sum0(x); }
  static Word Sigma1(Word x) { return zknh_sha512sum1(x); }
  static Word sigma0(Word x) { return zknh_sha512sig0(x); }
  static Word sigma1(Word x) { return zknh_sha512sig1(x); }
};

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  Sha2Compress<Sha512ZknhTraits>::blocks_and_burn(h, data, nblocks);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::rv_zknh); }

}  // namespace

constinit const Sha512Backend rows::sha512_riscv64_zknh = {
    {"riscv64/zknh", "Zknh (scalar SHA-2)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
