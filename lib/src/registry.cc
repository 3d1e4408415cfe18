// The backend registry: one-time thread-safe selection per family, lookup by name, and introspection.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "internal/arch.h"
#include "internal/backends_env.h"
#include "internal/message_text.h"
#include "internal/registry.h"
#include "internal/self_test.h"
#include "internal/tables.h"
#include "shakedown/backend.h"
#include "shakedown/error.h"

namespace shakedown::internal {
namespace {

// name() throws Errc::unknown_family for a value outside the enumeration, before it can index anything.
std::size_t index_of(Family f) {
  (void)name(f);
  return static_cast<std::size_t>(f);
}

struct Selection {
  CpuFeatures features;
  std::string env_error;  // non-empty: SHAKEDOWN_BACKENDS is unusable, default selection throws
  std::array<std::vector<BackendStatus>, kAllFamilies.size()> status;
  // New contexts, one-shot calls, and what no lanes take in hash_many().
  std::tuple<const Sha256Backend*, const Sha512Backend*, const KeccakBackend*> chosen{};
  // hash_many()'s rows with lanes, in preference order.
  std::tuple<std::vector<const Sha256Backend*>, std::vector<const Sha512Backend*>, std::vector<const KeccakBackend*>>
      many{};

  template <Family F>
  const BackendOf<F>*& chosen_row() {
    return std::get<const BackendOf<F>*>(chosen);
  }
  template <Family F>
  const BackendOf<F>* chosen_row() const {
    return std::get<const BackendOf<F>*>(chosen);
  }
  template <Family F>
  std::vector<const BackendOf<F>*>& many_rows() {
    return std::get<std::vector<const BackendOf<F>*>>(many);
  }
  template <Family F>
  const std::vector<const BackendOf<F>*>& many_rows() const {
    return std::get<std::vector<const BackendOf<F>*>>(many);
  }
};

constexpr const char* kSelfTestFailed = "failed its known-answer self-test";
constexpr const char* kSelfTestPending = "self-test pending: runs when it is selected, pinned or bound by name";

// What selection decided about one row, and why, before any of it is put into words (explain()).
enum class Why : std::uint8_t {
  needs,             // the CPU lacks what it needs
  self_test_failed,  // its known-answer self-test failed (now or earlier in the process)
  pinned,            // SHAKEDOWN_BACKENDS pins it: the family's only row
  other_pinned,      // SHAKEDOWN_BACKENDS pins another row
  excluded,          // SHAKEDOWN_BACKENDS excludes it
  pin_only,          // never auto-selected (kBackendPinOnly)
  selected,          // the single-message default (and maybe hash_many()'s too)
  many_only,         // hash_many()'s from its min_busy; another row takes single messages
  lanes_slower,      // its lanes are outrun on this core (MultiLane::ahead_on)
  lanes_unreached,   // its lanes never run by default: an earlier row's take such counts first
  available,         // usable, another row preferred
};

struct RowDecision {
  bool available = false;
  bool selected = false;       // new contexts and one-shots of the family
  bool selected_many = false;  // hash_many()'s default rows
  Why why = Why::needs;
};

// The decisions of one family's rows in table order, the single-message row (null: none usable) and
// hash_many()'s rows; a pin that cannot be honoured sets `error`.
//
// A row flagged kBackendSelfTest executes its instruction only when selection would use it (after pins,
// exclusions and pin-only are applied), when it is pinned, or when a caller binds it by name (backend<F>()):
// a pin or an exclusion keeps a suspect instruction (PadLock on a CPU model that advertises it but cannot
// execute it) from ever running. An unusable SHAKEDOWN_BACKENDS (env_usable false) still fills the table for
// introspection, but runs no self-test: its pins and exclusions are lost with the parse error, and one of them
// may be what keeps a suspect instruction from executing (`sha256=-x86_64/phe,sha512=generc` must not run
// PadLock's self-test). Every default use throws the parse error anyway.
template <Family F>
std::vector<RowDecision> decide(const FamilyOverride& o, bool env_usable, const CpuFeatures& features,
                                const BackendOf<F>*& chosen, std::vector<const BackendOf<F>*>& many,
                                std::string& error) {
  std::vector<RowDecision> out;
  // hash_many() takes the first row of `many` whose min_busy the message count reaches (hash_many.cc): a row is
  // reachable only below every earlier row's min_busy (x86_64/avx2's 3 after x86_64/shani's 2 never is).
  std::uint32_t reached_from = UINT32_MAX;
  for (const BackendOf<F>& b : table<F>()) {
    RowDecision d;
    const bool pinned = !o.pinned.empty() && b.info.name == o.pinned;
    const bool excluded = std::find(o.excluded.begin(), o.excluded.end(), b.info.name) != o.excluded.end();
    const bool pin_only = (b.info.flags & kBackendPinOnly) != 0;
    const bool many_only = (b.info.flags & kBackendManyOnly) != 0;
    const bool has_many = b.multi.lanes != 0;
    // Lanes that another row outruns on this core are left to a name or a pin (MultiLane::ahead_on).
    const bool many_here = has_many && (b.multi.ahead_on == nullptr || b.multi.ahead_on(features));
    // Would selection use this row if it works? Only then may its self-test run here.
    const bool wanted =
        env_usable &&
        (pinned || (o.pinned.empty() && !excluded && !pin_only && ((chosen == nullptr && !many_only) || many_here)));
    if (!b.info.available(features)) {
      d.why = Why::needs;
    } else if (!(b.info.flags & kBackendSelfTest)) {
      d.available = true;
    } else {
      // Run only when wanted; otherwise an earlier bind or selection may have run it already.
      d.available = wanted ? self_test_passes<F>(b) : self_test_result<F>(b) != SelfTest::failed;
      if (!d.available) d.why = Why::self_test_failed;
    }
    if (pinned) {
      if (d.available) {
        chosen = &b;
        if (has_many) many.push_back(&b);
        d.selected = true;
        d.selected_many = has_many;
        d.why = Why::pinned;
      }
    } else if (d.available) {
      if (!o.pinned.empty()) {
        d.why = Why::other_pinned;
      } else if (excluded) {
        d.why = Why::excluded;
      } else if (pin_only) {
        d.why = Why::pin_only;
      } else {
        if (chosen == nullptr && !many_only) {
          chosen = &b;
          d.selected = true;
        }
        if (many_here && b.multi.min_busy < reached_from) {
          many.push_back(&b);
          d.selected_many = true;
          reached_from = b.multi.min_busy;
        }
        d.why = d.selected        ? Why::selected
                : d.selected_many ? Why::many_only
                : !has_many       ? Why::available
                : !many_here      ? Why::lanes_slower
                                  : Why::lanes_unreached;
      }
    }
    if (pinned && !d.available)
      error = std::string(kBackendsEnv) + " pins " + std::string(name(F)) + "=" + std::string(b.info.name) +
              " but it is unavailable here: " +
              (d.why == Why::needs ? "needs " + std::string(b.info.needs) : std::string(kSelfTestFailed));
    out.push_back(d);
  }
  if (chosen == nullptr && error.empty())
    error = std::string(kBackendsEnv) + " leaves no usable " + std::string(name(F)) + " backend";
  return out;
}

// A decision in words, for backends() and the CLI. A usable row whose family has no usable single-message row
// (every row excluded, say) has no reason to give beyond the family's error.
template <Family F>
std::string explain(const BackendOf<F>& b, const RowDecision& d, const FamilyOverride& o, const BackendOf<F>* chosen,
                    const CpuFeatures& features) {
  const std::string preferred = chosen ? std::string(chosen->info.name) + " is preferred" : "";
  switch (d.why) {
    case Why::needs: return "needs " + std::string(b.info.needs);
    case Why::self_test_failed: return kSelfTestFailed;
    case Why::pinned: return "pinned by " + std::string(kBackendsEnv);
    case Why::other_pinned: return std::string(kBackendsEnv) + " pins " + o.pinned;
    case Why::excluded: return "excluded by " + std::string(kBackendsEnv);
    case Why::pin_only:
      return "pin-only: never auto-selected (SHAKEDOWN_BACKENDS=" + std::string(name(F)) + "=" +
             std::string(b.info.name) + " or bind it by name)";
    case Why::selected: return "";
    case Why::many_only:
      if (!chosen) return "";
      return "selected for hash_many() from " + std::to_string(b.multi.min_busy) + " messages; " + preferred +
             " for single messages";
    case Why::lanes_slower:
      if (!chosen) return "";
      return "available; its lanes are not the fastest on this core (" + std::string(features.vendor) + " family " +
             std::to_string(features.family) + "): they run when named; " + preferred;
    case Why::lanes_unreached:
      if (!chosen) return "";
      return "available; its lanes (from " + std::to_string(b.multi.min_busy) +
             " messages) never run by default: an earlier row's take such counts first; " + preferred;
    case Why::available: return chosen ? "available; " + preferred : "";
  }
  return "";
}

// From the one preference order: single messages take the first usable row not flagged kBackendManyOnly;
// hash_many() may use every usable row with a multi-lane function, in that order (docs/design.md "Many
// messages"). A pin sets both: only the pinned row's code runs. The decision (decide) and its words (explain)
// are separate steps.
template <Family F>
void select_family(const FamilyOverride& o, bool env_usable, Selection& sel, std::string& error) {
  const BackendOf<F>* chosen = nullptr;
  std::vector<const BackendOf<F>*> many;
  const std::vector<RowDecision> decisions = decide<F>(o, env_usable, sel.features, chosen, many, error);
  auto& status = sel.status[index_of(F)];
  status.clear();
  const auto rows = table<F>();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RowDecision& d = decisions[i];
    status.push_back(BackendStatus{std::string(rows[i].info.name), F, d.available, d.selected,
                                   explain<F>(rows[i], d, o, chosen, sel.features), rows[i].multi.lanes,
                                   d.selected_many});
  }
  sel.chosen_row<F>() = chosen;
  sel.many_rows<F>() = std::move(many);
}

// The status of a family as of now: rows whose self-test ran after the selection was made (a bind by name)
// show its result; rows whose self-test has not run say so.
std::vector<BackendStatus> status_now(Family family, const Selection& sel) {
  std::vector<BackendStatus> status = sel.status[index_of(family)];
  visit_family(family, [&]<class T>(T) {
    const auto rows = table<T::kFamily>();
    for (std::size_t i = 0; i < status.size() && i < rows.size(); ++i) {
      BackendStatus& s = status[i];
      if (!(rows[i].info.flags & kBackendSelfTest) || !s.available) continue;
      const SelfTest result = self_test_result<T::kFamily>(rows[i]);
      if (result == SelfTest::failed) {
        s.available = false;
        s.reason = kSelfTestFailed;
      } else if (result == SelfTest::not_run) {
        s.reason += (s.reason.empty() ? "" : "; ") + std::string(kSelfTestPending);
      }
    }
  });
  return status;
}

std::mutex g_mutex;
std::atomic<const Selection*> g_current{nullptr};
std::vector<std::unique_ptr<Selection>> g_history;  // kept alive: readers may hold old pointers
bool g_detected_done = false;
CpuFeatures g_detected;
#if SHAKEDOWN_REGISTRY_TEST_HOOKS
// The test hooks' state (shakedown::testing): compiled only into the copy of this file that lib/testing/ links, so
// the library an application links has no code that adds CPU features or replaces SHAKEDOWN_BACKENDS.
CpuFeatures g_assumed;
std::optional<std::string> g_env_override;
#endif

// What selection sees: the detected features, plus (test builds only) the assumed ones.
CpuFeatures features_locked() {
  CpuFeatures f = g_detected;
#if SHAKEDOWN_REGISTRY_TEST_HOOKS
  f.flags |= g_assumed.flags;
  if (!g_assumed.vendor.empty()) f.vendor = g_assumed.vendor;
  if (g_assumed.family) f.family = g_assumed.family;
  if (g_assumed.model) f.model = g_assumed.model;
  if (g_assumed.vector_bytes) f.vector_bytes = g_assumed.vector_bytes;
#endif
  return f;
}

// Caller holds g_mutex. Builds (does not publish) the selection for this environment value.
std::unique_ptr<Selection> make_selection_locked(const std::string& env) {
  if (!g_detected_done) {
    detect_cpu_features(g_detected);
    g_detected_done = true;
  }
  auto sel = std::make_unique<Selection>();
  sel->features = features_locked();

  Overrides overrides;
  std::string error = parse_backends_env(env, overrides);
  const bool env_usable = error.empty();
  if (!env_usable) overrides = {};  // still fill the status table for introspection, running no self-test
  std::string select_error;
  for (Family f : kAllFamilies)
    visit_family(
        f, [&]<class T>(T) { select_family<T::kFamily>(overrides[index_of(f)], env_usable, *sel, select_error); });
  sel->env_error = !error.empty() ? error : select_error;
  return sel;
}

bool same_selection(const Selection& a, const Selection& b) {
  auto same_status = [](const std::vector<BackendStatus>& x, const std::vector<BackendStatus>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const BackendStatus& p, const BackendStatus& q) {
      return p.name == q.name && p.available == q.available && p.selected == q.selected && p.reason == q.reason &&
             p.selected_many == q.selected_many;
    });
  };
  return a.features.flags == b.features.flags && a.features.vendor == b.features.vendor &&
         a.features.family == b.features.family && a.features.model == b.features.model &&
         a.features.vector_bytes == b.features.vector_bytes && a.env_error == b.env_error && a.chosen == b.chosen &&
         a.many == b.many && std::equal(a.status.begin(), a.status.end(), b.status.begin(), same_status);
}

std::string environment_value() {
#if SHAKEDOWN_REGISTRY_TEST_HOOKS
  if (g_env_override) return *g_env_override;
#endif
  const char* e = std::getenv(kBackendsEnv);
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

}  // namespace

template <Family F>
const BackendOf<F>& default_backend() {
  return *usable().chosen_row<F>();
}

template <Family F>
std::span<const BackendOf<F>* const> default_many_rows() {
  return usable().many_rows<F>();
}

const BackendInfo* default_backend_info(Family family) {
  return visit_family(family, []<class T>(T) { return &default_backend<T::kFamily>().info; });
}

const BackendInfo* named_backend_info(Family family, std::string_view name) {
  return visit_family(family, [&]<class T>(T) { return &backend<T::kFamily>(name).info; });
}

#if SHAKEDOWN_REGISTRY_TEST_HOOKS
void add_assumed_features(const CpuFeatures& add) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_assumed.flags |= add.flags;
  if (!add.vendor.empty()) g_assumed.vendor = add.vendor;
  if (add.family) g_assumed.family = add.family;
  if (add.model) g_assumed.model = add.model;
  if (add.vector_bytes) g_assumed.vector_bytes = add.vector_bytes;
  build_locked();
}

void clear_assumed_features() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_assumed = CpuFeatures{};
  build_locked();
}

void override_environment(std::optional<std::string> value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_env_override = std::move(value);
  build_locked();
}

std::string environment_error(std::string_view value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return make_selection_locked(std::string(value))->env_error;
}
#endif  // SHAKEDOWN_REGISTRY_TEST_HOOKS

}  // namespace shakedown::internal

namespace shakedown {

template <Family F>
std::span<const BackendOf<F>> compiled_backends() noexcept {
  return internal::table<F>();
}

template <Family F>
const BackendOf<F>& backend(std::string_view name, bool require_available) {
  const auto rows = internal::table<F>();
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& b) { return b.info.name == name; });
  if (it == rows.end()) {
    std::string names;
    for (const auto& b : rows) names += (names.empty() ? "" : ", ") + std::string(b.info.name);
    throw Error(Errc::unknown_backend, "unknown " + std::string(shakedown::name(F)) + " backend '" +
                                           internal::shown_input(name) + "' (compiled: " + names + ")");
  }
  if (require_available) {
    const auto unavailable = [&](const std::string& reason) {
      return Error(Errc::backend_unavailable,
                   std::string(shakedown::name(F)) + " backend '" + std::string(name) + "' is unavailable: " + reason);
    };
    const BackendStatus& s = internal::current().status[internal::index_of(F)][internal::row_index<F>(*it)];
    if (!s.available) throw unavailable(s.reason);
    // Bound by name: the one case besides selection in which a self-tested row's instruction runs.
    if ((it->info.flags & kBackendSelfTest) && !internal::self_test_passes<F>(*it))
      throw unavailable(internal::kSelfTestFailed);
  }
  return *it;
}

#define SHAKEDOWN_REGISTRY_FAMILY(F)                                      \
  template std::span<const BackendOf<F>> compiled_backends<F>() noexcept; \
  template const BackendOf<F>& backend<F>(std::string_view, bool);        \
  template const BackendOf<F>& internal::default_backend<F>();            \
  template std::span<const BackendOf<F>* const> internal::default_many_rows<F>();
SHAKEDOWN_REGISTRY_FAMILY(Family::sha256)
SHAKEDOWN_REGISTRY_FAMILY(Family::sha512)
SHAKEDOWN_REGISTRY_FAMILY(Family::keccak)
#undef SHAKEDOWN_REGISTRY_FAMILY

std::vector<BackendStatus> backends(Family family) { return internal::status_now(family, internal::usable()); }

std::vector<std::string> available_backends(Family family) {
  std::vector<std::string> out;
  for (const auto& s : internal::status_now(family, internal::current()))
    if (s.available) out.push_back(s.name);
  return out;
}

std::string_view selected_backend(Family family) {
  return visit_family(family, []<class T>(T) { return internal::default_backend<T::kFamily>().info.name; });
}

std::string_view selected_many_backend(Family family) {
  return visit_family(family, []<class T>(T) {
    const auto rows = internal::default_many_rows<T::kFamily>();
    return rows.empty() ? internal::default_backend<T::kFamily>().info.name : rows.front()->info.name;
  });
}

void check_environment() { (void)internal::usable(); }

const CpuFeatures& cpu_features() { return internal::current().features; }

}  // namespace shakedown
