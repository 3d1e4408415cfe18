// Keccak-p[1600,24] for x86-64 with BMI1/BMI2: the state lives in registers, ANDN does χ, RORX does ρ.
//
// The permutation (keccak_x86.h) is compiled for BMI1 and BMI2 (x86_target.h).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend_rows.h"
#include "internal/bytes.h"
#include "internal/keccak_constants.h"
#include "internal/stack_burn.h"
#include "x86_target.h"

SHAKEDOWN_X86_TARGET_BEGIN("bmi,bmi2")
#include "keccak_x86.h"
SHAKEDOWN_X86_TARGET_END

namespace shakedown::internal {
namespace {

// andn (BMI1) and rorx (BMI2); the permutation is scalar, so no OS vector-state requirement.
bool available(const CpuFeatures& f) { return f.has(CpuFeature::x86_bmi1) && f.has(CpuFeature::x86_bmi2); }

}  // namespace

constinit const KeccakBackend rows::keccak_x86_64_bmi2 = {
    {"x86_64/bmi2", "BMI1 and BMI2 (ANDN, RORX)", available, kBackendDefault}, keccak_x86_permute_seam,
    keccak_x86_absorb_seam, nullptr};

}  // namespace shakedown::internal
