// Shared helpers of the differential suites: seeded randomness, update splits, crash notes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/shakedown.h"
#include "support.h"

// qemu-x86_64 enters signal handlers with a misaligned stack (docs/platforms.md §2.4): handlers that may
// use aligned SSE/AVX spills realign it on entry.
#if defined(__x86_64__) || defined(__i386__)
#define SHAKEDOWN_DIFF_SIGNAL_HANDLER __attribute__((force_align_arg_pointer))
#else
#define SHAKEDOWN_DIFF_SIGNAL_HANDLER
#endif

namespace shakedown::diff {

// The suite name in execution records (SHAKEDOWN_RECORD) for the backend coverage gate.
inline constexpr std::string_view kSuite = "diff";

// SplitMix64: tiny, seedable and identical on every platform (std:: distributions are not),
// so a (seed, iteration) printed by a failure replays anywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n); n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool percent(unsigned p) { return below(100) < p; }
  std::vector<std::uint8_t> bytes(std::size_t n);

 private:
  std::uint64_t state_;
};

// SHAKEDOWN_DIFF_SEED (decimal or 0x-hex) or a fixed default: every run is deterministic, and a
// failure can be replayed or a deep run varied by setting it.
std::uint64_t base_seed();
// The seed of one iteration of one check: base_seed mixed with the check name and the iteration.
std::uint64_t seed_for(std::string_view check, std::string_view param, std::uint64_t iteration);

// Update lengths summing to `total`, biased (like the kernel's hash test template) to small
// lengths, to block-1/block/block+1, to the rest of the current block, and with zero-length updates
// mixed in.
std::vector<std::size_t> random_splits(Rng& rng, std::size_t total, std::size_t block);
// A fixed split scheme for the length sweep, different for each length (no randomness needed).
std::vector<std::size_t> sweep_splits(std::size_t total, std::size_t block);
// "[3,0,64,1]" for failure messages.
std::string describe(std::span<const std::size_t> values);

// Output length used by the hash-level checks: the digest size (SHAKE: its default length).
inline std::size_t out_size(Algorithm alg) { return digest_size(alg); }

// Our digest through a Hasher bound to `backend`, fed in `chunks` (which sum to msg.size()).
std::vector<std::uint8_t> digest_in_chunks(Algorithm alg, std::string_view backend,
                                           std::span<const std::uint8_t> msg,
                                           std::span<const std::size_t> chunks, std::size_t outlen);
// Our one-shot digest on a named backend.
std::vector<std::uint8_t> digest_oneshot(Algorithm alg, std::string_view backend,
                                         std::span<const std::uint8_t> msg, std::size_t outlen);
// A scenario that hands one computation from backend a to b to c and returns its output.
using HandoffScenario =
    std::function<std::vector<std::uint8_t>(const std::string& a, const std::string& b, const std::string& c)>;
// Runs run(a, b, c). When its output differs from `want`, the failure is charged (tests/support/records.h) to
// the backends that are wrong on their own: each runs the identical scenario alone, run(x, x, x), so it gets
// every block-function call the handoff made, including the ones that went wrong. When each is right alone,
// the handoff between them failed, and all of them are charged. A broken backend is blamed, not the healthy
// ones that handed a state to it or took one from it.
std::vector<std::uint8_t> run_handoff(Family family, const std::string& a, const std::string& b, const std::string& c,
                                      const std::vector<std::uint8_t>& want, const HandoffScenario& run);
// For failure messages: whether the generic backend, fed the same updates, agrees with OpenSSL, which
// tells a broken backend apart from broken framing. Empty when `backend` is generic itself.
std::string generic_verdict(Algorithm alg, std::string_view backend, std::span<const std::uint8_t> msg,
                            std::span<const std::size_t> chunks, std::size_t outlen);

// Guard pages: tests/support/guarded.h.
using test::GuardedBuffer;
using test::inaccessible_page;

// While alive, names the check in flight on this thread if the process dies of SIGSEGV/SIGBUS
// (a guard page hit), then lets the previous handler (ASan's or the default) report the fault.
class CrashNote {
 public:
  explicit CrashNote(const std::string& text);
  ~CrashNote();
  CrashNote(const CrashNote&) = delete;
  CrashNote& operator=(const CrashNote&) = delete;
};

// Records that `check` ran `count` times on the pair (suite "diff").
inline void record(const test::AlgBackend& p, std::string_view check, std::uint64_t count = 1) {
  test::record(kSuite, p.alg, p.backend, check, count);
}
inline void record(const test::FamilyBackend& p, std::string_view check, std::uint64_t count = 1) {
  test::record(kSuite, p.family, p.backend, check, count);
}

// "sha256 on x86_64/avx2": the head of every failure message.
std::string who(const test::AlgBackend& p);
std::string who(const test::FamilyBackend& p);

// Parameter lists filtered by algorithm kind.
std::vector<test::AlgBackend> hmac_alg_backends();   // SHA-2 and SHA-3 (not SHAKE)
std::vector<test::AlgBackend> shake_alg_backends();  // SHAKE128/256
std::vector<test::AlgBackend> sha2_alg_backends();   // SHA-2 only

}  // namespace shakedown::diff
