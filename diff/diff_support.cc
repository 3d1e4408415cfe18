// Shared helpers of the differential suites: seeded randomness, update splits, crash notes.
#include "diff_support.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace shakedown::diff {

std::uint64_t Rng::next() {
  // SplitMix64 (Steele, Lea, Flood 2014): a Weyl sequence through a 64-bit finalizer.
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::uint8_t> Rng::bytes(std::size_t n) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t v = next();
    std::memcpy(out.data() + i, &v, std::min<std::size_t>(8, n - i));
  }
  return out;
}

std::uint64_t base_seed() {
  static const std::uint64_t seed = [] {
    const char* e = std::getenv("SHAKEDOWN_DIFF_SEED");
    return e && *e ? std::strtoull(e, nullptr, 0) : 0x5eedd1ffull;
  }();
  return seed;
}

std::uint64_t seed_for(std::string_view check, std::string_view param, std::uint64_t iteration) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64 over "check/param"
  auto mix = [&](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  };
  mix(check);
  mix("/");
  mix(param);
  Rng r(h ^ base_seed() ^ (iteration * 0xd1342543de82ef95ull));
  return r.next();
}

std::vector<std::size_t> random_splits(Rng& rng, std::size_t total, std::size_t block) {
  std::vector<std::size_t> out;
  std::size_t pos = 0;
  while (pos < total) {
    const std::size_t remaining = total - pos;
    const std::size_t kind = rng.below(100);
    std::size_t len;
    if (kind < 10) {
      len = 0;  // zero-length updates must be no-ops wherever they fall
    } else if (kind < 40) {
      len = rng.below(17);  // small: exercises the partial-block buffer
    } else if (kind < 55) {
      len = block - 1 + rng.below(3);  // block-1, block, block+1
    } else if (kind < 70) {
      len = block - pos % block;  // exactly to the next block boundary
    } else if (kind < 80) {
      len = block * (1 + rng.below(4));  // whole blocks (aligned or not, depending on pos)
    } else {
      len = rng.below(remaining + 1);
    }
    len = std::min(len, remaining);
    out.push_back(len);
    pos += len;
  }
  if (rng.percent(20)) out.push_back(0);  // a trailing empty update just before final
  return out;
}

std::vector<std::size_t> sweep_splits(std::size_t total, std::size_t block) {
  // The first chunk varies with the length so that the later ones straddle every buffer fill level.
  const std::size_t cycle[] = {total % (block + 1), 0, 1, block, block - 1, 2 * block + 1, 7};
  std::vector<std::size_t> out;
  std::size_t pos = 0;
  for (std::size_t i = 0; pos < total; ++i) {
    std::size_t len = std::min(cycle[i % std::size(cycle)], total - pos);
    out.push_back(len);
    pos += len;
  }
  return out;
}

std::string describe(std::span<const std::size_t> values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + std::to_string(values[i]);
  return s + "]";
}

std::vector<std::uint8_t> digest_in_chunks(Algorithm alg, std::string_view backend,
                                           std::span<const std::uint8_t> msg,
                                           std::span<const std::size_t> chunks, std::size_t outlen) {
  Hasher h(alg, backend);
  std::size_t off = 0;
  for (std::size_t c : chunks) {
    h.update(msg.data() + off, c);
    off += c;
  }
  if (off != msg.size()) throw std::logic_error("digest_in_chunks: chunks do not cover the message");
  std::vector<std::uint8_t> out(outlen);
  h.final(out.data(), out.size());
  return out;
}

std::vector<std::uint8_t> digest_oneshot(Algorithm alg, std::string_view backend,
                                         std::span<const std::uint8_t> msg, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  hash(alg, backend, msg, out);
  return out;
}

std::vector<std::uint8_t> run_handoff(Family family, const std::string& a, const std::string& b, const std::string& c,
                                      const std::vector<std::uint8_t>& want, const HandoffScenario& run) {
  std::vector<std::uint8_t> got = run(a, b, c);
  if (got == want) return got;
  std::vector<std::string> chain;
  for (const std::string& x : {a, b, c})
    if (std::find(chain.begin(), chain.end(), x) == chain.end()) chain.push_back(x);
  std::vector<std::string> wrong;
  for (const std::string& x : chain)
    if (run(x, x, x) != want) wrong.push_back(x);
  for (const std::string& x : wrong.empty() ? chain : wrong) test::charge_failure(family, x);
  return got;
}

std::string generic_verdict(Algorithm alg, std::string_view backend, std::span<const std::uint8_t> msg,
                            std::span<const std::size_t> chunks, std::size_t outlen) {
  if (backend == "generic") return "";
  bool agrees = digest_in_chunks(alg, "generic", msg, chunks, outlen) == test::openssl_digest(alg, msg, outlen);
  return agrees ? "(generic with the same updates agrees with OpenSSL)"
                : "(generic with the same updates ALSO differs from OpenSSL: framing or generic is broken)";
}

// ---- Crash notes ----

namespace {
thread_local char t_note[512];
thread_local bool t_note_active = false;
struct sigaction g_previous_segv, g_previous_bus;

SHAKEDOWN_DIFF_SIGNAL_HANDLER void on_fault(int sig, siginfo_t*, void*) {
  if (t_note_active) {
    static const char head[] = "\n[diff] memory fault (guard page?) during: ";
    (void)!write(2, head, sizeof head - 1);
    (void)!write(2, t_note, strnlen(t_note, sizeof t_note));
    (void)!write(2, "\n", 1);
  }
  // Returning re-executes the faulting access under the previous disposition, which reports it.
  sigaction(sig, sig == SIGSEGV ? &g_previous_segv : &g_previous_bus, nullptr);
}

void install_fault_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous_segv);
    sigaction(SIGBUS, &sa, &g_previous_bus);
  });
}
}  // namespace

CrashNote::CrashNote(const std::string& text) {
  install_fault_handler();
  std::size_t n = std::min(text.size(), sizeof t_note - 1);
  std::memcpy(t_note, text.data(), n);
  t_note[n] = '\0';
  t_note_active = true;
}

CrashNote::~CrashNote() { t_note_active = false; }

// ---- Names and parameter lists ----

std::string who(const test::AlgBackend& p) { return std::string(name(p.alg)) + " on " + p.backend; }
std::string who(const test::FamilyBackend& p) { return std::string(name(p.family)) + " backend " + p.backend; }

namespace {
template <class Keep>
std::vector<test::AlgBackend> filtered(Keep keep) {
  std::vector<test::AlgBackend> out;
  for (auto& p : test::all_alg_backends())
    if (keep(p.alg)) out.push_back(p);
  return out;
}
}  // namespace

std::vector<test::AlgBackend> hmac_alg_backends() {
  return filtered([](Algorithm a) { return !is_xof(a); });
}
std::vector<test::AlgBackend> shake_alg_backends() {
  return filtered([](Algorithm a) { return is_xof(a); });
}
std::vector<test::AlgBackend> sha2_alg_backends() {
  return filtered([](Algorithm a) { return family_of(a) != Family::keccak; });
}

}  // namespace shakedown::diff
