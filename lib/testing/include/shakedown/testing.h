// Test-only hooks: feature overrides for emulated backends, re-selection, forged counters.
// Applications must not use these; the verification suites, fuzzers and tools do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shakedown/cpu.h"
#include "shakedown/hash.h"

namespace shakedown::testing {

// Adds features to the detected set and re-runs selection. The text is a comma-separated
// list of feature names (feature_name), "vendor=<string>", "family=<n>", "vlen=<bits>",
// or a preset:
//   zhaoxin-phe   vendor "  Shanghai  ", family 7, phe, phe_en, phe2, phe2_en
// Throws Errc::unknown_feature / bad_environment on anything else (nothing is applied then).
// Not thread-safe against concurrent hashing: call it before starting threads.
void assume_features(std::string_view text);
// Drops every assumed feature and re-selects.
void clear_assumed_features();
// Re-runs selection as if SHAKEDOWN_BACKENDS had this value (nullopt: read the environment).
void reselect(std::optional<std::string> backends_env);

// What selection would say about this SHAKEDOWN_BACKENDS value with the current features: the error
// message, or "" if it is usable. Changes nothing (for fuzzing the parser without re-selecting).
std::string validate_backends_env(std::string_view value);

// Applies SHAKEDOWN_TEST_ASSUME from the environment (used by test mains so that ctest
// entries can run the same binary under different emulated profiles). Returns the text applied.
std::string assume_features_from_environment();

// Forges the message byte counter of a SHA-2 context at a block boundary, as if that many
// bytes had been hashed (the chaining value is left as it is). For counter-limit tests.
void forge_byte_count(Hasher& ctx, std::uint64_t bytes_lo, std::uint64_t bytes_hi);
// Moves a live context to another backend of the same family, mid-stream (the state layout is
// shared by all backends of a family). For cross-backend handoff tests. Throws like Hasher(alg, name).
void rebind(Hasher& ctx, std::string_view backend);
// Raw view of a context's memory, for zeroization checks.
std::span<const std::uint8_t> raw_state(const Hasher& ctx);

}  // namespace shakedown::testing
