// The outcome of running one plan on every backend, and its readable report (crash output and repro).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shakedown::fuzz {

// One run (a backend, or a backend with a clone/handoff twist) whose result differs from the reference.
struct Divergence {
  std::string run;                   // "x86_64/shani", "x86_64/shani -> generic (handoff)", "clone on generic"
  std::string problem;               // what went wrong, e.g. "digest differs" or "expected Errc::finalized"
  std::vector<std::uint8_t> got;     // output bytes, when the problem is a byte difference
  std::vector<std::uint8_t> want;
};

struct Verdict {
  std::string subject;               // "sha256", "HMAC-sha3-256", "sha512 block function"
  std::string reference;             // "OpenSSL EVP one-shot", "generic block function", "API contract model"
  std::vector<std::string> agreeing; // runs that matched the reference
  std::vector<Divergence> divergences;
  bool ok() const noexcept { return divergences.empty(); }
};

// Index of the first byte where a and b differ (a length difference counts at the shorter length).
std::optional<std::size_t> first_difference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

// shakedown::to_hex of at most the first max_bytes, then "... (N bytes)".
std::string to_hex(std::span<const std::uint8_t> bytes, std::size_t max_bytes = 64);

// The report printed before abort() and by shakedown-repro: subject, runs that disagree, the
// plan, and for each disagreement the first differing byte with context.
std::string format_report(const Verdict& verdict, const std::string& plan_description);

}  // namespace shakedown::fuzz
