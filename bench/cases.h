// The benchmark cases: one-shot digests, HMAC and the incremental API, ours and OpenSSL's side by side.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench_options.h"

namespace shakedown::bench {

inline constexpr const char* kOpenssl = "openssl";
// The impl of the many-message cases that lets hash_many() choose its rows (no backend has this name).
inline constexpr const char* kDefaultRows = "default";

struct Case {
  std::string label;  // "sha256", "hmac-sha256", "sha3-256-upd100"
  std::string impl;   // kOpenssl or one of our backend names
  std::size_t length;
  // The Google Benchmark name: <label>/<impl>/<length>.
  std::string name() const { return label + "/" + impl + "/" + std::to_string(length); }
};

// Registers one round of the suite, each group (label, length) as OpenSSL first and then our
// backends, so that the two are measured next to each other in time. Returns the cases in
// registration order, the same in every round. Throws std::invalid_argument if opt.backends
// names a backend that no family has available.
std::vector<Case> register_round(const Options& opt);

}  // namespace shakedown::bench
