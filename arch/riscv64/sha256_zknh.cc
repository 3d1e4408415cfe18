// SHA-256 with the RISC-V scalar crypto Zknh instructions for Σ0, Σ1, σ0, σ1 (runs natively in qemu zknh=true).
#include "backend_rows.h"
#include "internal/sha2_compress.h"
#include "zknh.h"

namespace shakedown::internal {
namespace {

// The shared compression loop (sha2_compress.h) with the four functions of FIPS 180-4 §4.1.2 (4.4)-(4.7)
// as sha256sum0/sum1/sig0/sig1; the truncation drops the sign extension of the RV64 forms.
struct Sha256ZknhTraits : Sha256Words {
  static Word Sigma0(Word x) { return static_cast<Word>(zknh_sha256sum0(x)); }
  static Word Sigma1(Word x) { return static_cast<Word>(zknh_sha256sum1(x)); }
  static Word sigma0(Word x) { return static_cast<Word>(zknh_sha256sig0(x)); }
  static Word sigma1(Word x) { return static_cast<Word>(zknh_sha256sig1(x)); }
};

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  Sha2Compress<Sha256ZknhTraits>::blocks_and_burn(h, data, nblocks);
}

bool available(const CpuFeatures& f) { return f.has(CpuFeature::rv_zknh); }

}  // namespace

constinit const Sha256Backend rows::sha256_riscv64_zknh = {
    {"riscv64/zknh", "Zknh (scalar SHA-2)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
