// The backend registry: one-time thread-safe selection, SHAKEDOWN_BACKENDS, introspection, test overrides.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "internal/arch.h"
#include "internal/bytes.h"
#include "internal/generic.h"
#include "internal/registry.h"
#include "internal/test_break.h"
#include "shakedown/backend.h"
#include "shakedown/error.h"
#include "shakedown/testing.h"

namespace shakedown {
namespace internal {
namespace {

constexpr const char* kEnvName = "SHAKEDOWN_BACKENDS";

// name() throws Errc::unknown_family for a value outside the enumeration, before it can index anything.
std::size_t index_of(Family f) {
  (void)name(f);
  return static_cast<std::size_t>(f);
}

// What SHAKEDOWN_BACKENDS says about one family.
struct FamilyOverride {
  std::string pinned;
  std::vector<std::string> excluded;
};

struct Selection {
  CpuFeatures features;
  std::string env_error;  // non-empty: SHAKEDOWN_BACKENDS is unusable, default selection throws
  std::array<std::vector<BackendStatus>, 3> status;
  const Sha256Backend* sha256 = nullptr;
  const Sha512Backend* sha512 = nullptr;
  const KeccakBackend* keccak = nullptr;
};

// ---- Known-answer self-tests of the backends flagged kBackendSelfTest (when they run: below) ----
// Expected values are the FIPS 180-2 Appendix B.1 / C.1 "abc" digests and the SHA3-256("")
// digest of the NIST SHA-3 examples, not output of this code.

bool self_test(const Sha256Backend& b) {
  std::uint8_t block[64] = {'a', 'b', 'c', 0x80};
  block[63] = 24;  // message length in bits (FIPS 180-4 §5.1.1)
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  alignas(16) std::uint32_t state[8];
  std::memcpy(state, h, sizeof state);
  b.blocks(state, block, 1);
  constexpr std::uint32_t want[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                     0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  return std::memcmp(state, want, sizeof want) == 0;
}

bool self_test(const Sha512Backend& b) {
  std::uint8_t block[128] = {'a', 'b', 'c', 0x80};
  block[127] = 24;
  alignas(16) std::uint64_t state[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                        0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                        0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
  b.blocks(state, block, 1);
  constexpr std::uint64_t want[8] = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                     0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                     0x454d4423643ce80e, 0x2a9ac94fa54ca49f};
  return std::memcmp(state, want, sizeof want) == 0;
}

bool self_test(const KeccakBackend& b) {
  // SHA3-256 of "": domain bits 01 and pad10*1 give 0x06 at byte 0, 0x80 at byte rate-1 (FIPS 202 §B.2).
  std::uint64_t st[25] = {};
  const std::uint8_t first = 0x06, last = 0x80;
  keccak_xor_bytes(st, 0, &first, 1);
  keccak_xor_bytes(st, 135, &last, 1);
  b.permute(st);
  std::uint8_t out[32];
  keccak_extract_bytes(st, 0, out, 32);
  constexpr std::uint8_t want[32] = {0xa7, 0xff, 0xc6, 0xf8, 0xbf, 0x1e, 0xd7, 0x66, 0x51, 0xc1, 0x47,
                                     0x56, 0xa0, 0x61, 0xd6, 0x62, 0xf5, 0x80, 0xff, 0x4d, 0xe4, 0x3b,
                                     0x49, 0xfa, 0x82, 0xd8, 0x0a, 0x4b, 0x80, 0xf8, 0x43, 0x4a};
  return std::memcmp(out, want, sizeof want) == 0;
}

// ---- SHAKEDOWN_BACKENDS ----

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

template <class B>
std::string names_of(std::span<const B> table) {
  std::string out;
  for (const auto& b : table) out += (out.empty() ? "" : ", ") + std::string(b.info.name);
  return out;
}

template <class B>
const B* find(std::span<const B> table, std::string_view name) {
  for (const auto& b : table)
    if (b.info.name == name) return &b;
  return nullptr;
}

std::string known_names(Family f) {
  switch (f) {
    case Family::sha256: return names_of(sha256_table());
    case Family::sha512: return names_of(sha512_table());
    case Family::keccak: return names_of(keccak_table());
  }
  return {};
}

bool is_known(Family f, std::string_view name) {
  switch (f) {
    case Family::sha256: return find(sha256_table(), name) != nullptr;
    case Family::sha512: return find(sha512_table(), name) != nullptr;
    case Family::keccak: return find(keccak_table(), name) != nullptr;
  }
  return false;
}

// Grammar: items separated by ','; each item is FAMILY=NAME (pin) or FAMILY=-NAME (exclude).
// Returns an error message naming the offending item, or "" on success.
std::string parse_backends_env(std::string_view text, std::array<FamilyOverride, 3>& out) {
  const std::string prefix = std::string(kEnvName) + "='" + std::string(text) + "': ";
  if (trim(text).empty()) return {};
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string item = trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) return prefix + "empty item (expected FAMILY=NAME or FAMILY=-NAME)";
    std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      return prefix + "item '" + item + "' has no '=' (expected FAMILY=NAME or FAMILY=-NAME)";
    std::string fam_text = trim(std::string_view(item).substr(0, eq));
    std::string value = trim(std::string_view(item).substr(eq + 1));
    auto fam = parse_family(fam_text);
    if (!fam) return prefix + "unknown family '" + fam_text + "' (valid: sha256, sha512, keccak)";
    bool exclude = !value.empty() && value.front() == '-';
    std::string name = exclude ? trim(std::string_view(value).substr(1)) : value;
    if (name.empty()) return prefix + "item '" + item + "' names no backend";
    if (!is_known(*fam, name))
      return prefix + "unknown " + std::string(shakedown::name(*fam)) + " backend '" + name +
             "' (compiled: " + known_names(*fam) + ")";
    FamilyOverride& o = out[index_of(*fam)];
    if (exclude) {
      o.excluded.push_back(name);
    } else {
      if (!o.pinned.empty() && o.pinned != name)
        return prefix + std::string(shakedown::name(*fam)) + " is pinned twice ('" + o.pinned + "' and '" +
               name + "')";
      o.pinned = name;
    }
    if (comma == text.size()) break;
  }
  for (Family f : kAllFamilies) {
    const FamilyOverride& o = out[index_of(f)];
    if (!o.pinned.empty() && std::find(o.excluded.begin(), o.excluded.end(), o.pinned) != o.excluded.end())
      return prefix + std::string(shakedown::name(f)) + " backend '" + o.pinned + "' is both pinned and excluded";
  }
  return {};
}

// ---- Self-test results: once per process, only when a backend is about to be used ----
//
// A backend flagged kBackendSelfTest executes its instruction only when selection would use it (after pins,
// exclusions and pin-only are applied), when it is pinned, or when a caller binds it by name. A pin or an
// exclusion can therefore keep a suspect instruction (PadLock on a CPU model that advertises it but cannot
// execute it) from ever running.

enum SelfTestState : std::uint8_t { kNotRun = 0, kPassed = 1, kFailed = 2 };
constexpr std::size_t kMaxRows = 32;  // per family table; checked where a row's index is taken
std::array<std::array<std::atomic<std::uint8_t>, kMaxRows>, 3> g_self_test{};
std::mutex g_self_test_mutex;  // taken after g_mutex when both are held

template <class B>
std::atomic<std::uint8_t>& self_test_slot(Family fam, std::span<const B> table, const B& b) {
  const auto row = static_cast<std::size_t>(&b - table.data());
  if (row >= kMaxRows) std::abort();  // a table longer than kMaxRows: raise kMaxRows
  return g_self_test[index_of(fam)][row];
}

// Runs the row's known-answer test the first time it is asked for; true if it passed.
template <class B>
bool self_test_passes(Family fam, std::span<const B> table, const B& b) {
  auto& slot = self_test_slot(fam, table, b);
  std::uint8_t state = slot.load(std::memory_order_acquire);
  if (state == kNotRun) {
    std::lock_guard<std::mutex> lock(g_self_test_mutex);
    state = slot.load(std::memory_order_relaxed);
    if (state == kNotRun) {
      state = self_test(b) ? kPassed : kFailed;
      slot.store(state, std::memory_order_release);
    }
  }
  return state == kPassed;
}

constexpr const char* kSelfTestFailed = "failed its known-answer self-test";
constexpr const char* kSelfTestPending =
    "self-test pending: runs when it is selected, pinned or bound by name";

// ---- Selection ----

template <class B>
const B* select_family(Family fam, std::span<const B> table, const FamilyOverride& o, Selection& sel,
                       std::string& error) {
  auto& status = sel.status[index_of(fam)];
  status.clear();
  const B* chosen = nullptr;
  for (const B& b : table) {
    BackendStatus s{std::string(b.info.name), fam, false, false, {}};
    const bool pinned = !o.pinned.empty() && s.name == o.pinned;
    const bool excluded = std::find(o.excluded.begin(), o.excluded.end(), s.name) != o.excluded.end();
    const bool pin_only = (b.info.flags & kBackendPinOnly) != 0;
    // Would selection use this row if it works? Only then may its self-test run here.
    const bool wanted = pinned || (o.pinned.empty() && !excluded && !pin_only && chosen == nullptr);
    if (!b.info.available(sel.features)) {
      s.reason = "needs " + std::string(b.info.needs);
    } else if (!(b.info.flags & kBackendSelfTest)) {
      s.available = true;
    } else if (wanted) {
      s.available = self_test_passes(fam, table, b);
      if (!s.available) s.reason = kSelfTestFailed;
    } else {
      // Not run for this selection; an earlier bind or selection may have run it already.
      s.available = self_test_slot(fam, table, b).load(std::memory_order_acquire) != kFailed;
      if (!s.available) s.reason = kSelfTestFailed;
    }
    if (pinned) {
      if (!s.available) {
        error = std::string(kEnvName) + " pins " + std::string(name(fam)) + "=" + s.name +
                " but it is unavailable here: " + s.reason;
      } else {
        chosen = &b;
        s.selected = true;
        s.reason = "pinned by " + std::string(kEnvName);
      }
    } else if (s.available) {
      if (!o.pinned.empty()) {
        s.reason = std::string(kEnvName) + " pins " + o.pinned;
      } else if (excluded) {
        s.reason = "excluded by " + std::string(kEnvName);
      } else if (pin_only) {
        s.reason = "pin-only: never auto-selected (SHAKEDOWN_BACKENDS=" + std::string(name(fam)) + "=" +
                   s.name + " or bind it by name)";
      } else if (chosen == nullptr) {
        chosen = &b;
        s.selected = true;
      } else {
        s.reason = "available; " + std::string(chosen->info.name) + " is preferred";
      }
    }
    status.push_back(std::move(s));
  }
  if (chosen == nullptr && error.empty())
    error = std::string(kEnvName) + " leaves no usable " + std::string(name(fam)) + " backend";
  return chosen;
}

// The status of a family as of now: rows whose self-test ran after the selection was made (a bind by name)
// show its result; rows whose self-test has not run say so.
template <class B>
std::vector<BackendStatus> current_status(Family fam, std::span<const B> table, std::vector<BackendStatus> status) {
  for (std::size_t i = 0; i < status.size() && i < table.size(); ++i) {
    const B& b = table[i];
    BackendStatus& s = status[i];
    if (!(b.info.flags & kBackendSelfTest) || !s.available) continue;
    const std::uint8_t state = self_test_slot(fam, table, b).load(std::memory_order_acquire);
    if (state == kFailed) {
      s.available = false;
      s.reason = kSelfTestFailed;
    } else if (state == kNotRun && s.reason.empty()) {
      s.reason = kSelfTestPending;
    } else if (state == kNotRun) {
      s.reason += "; " + std::string(kSelfTestPending);
    }
  }
  return status;
}

std::mutex g_mutex;
std::atomic<const Selection*> g_current{nullptr};
std::vector<std::unique_ptr<Selection>> g_history;  // kept alive: readers may hold old pointers
bool g_detected_done = false;
CpuFeatures g_detected;
CpuFeatures g_assumed;
std::optional<std::string> g_env_override;

// Caller holds g_mutex. Builds (does not publish) the selection for this environment value.
std::unique_ptr<Selection> make_selection_locked(const std::string& env) {
  if (!g_detected_done) {
    detect_cpu_features(g_detected);
    g_detected_done = true;
  }
  auto sel = std::make_unique<Selection>();
  sel->features = g_detected;
  sel->features.flags |= g_assumed.flags;
  if (!g_assumed.vendor.empty()) sel->features.vendor = g_assumed.vendor;
  if (g_assumed.family) sel->features.family = g_assumed.family;
  if (g_assumed.model) sel->features.model = g_assumed.model;
  if (g_assumed.vector_bytes) sel->features.vector_bytes = g_assumed.vector_bytes;

  std::array<FamilyOverride, 3> overrides;
  std::string error = parse_backends_env(env, overrides);
  if (!error.empty()) overrides = {};  // still fill the status table for introspection
  std::string select_error;
  sel->sha256 = select_family(Family::sha256, sha256_table(), overrides[0], *sel, select_error);
  sel->sha512 = select_family(Family::sha512, sha512_table(), overrides[1], *sel, select_error);
  sel->keccak = select_family(Family::keccak, keccak_table(), overrides[2], *sel, select_error);
  sel->env_error = !error.empty() ? error : select_error;
  return sel;
}

bool same_selection(const Selection& a, const Selection& b) {
  auto same_status = [](const std::vector<BackendStatus>& x, const std::vector<BackendStatus>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const BackendStatus& p, const BackendStatus& q) {
      return p.name == q.name && p.available == q.available && p.selected == q.selected && p.reason == q.reason;
    });
  };
  return a.features.flags == b.features.flags && a.features.vendor == b.features.vendor &&
         a.features.family == b.features.family && a.features.model == b.features.model &&
         a.features.vector_bytes == b.features.vector_bytes && a.env_error == b.env_error &&
         a.sha256 == b.sha256 && a.sha512 == b.sha512 && a.keccak == b.keccak &&
         same_status(a.status[0], b.status[0]) && same_status(a.status[1], b.status[1]) &&
         same_status(a.status[2], b.status[2]);
}

std::string environment_value() {
  if (g_env_override) return *g_env_override;
  const char* e = std::getenv(kEnvName);
  return e ? e : "";
}

// Caller holds g_mutex. Publishes a new selection; an identical one is reused, so repeated
// re-selection (tests, fuzzers) does not grow the history that must stay alive for readers.
const Selection* build_locked() {
  auto sel = make_selection_locked(environment_value());
  const Selection* now = g_current.load(std::memory_order_acquire);
  if (now && same_selection(*now, *sel)) return now;
  for (const auto& old : g_history)
    if (same_selection(*old, *sel)) {
      g_current.store(old.get(), std::memory_order_release);
      return old.get();
    }
  const Selection* raw = sel.get();
  g_history.push_back(std::move(sel));
  g_current.store(raw, std::memory_order_release);
  return raw;
}

const Selection& current() {
  const Selection* s = g_current.load(std::memory_order_acquire);
  if (s) return *s;
  std::lock_guard<std::mutex> lock(g_mutex);
  s = g_current.load(std::memory_order_acquire);
  return s ? *s : *build_locked();
}

const Selection& usable() {
  const Selection& s = current();
  if (!s.env_error.empty()) throw Error(Errc::bad_environment, s.env_error);
  return s;
}

template <class B>
const B& lookup(Family fam, std::span<const B> table, std::string_view name, bool require_available) {
  const B* b = find(table, name);
  if (b == nullptr)
    throw Error(Errc::unknown_backend, "unknown " + std::string(shakedown::name(fam)) + " backend '" +
                                           std::string(name) + "' (compiled: " + names_of(table) + ")");
  if (require_available) {
    for (const auto& s : current().status[index_of(fam)])
      if (s.name == name && !s.available)
        throw Error(Errc::backend_unavailable, std::string(shakedown::name(fam)) + " backend '" +
                                                   std::string(name) + "' is unavailable: " + s.reason);
    // Bound by name: the one case besides selection in which a self-tested backend's instruction runs.
    if ((b->info.flags & kBackendSelfTest) && !self_test_passes(fam, table, *b))
      throw Error(Errc::backend_unavailable, std::string(shakedown::name(fam)) + " backend '" +
                                                 std::string(name) + "' is unavailable: " + kSelfTestFailed);
  }
  return *b;
}

}  // namespace

const Sha256Backend& default_sha256_backend() { return *usable().sha256; }
const Sha512Backend& default_sha512_backend() { return *usable().sha512; }
const KeccakBackend& default_keccak_backend() { return *usable().keccak; }

}  // namespace internal

std::span<const Sha256Backend> sha256_backends() noexcept { return internal::sha256_table(); }
std::span<const Sha512Backend> sha512_backends() noexcept { return internal::sha512_table(); }
std::span<const KeccakBackend> keccak_backends() noexcept { return internal::keccak_table(); }

const Sha256Backend& sha256_backend(std::string_view name, bool require_available) {
  return internal::lookup(Family::sha256, sha256_backends(), name, require_available);
}
const Sha512Backend& sha512_backend(std::string_view name, bool require_available) {
  return internal::lookup(Family::sha512, sha512_backends(), name, require_available);
}
const KeccakBackend& keccak_backend(std::string_view name, bool require_available) {
  return internal::lookup(Family::keccak, keccak_backends(), name, require_available);
}

namespace internal {
namespace {
std::vector<BackendStatus> status_now(Family family, const Selection& sel) {
  const auto& status = sel.status[index_of(family)];
  switch (family) {
    case Family::sha256: return current_status(family, sha256_table(), status);
    case Family::sha512: return current_status(family, sha512_table(), status);
    case Family::keccak: return current_status(family, keccak_table(), status);
  }
  return status;
}
}  // namespace
}  // namespace internal

std::vector<BackendStatus> backends(Family family) { return internal::status_now(family, internal::usable()); }

std::vector<std::string> available_backends(Family family) {
  std::vector<std::string> out;
  for (const auto& s : internal::status_now(family, internal::current()))
    if (s.available) out.push_back(s.name);
  return out;
}

std::string_view selected_backend(Family family) {
  const auto& sel = internal::usable();
  (void)internal::index_of(family);
  switch (family) {
    case Family::sha256: return sel.sha256->info.name;
    case Family::sha512: return sel.sha512->info.name;
    case Family::keccak: return sel.keccak->info.name;
  }
  return {};
}

void check_environment() { (void)internal::usable(); }

const CpuFeatures& cpu_features() { return internal::current().features; }

namespace testing {

namespace {
void reselect_locked() { internal::build_locked(); }
}  // namespace

void reselect(std::optional<std::string> backends_env) {
  std::lock_guard<std::mutex> lock(internal::g_mutex);
  internal::g_env_override = std::move(backends_env);
  reselect_locked();
}

void clear_assumed_features() {
  std::lock_guard<std::mutex> lock(internal::g_mutex);
  internal::g_assumed = CpuFeatures{};
  reselect_locked();
}

// Parses the override text into a CpuFeatures (defined in cpu_features.cc).
CpuFeatures parse_assumed_features(std::string_view text);

void assume_features(std::string_view text) {
  CpuFeatures add = parse_assumed_features(text);  // throws before anything is applied
  std::lock_guard<std::mutex> lock(internal::g_mutex);
  internal::g_assumed.flags |= add.flags;
  if (!add.vendor.empty()) internal::g_assumed.vendor = add.vendor;
  if (add.family) internal::g_assumed.family = add.family;
  if (add.model) internal::g_assumed.model = add.model;
  if (add.vector_bytes) internal::g_assumed.vector_bytes = add.vector_bytes;
  reselect_locked();
}

std::string validate_backends_env(std::string_view value) {
  std::lock_guard<std::mutex> lock(internal::g_mutex);
  return internal::make_selection_locked(std::string(value))->env_error;
}

std::string assume_features_from_environment() {
  const char* e = std::getenv("SHAKEDOWN_TEST_ASSUME");
  if (e == nullptr || *e == '\0') return {};
  assume_features(e);
  return e;
}

}  // namespace testing
}  // namespace shakedown
