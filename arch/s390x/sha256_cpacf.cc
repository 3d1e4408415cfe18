// SHA-256 with CPACF KIMD-SHA-256 (function code 2, MSA extension 1; docs/isa/cpacf.md §2.1.4).
#include "cpacf.h"
#include "backend_rows.h"

namespace shakedown::internal {

// The KIMD-SHA-256 parameter block is the 32-byte ICV as big-endian words H0..H7 (docs/isa/cpacf.md §2.1.6):
// on big-endian s390x that is exactly the library's native uint32_t h[8].
static_assert(sizeof(std::uint32_t[8]) == 32, "KIMD-SHA-256 parameter block is 32 bytes");

namespace {

void blocks(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  cpacf::run<cpacf::kKimd>(cpacf::kSha256, h, data, nblocks * 64);
}

// KIMD and KLMD both list the function code (cpu.cc).
bool available(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha256); }

}  // namespace

constinit const Sha256Backend rows::sha256_s390x_cpacf = {
    {"s390x/cpacf", "KIMD/KLMD-SHA-256 (MSA extension 1)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
