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
  // The case: <label>/<impl>/<length>; the ratio table's key.
  std::string name() const { return label + "/" + impl + "/" + std::to_string(length); }
};

// The Google Benchmark name of a case in round r (1, 2, ...): <case>/round:<r>, one name per run, so that tools
// keying on `name` see each round's run apart.
std::string run_name(const Case& c, int round);
// The case a Google Benchmark name belongs to: the name less its "/round:<r>".
std::string case_of(const std::string& run_name);

// Registers round `round` of the suite, each group (label, length) as OpenSSL first and then our
// backends, so that the two are measured next to each other in time. Returns the cases in
// registration order, the same in every round. Throws std::invalid_argument if opt.backends
// names a backend that no family has available.
std::vector<Case> register_round(const Options& opt, int round);

}  // namespace shakedown::bench
