// The outcome of running one plan on every backend, and its readable report (crash output and repro).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bytes.h"  // tests/support: to_hex
#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

using test::to_hex;

// One run (a backend, or a backend with a clone/handoff twist) whose result differs from the reference.
struct Divergence {
  std::string run;                // "x86_64/shani", "x86_64/shani -> generic (handoff)", "clone on generic"
  std::string problem;            // what went wrong, e.g. "digest differs" or "expected Errc::finalized"
  std::vector<std::uint8_t> got;  // output bytes, when the problem is a byte difference
  std::vector<std::uint8_t> want;
  std::vector<std::string> backends;  // the backends that produced this run's output (two for a handoff)
};

struct Verdict {
  std::string subject;                // "sha256", "HMAC-sha3-256", "sha512 block function"
  std::string reference;              // "OpenSSL EVP one-shot", "generic block function", "API contract model"
  std::optional<Family> family;       // the family whose backends ran, when there is one
  std::vector<std::string> agreeing;  // runs that matched the reference
  std::vector<Divergence> divergences;
  bool ok() const noexcept { return divergences.empty(); }
  // The backends to blame: those whose own runs diverged; when only combined runs (a handoff, a split between
  // two backends) did, every backend of those runs.
  std::vector<std::string> culprits() const;
};

// Index of the first byte where a and b differ (a length difference counts at the shorter length).
std::optional<std::size_t> first_difference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

// The report printed before abort() and by shakedown-repro: subject, runs that disagree, the backends blamed
// (culprits(), when any), the plan, and for each disagreement the first differing byte with context.
std::string format_report(const Verdict& verdict, const std::string& plan_description);

}  // namespace shakedown::fuzz
