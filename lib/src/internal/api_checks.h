// The argument checks and row lookups of the hashing API (hash.cc, hash_many.cc): one wording for every refusal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "internal/algorithm_spec.h"
#include "internal/registry.h"
#include "shakedown/backend.h"
#include "shakedown/error.h"

namespace shakedown::internal {

// Every row starts with its BackendInfo, so a row's address is its BackendInfo's (standard layout, first member):
// Hasher keeps that family-independent handle and recovers the typed row from the algorithm's family.
static_assert(std::is_standard_layout_v<Sha256Backend> && offsetof(Sha256Backend, info) == 0);
static_assert(std::is_standard_layout_v<Sha512Backend> && offsetof(Sha512Backend, info) == 0);
static_assert(std::is_standard_layout_v<KeccakBackend> && offsetof(KeccakBackend, info) == 0);

template <Family F>
const BackendOf<F>& row_of(const BackendInfo* info) {
  return *reinterpret_cast<const BackendOf<F>*>(info);
}

// The message is built only when thrown: this runs on every update().
inline void check_pointer(const void* p, std::size_t len, std::string_view what) {
  if (p == nullptr && len != 0) [[unlikely]]
    throw Error(Errc::null_pointer, std::string(what) + " is null with length " + std::to_string(len));
}

inline void check_output_length(const AlgorithmSpec& spec, std::size_t len) {
  if (!spec.xof && len != spec.digest) [[unlikely]]
    throw Error(Errc::bad_output_length, std::string(spec.name) + " produces " + std::to_string(spec.digest) +
                                             " bytes; " + std::to_string(len) + " requested");
}
inline void check_output_length(Algorithm alg, std::size_t len) { check_output_length(spec(alg), len); }

// The std::vector conveniences: an output that cannot be allocated (SIZE_MAX from SHAKE, say) is an
// Error with a code like every other refusal, not std::length_error or std::bad_alloc.
inline std::vector<std::uint8_t> output_buffer(Algorithm alg, std::size_t len) {
  check_output_length(alg, len);
  try {
    return std::vector<std::uint8_t>(len);
  } catch (const std::exception&) {  // std::length_error, std::bad_alloc
    throw Error(Errc::bad_output_length, "cannot allocate " + std::to_string(len) + " bytes of " +
                                             std::string(name(alg)) + " output; squeeze it in parts");
  }
}

[[noreturn]] inline void throw_too_long(Algorithm alg) {
  throw Error(Errc::message_too_long,
              "message exceeds the " + std::string(name(alg)) + " length limit (FIPS 180-4 §1)");
}

}  // namespace shakedown::internal
