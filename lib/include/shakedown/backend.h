// Backend rows, the three families as types, and registry introspection: every compiled backend is reachable by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/algorithm.h"
#include "shakedown/cpu.h"
#include "shakedown/error.h"
#include "shakedown/export.h"

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

// Optional multi-lane entry (docs/design.md "Many messages"): advances L independent states at once, state i over
// the nblocks blocks (SHA-2) or rate-byte blocks (Keccak: XOR, then permute) at data[i]. Every lane runs the same
// block count; all L states and data pointers are valid and distinct states do not overlap, but several lanes may
// read the same data (the framing fills an idle lane with a scratch state and a busy lane's data). nblocks may be
// 0 (must not touch memory then, not even the pointer arrays).
using Sha256MultiFn = void (*)(std::uint32_t* const h[], const std::uint8_t* const data[], std::size_t nblocks);
using Sha512MultiFn = void (*)(std::uint64_t* const h[], const std::uint8_t* const data[], std::size_t nblocks);
using KeccakMultiFn = void (*)(std::uint64_t* const state[], const std::uint8_t* const data[], std::size_t nblocks,
                               std::size_t rate);

// A row's multi-lane function, if it has one (lanes == 0: none; hash_many then runs the row's single-stream
// functions one message after another).
template <class Fn>
struct MultiLane {
  std::uint32_t lanes = 0;     // L >= 2 states per call
  std::uint32_t min_busy = 0;  // the fewest busy lanes for which one call beats the single-message code that
                               // would otherwise run (measured; the backend's file says where)
  Fn fn = nullptr;
  // Optional: the cores on which min_busy was measured to hold. Where it returns false the row's lanes run only
  // when the row is named or pinned, and hash_many() goes on to the rows after it (an instruction's speed relative
  // to another's differs between cores that both have them). Null: every core that can run the lanes.
  bool (*ahead_on)(const CpuFeatures&) = nullptr;
};

enum BackendFlags : std::uint32_t {
  kBackendDefault = 0,
  kBackendPinOnly = 1u << 0,   // never auto-selected; runs only when pinned (SHAKEDOWN_BACKENDS) or bound
  kBackendSelfTest = 1u << 1,  // must pass a known-answer test before it is first used
  kBackendManyOnly = 1u << 2,  // auto-selected only for hash_many(): placed early for its lanes, while a later
                               // row's single-message code is faster (it still serves single messages by name)
};

struct BackendInfo {
  std::string_view name;                  // "x86_64/shani"; "generic" for the portable code
  std::string_view needs;                 // human-readable requirement, shown when unavailable
  bool (*available)(const CpuFeatures&);  // pure predicate over the feature set
  std::uint32_t flags;
};

struct Sha256Backend {
  BackendInfo info;
  Sha256BlocksFn blocks;
  MultiLane<Sha256MultiFn> multi{};
};
struct Sha512Backend {
  BackendInfo info;
  Sha512BlocksFn blocks;
  MultiLane<Sha512MultiFn> multi{};
};
struct KeccakBackend {
  BackendInfo info;
  KeccakPermuteFn permute;
  KeccakAbsorbFn absorb;  // may be null
  KeccakDigestFn digest;  // may be null
  MultiLane<KeccakMultiFn> multi{};
};

// ---- The families as types: what is written once per family, used by the framing, the registry and the suites ----

template <Family F>
struct FamilyTraits;

// SHA-224/256: eight 32-bit words, 64-byte blocks (FIPS 180-4 §5.1.1, §6.2).
template <>
struct FamilyTraits<Family::sha256> {
  static constexpr Family kFamily = Family::sha256;
  using Word = std::uint32_t;
  using Backend = Sha256Backend;
  using MultiFn = Sha256MultiFn;
  static constexpr std::size_t kStateWords = 8;
  static constexpr std::size_t kBlockBytes = 64;
  static constexpr std::size_t kMaxLanes = 16;  // 16 x 32-bit words in a 512-bit register
};

// SHA-384/512/512-224/512-256: eight 64-bit words, 128-byte blocks (FIPS 180-4 §5.1.2, §6.4).
template <>
struct FamilyTraits<Family::sha512> {
  static constexpr Family kFamily = Family::sha512;
  using Word = std::uint64_t;
  using Backend = Sha512Backend;
  using MultiFn = Sha512MultiFn;
  static constexpr std::size_t kStateWords = 8;
  static constexpr std::size_t kBlockBytes = 128;
  static constexpr std::size_t kMaxLanes = 8;  // 8 x 64-bit words in a 512-bit register
};

// SHA-3/SHAKE: 25 64-bit lanes; the block is the rate, which the algorithm sets (FIPS 202 §3.1.2, §6).
template <>
struct FamilyTraits<Family::keccak> {
  static constexpr Family kFamily = Family::keccak;
  using Word = std::uint64_t;
  using Backend = KeccakBackend;
  using MultiFn = KeccakMultiFn;
  static constexpr std::size_t kStateWords = 25;
  static constexpr std::size_t kBlockBytes = 0;  // no fixed block: block_size(alg) is the rate
  static constexpr std::size_t kMaxLanes = 8;    // 8 x 64-bit lanes in a 512-bit register
};

template <Family F>
using BackendOf = typename FamilyTraits<F>::Backend;

// Calls fn(FamilyTraits<F>{}) for the family's F: the one place a Family value becomes a type.
// Errc::unknown_family for a value outside the enumeration.
template <class Fn>
decltype(auto) visit_family(Family family, Fn&& fn) {
  switch (family) {
    case Family::sha256: return fn(FamilyTraits<Family::sha256>{});
    case Family::sha512: return fn(FamilyTraits<Family::sha512>{});
    case Family::keccak: return fn(FamilyTraits<Family::keccak>{});
  }
  throw Error(Errc::unknown_family,
              "Family value " + std::to_string(static_cast<unsigned>(family)) + " is not a shakedown::Family");
}

// The compiled rows of a family in preference order, generic last (arch/<arch>/backends.cc).
// Raw rows: calling a row's functions yourself bypasses everything the registry enforces. Nothing checks that this
// CPU can execute it (call info.available first), runs its known-answer self-test (kBackendSelfTest), or honours
// SHAKEDOWN_BACKENDS pins and exclusions: a row an operator excluded because its instruction is suspect runs if you
// call it. Contexts (Hasher, Hmac, hash_many) and backend(name) with require_available are the checked ways in.
template <Family F>
SHAKEDOWN_API std::span<const BackendOf<F>> compiled_backends() noexcept;

// Lookup by name; throws Errc::unknown_backend (listing the known names) or, when require_available,
// Errc::backend_unavailable with the reason (a self-tested backend runs its known-answer test here first).
// backend(name, false) returns the raw row unchecked, with the caveats of compiled_backends(). A name binds
// even a backend SHAKEDOWN_BACKENDS excludes: an explicit bind is the caller's choice (as Hasher(alg, name)).
template <Family F>
SHAKEDOWN_API const BackendOf<F>& backend(std::string_view name, bool require_available = true);

struct BackendStatus {
  std::string name;
  Family family;
  bool available;         // the CPU supports it (and its self-test, once run, passed); a context may be bound to it
  bool selected;          // the default for new contexts of this family
  std::string reason;     // why unavailable / why not selected; empty for the selected backend
  std::size_t lanes = 0;  // its multi-lane function's lane count, 0 if it has none
  bool selected_many = false;  // hash_many() uses its lanes by default (from min_busy messages: no earlier row's
                               // lanes take that many first)
};

// All compiled backends of a family, in preference order. Throws Errc::bad_environment
// if SHAKEDOWN_BACKENDS is malformed.
SHAKEDOWN_API std::vector<BackendStatus> backends(Family family);
// Names of the available backends of a family (what tests iterate over).
SHAKEDOWN_API std::vector<std::string> available_backends(Family family);
// The default backend's name for the family (throws like backends()).
SHAKEDOWN_API std::string_view selected_backend(Family family);
// hash_many()'s first choice for the family (throws like backends()): the first usable row with a multi-lane
// function (the pinned one if SHAKEDOWN_BACKENDS pins the family), else selected_backend(family). A call with
// fewer messages than its min_busy takes the next such row whose min_busy it reaches, or selected_backend().
SHAKEDOWN_API std::string_view selected_many_backend(Family family);
// Validates SHAKEDOWN_BACKENDS now; throws Errc::bad_environment with a message naming the
// offending item. Applications call this at start-up to fail early.
SHAKEDOWN_API void check_environment();

}  // namespace shakedown
