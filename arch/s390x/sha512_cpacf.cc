// SHA-512 with CPACF KIMD-SHA-512 (function code 3, MSA extension 2; docs/isa/cpacf.md §2.1.4).
#include "cpacf.h"
#include "backend_rows.h"

namespace shakedown::internal {

// The KIMD-SHA-512 parameter block is the 64-byte ICV as big-endian words H0..H7 (docs/isa/cpacf.md §2.1.6):
// on big-endian s390x that is exactly the library's native uint64_t h[8].
static_assert(sizeof(std::uint64_t[8]) == 64, "KIMD-SHA-512 parameter block is 64 bytes");

namespace {

void blocks(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  if (nblocks == 0) return;  // the seam: touch no memory
  cpacf::run<cpacf::kKimd>(cpacf::kSha512, h, data, nblocks * 128);
}

// KIMD and KLMD both list the function code (cpu.cc).
bool available(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha512); }

}  // namespace

constinit const Sha512Backend rows::sha512_s390x_cpacf = {
    {"s390x/cpacf", "KIMD/KLMD-SHA-512 (MSA extension 2)", available, kBackendDefault}, blocks};

}  // namespace shakedown::internal
