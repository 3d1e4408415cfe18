// Keccak with CPACF: KIMD-SHA3 for the permutation and multi-block absorb, KLMD for one-shot SHA-3/SHAKE
// (MSA extension 6; docs/isa/cpacf.md §2.1.4; the shape follows linux lib/crypto/s390/sha3.h).
#include <cstring>
#include <functional>

#include "backend_rows.h"
#include "cpacf.h"
#include "internal/bytes.h"
#include "internal/generic.h"
#include "shakedown/cpu.h"

namespace shakedown::internal {
namespace {

static_assert(sizeof(std::uint64_t[25]) == cpacf::kKeccakStateBytes, "SHA-3 parameter block is 200 bytes");

// KIMD only absorbs (XOR a rate of bytes, then Keccak-f), so any function code with the right rate gives the
// same state. SHA3-256 is used for rate 136 rather than SHAKE256: it is one of the four codes Linux requires,
// and the SHAKE codes add nothing for absorbing. Rates: FIPS 202 §6.1, §6.2.
std::uint64_t kimd_function_for_rate(std::size_t rate) {
  switch (rate) {
    case 144: return cpacf::kSha3_224;
    case 136: return cpacf::kSha3_256;
    case 104: return cpacf::kSha3_384;
    case 72: return cpacf::kSha3_512;
    case 168: return cpacf::kShake128;
    default: return 0;
  }
}

// Bare Keccak-f[1600]: KIMD-SHA3-512 over one all-zero 72-byte block (XOR of zeros, then the permutation),
// as linux sha3_keccakf does (docs/isa/cpacf.md §2.1.9, last item).
void permute(std::uint64_t state[25]) {
  static constexpr std::uint8_t kZeroBlock[72] = {};
  std::uint64_t block[25];
  cpacf::lanes_to_block(state, block);
  cpacf::run<cpacf::kKimd>(cpacf::kSha3_512, block, kZeroBlock, sizeof kZeroBlock);
  cpacf::block_to_lanes(block, state);
  secure_zero(block, sizeof block);
}

void absorb(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate) {
  if (nblocks == 0) return;
  const std::uint64_t fc = kimd_function_for_rate(rate);
  if (fc == 0) {  // no CPACF function has this rate: XOR and permute (the framing never asks for one)
    for (std::size_t i = 0; i < nblocks; ++i) {
      keccak_xor_bytes(state, 0, data + i * rate, rate);
      permute(state);
    }
    return;
  }
  std::uint64_t block[25];
  cpacf::lanes_to_block(state, block);
  cpacf::run<cpacf::kKimd>(fc, block, data, nblocks * rate);
  cpacf::block_to_lanes(block, state);
  secure_zero(block, sizeof block);
}

// One-shot digest with KLMD (padding done by the instruction). With facility 86 (MSA12) the state is not
// initialised: NIP makes KLMD start from zero, and DUFOP is set with it as Linux does; otherwise the block is
// zeroed. The digest is the first bytes of the block (little-endian lanes = FIPS 202 byte order); SHAKE output
// goes straight to out through R1/R1+1.
bool digest(Algorithm alg, const std::uint8_t* data, std::size_t len, std::uint8_t* out, std::size_t outlen) {
  std::uint64_t fc;
  switch (alg) {
    case Algorithm::sha3_224: fc = cpacf::kSha3_224; break;
    case Algorithm::sha3_256: fc = cpacf::kSha3_256; break;
    case Algorithm::sha3_384: fc = cpacf::kSha3_384; break;
    case Algorithm::sha3_512: fc = cpacf::kSha3_512; break;
    case Algorithm::shake128: fc = cpacf::kShake128; break;
    case Algorithm::shake256: fc = cpacf::kShake256; break;
    default: return false;
  }
  const bool shake = alg == Algorithm::shake128 || alg == Algorithm::shake256;
  if (!shake && outlen > cpacf::kKeccakStateBytes) return false;
  // KLMD-SHAKE writes the output while it is an operand of the same instruction as the message: whether they may
  // overlap is not settled (docs/isa/cpacf.md §2.1.9), so an overlapping output goes the framing's way instead
  // (everything absorbed before anything is squeezed). Addresses compared with std::less: any two pointers.
  const std::less<const std::uint8_t*> before;
  if (shake && len != 0 && outlen != 0 && before(out, data + len) && before(data, out + outlen)) return false;
  alignas(8) std::uint8_t block[cpacf::kKeccakStateBytes];
  if (cpu_features().has(CpuFeature::s390_msa12))
    fc |= cpacf::kNoIcv | cpacf::kDufop;
  else
    std::memset(block, 0, sizeof block);
  if (shake) {
    cpacf::run<cpacf::kKlmd>(fc, block, data, len, out, outlen);
  } else {
    cpacf::run<cpacf::kKlmd>(fc, block, data, len);
    std::memcpy(out, block, outlen);
  }
  secure_zero(block, sizeof block);
  return true;
}

// The SHA-3 set is all-or-nothing in the query (cpu.cc): every function code of FIPS 202's six instances.
bool available(const CpuFeatures& f) { return f.has(CpuFeature::s390_sha3); }

}  // namespace

constinit const KeccakBackend rows::keccak_s390x_cpacf = {
    {"s390x/cpacf", "KIMD/KLMD SHA3-224..512 and SHAKE128/256 (MSA extension 6)", available, kBackendDefault},
    permute,
    absorb,
    digest};

}  // namespace shakedown::internal
