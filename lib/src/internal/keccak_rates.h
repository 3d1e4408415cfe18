// The FIPS 202 rates as compile-time lane counts, for backends whose block XOR must index lanes by constants.
#pragma once

#include <cstddef>
#include <type_traits>

namespace shakedown::internal {

// Calls f(integral_constant<int, rate / 8>) for a FIPS 202 rate (every SHA-3/SHAKE rate is a whole number of
// lanes, §6.1, §6.2): one copy of a loop per lane count keeps the XOR indices constant, so that a state held in
// registers is never indexed at run time. False for any other rate (the caller then goes state by state).
template <class F>
[[gnu::always_inline]] inline bool with_rate_lanes(std::size_t rate, F&& f) {
  switch (rate) {
    case 168: f(std::integral_constant<int, 21>{}); return true;  // SHAKE128
    case 144: f(std::integral_constant<int, 18>{}); return true;  // SHA3-224
    case 136: f(std::integral_constant<int, 17>{}); return true;  // SHA3-256, SHAKE256
    case 104: f(std::integral_constant<int, 13>{}); return true;  // SHA3-384
    case 72: f(std::integral_constant<int, 9>{}); return true;    // SHA3-512
    default: return false;
  }
}

}  // namespace shakedown::internal
