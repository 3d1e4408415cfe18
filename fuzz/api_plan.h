// fuzz_api's plan: a sequence of API operations (including misuse) on a few Hasher and Hmac slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

struct ApiOp {
  enum class Kind : std::uint8_t {
    create,       // slot = Hasher(alg) / Hasher(alg, name): selected, available, unknown or unavailable name
    update,       // bytes
    update_null,  // update(nullptr, choice): null_pointer unless the length is 0
    final,        // output length variant from choice (right, 0, +1, -1, null)
    squeeze,      // len bytes (choice 15: null output)
    clone,        // slot2 = slot (choice >= 8: moved, which wipes and finalizes the source)
    reset,
    rebind,       // testing::rebind to an available backend, or to an unknown name
    hmac_create,  // HMAC slot = Hmac(alg, key, backend choice), including an explicitly empty name
    hmac_update,
    hmac_final,   // tag length variant
    hmac_verify,  // right, truncated, flipped, empty or over-long tag; verify_truncated with stated lengths
    hmac_clone,   // like clone: copy, or move (choice >= 8)
    hmac_reset,
    oneshot,      // hash() with a right or wrong output length
    environment,  // SHAKEDOWN_BACKENDS-style string through testing::reselect
    parse_name,   // parse_algorithm / algorithm_from_name / parse_family on arbitrary text
    count_
  };
  Kind kind = Kind::create;
  std::size_t slot = 0;     // 0..3 (Hasher) or 0..1 (Hmac)
  std::size_t slot2 = 0;    // clone destination
  std::uint8_t choice = 0;  // 0..15, meaning per kind
  Algorithm alg = Algorithm::sha256;
  std::size_t len = 0;
  std::vector<std::uint8_t> bytes;  // update data, HMAC key, environment string or name
};

struct ApiPlan {
  std::vector<ApiOp> ops;
};

inline constexpr std::size_t kHasherSlots = 4;
inline constexpr std::size_t kHmacSlots = 2;

// Per operation: byte 0 = kind, byte 1 = slots and choice, then per-kind operands (algorithm byte,
// length byte, data). Stops at the end of the input or after 32 operations. Returns nullopt (reason in
// *why) only for an empty input.
std::optional<ApiPlan> decode_api_plan(std::span<const std::uint8_t> input, std::string* why = nullptr);

std::string describe(const ApiOp& op);
std::string describe(const ApiPlan& plan);

}  // namespace shakedown::fuzz
