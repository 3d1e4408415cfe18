// What each arch/<arch>/ folder provides to the registry: detection and the ordered backend rows.
#pragma once

#include <iterator>
#include <span>

#include "shakedown/backend.h"
#include "shakedown/cpu.h"

namespace shakedown::internal {

// Fills the features of the running CPU (arch/<arch>/cpu.cc). Runs once per process.
void detect_cpu_features(CpuFeatures& features);

// The rows of a family in preference order, generic last (arch/<arch>/backends.cc is the only place the order
// is written; each row is defined in its backend's own file).
template <Family F>
std::span<const BackendOf<F>* const> arch_rows() noexcept;

// Defines arch_rows<F>() from the three lists of an arch's backends.cc, after checking that each lists every row
// this build compiled (backend_rows.h counts them) plus the generic one.
#define SHAKEDOWN_ARCH_ROWS(sha256_rows, sha512_rows, keccak_rows)                                                            \
  static_assert(std::size(sha256_rows) == SHAKEDOWN_ROWS_COMPILED_sha256 + 1, "list every compiled sha256 row");   \
  static_assert(std::size(sha512_rows) == SHAKEDOWN_ROWS_COMPILED_sha512 + 1, "list every compiled sha512 row");   \
  static_assert(std::size(keccak_rows) == SHAKEDOWN_ROWS_COMPILED_keccak + 1, "list every compiled keccak row");   \
  template <>                                                                                                  \
  std::span<const Sha256Backend* const> arch_rows<Family::sha256>() noexcept {                                 \
    return sha256_rows;                                                                                             \
  }                                                                                                            \
  template <>                                                                                                  \
  std::span<const Sha512Backend* const> arch_rows<Family::sha512>() noexcept {                                 \
    return sha512_rows;                                                                                             \
  }                                                                                                            \
  template <>                                                                                                  \
  std::span<const KeccakBackend* const> arch_rows<Family::keccak>() noexcept {                                 \
    return keccak_rows;                                                                                             \
  }

}  // namespace shakedown::internal
