// Backend tables and registry introspection: every compiled backend is reachable by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/algorithm.h"
#include "shakedown/cpu.h"

namespace shakedown {

// The seam (docs/design.md): arch code only ever provides these functions. State words are
// native-endian; data is the raw message. nblocks may be 0 (must not touch memory then).
using Sha256BlocksFn = void (*)(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks);
using Sha512BlocksFn = void (*)(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks);
// Keccak-p[1600,24] on 25 lanes, lane i = A[x][y] with i = x + 5y (FIPS 202 §3.1.2).
using KeccakPermuteFn = void (*)(std::uint64_t state[25]);
// Optional fast path: XOR nblocks * rate bytes into the state, permuting after each block.
using KeccakAbsorbFn = void (*)(std::uint64_t state[25], const std::uint8_t* data, std::size_t nblocks,
                                std::size_t rate);
// Optional one-shot hook (CPACF KLMD with NIP). Returns false to decline; then the
// framing computes the digest with permute/absorb.
using KeccakDigestFn = bool (*)(Algorithm alg, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                                std::size_t outlen);

enum BackendFlags : std::uint32_t {
  kBackendDefault = 0,
  kBackendPinOnly = 1u << 0,   // never auto-selected; runs only when pinned (SHAKEDOWN_BACKENDS) or bound
  kBackendSelfTest = 1u << 1,  // must pass a known-answer test before it is selected
};

struct BackendInfo {
  std::string_view name;                              // "x86_64/shani"; "generic" for the portable code
  std::string_view needs;                             // human-readable requirement, shown when unavailable
  bool (*available)(const CpuFeatures&);              // pure predicate over the feature set
  std::uint32_t flags;
};

struct Sha256Backend {
  BackendInfo info;
  Sha256BlocksFn blocks;
};
struct Sha512Backend {
  BackendInfo info;
  Sha512BlocksFn blocks;
};
struct KeccakBackend {
  BackendInfo info;
  KeccakPermuteFn permute;
  KeccakAbsorbFn absorb;  // may be null
  KeccakDigestFn digest;  // may be null
};

// The compiled tables in preference order, generic last (arch/<arch>/backends.cc).
std::span<const Sha256Backend> sha256_backends() noexcept;
std::span<const Sha512Backend> sha512_backends() noexcept;
std::span<const KeccakBackend> keccak_backends() noexcept;

// Lookup by name; throws Errc::unknown_backend (listing the known names) or, when
// require_available, Errc::backend_unavailable with the reason.
const Sha256Backend& sha256_backend(std::string_view name, bool require_available = true);
const Sha512Backend& sha512_backend(std::string_view name, bool require_available = true);
const KeccakBackend& keccak_backend(std::string_view name, bool require_available = true);

struct BackendStatus {
  std::string name;
  Family family;
  bool available;     // the CPU supports it (and its self-test passed); a context may be bound to it
  bool selected;      // the default for new contexts of this family
  std::string reason; // why unavailable / why not selected; empty for the selected backend
};

// All compiled backends of a family, in preference order. Throws Errc::bad_environment
// if SHAKEDOWN_BACKENDS is malformed.
std::vector<BackendStatus> backends(Family family);
// Names of the available backends of a family (what tests iterate over).
std::vector<std::string> available_backends(Family family);
// The default backend's name for the family (throws like backends()).
std::string_view selected_backend(Family family);
// Validates SHAKEDOWN_BACKENDS now; throws Errc::bad_environment with a message naming the
// offending item. Applications call this at start-up to fail early.
void check_environment();

}  // namespace shakedown
