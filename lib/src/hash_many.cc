// hash_many(): every argument checked first, the rows chosen, then the lanes (internal/lanes.h) or one message at
// a time.
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include "internal/algorithm_spec.h"
#include "internal/api_checks.h"
#include "internal/framing.h"
#include "internal/lanes.h"
#include "internal/registry.h"
#include "shakedown/error.h"
#include "shakedown/hash.h"

namespace shakedown {
namespace {

using internal::ManyJob;
using internal::ManyStart;

std::string nth(const char* what, std::size_t i) { return std::string(what) + " " + std::to_string(i); }

// Runs a check of argument `what` i; an Error it throws is thrown again naming that argument
// ("shakedown: output 3: sha256 produces 32 bytes; 31 requested"), its message without a second "shakedown: ".
template <class Check>
void check_nth(const char* what, std::size_t i, Check&& check) {
  try {
    check();
  } catch (const Error& e) {
    constexpr std::string_view kPrefix = "shakedown: ";  // Error's own (error.cc)
    std::string_view message = e.what();
    if (message.starts_with(kPrefix)) message.remove_prefix(kPrefix.size());
    throw Error(e.code(), nth(what, i) + ": " + std::string(message));
  }
}

// Whether [p, p + n) and the storage of an array of spans share a byte (by address; std::less orders any pointers).
// A null p with n > 0 is no range at all (p + n would be undefined): check_pointer refuses it next.
template <class Span>
bool overlaps_array(const std::uint8_t* p, std::size_t n, std::span<const Span> array) {
  if (n == 0 || p == nullptr || array.empty()) return false;
  const auto* lo = reinterpret_cast<const std::uint8_t*>(array.data());
  const auto* hi = reinterpret_cast<const std::uint8_t*>(array.data() + array.size());
  const std::less<const std::uint8_t*> before;
  return before(p, hi) && before(lo, p + n);
}

// Every argument before anything runs: a call that throws has written nothing. Messages are built only for a throw.
// An output over the arrays of spans themselves is refused: the lanes read msgs[j] and outs[j] after earlier
// outputs are written, so such an output would turn digest bytes into pointers (the header promises that nothing
// outside the spans is written).
template <Family F>
void check_many(Algorithm alg, const ManyStart<F>& start, Messages msgs, Outputs outs) {
  if (msgs.size() != outs.size())
    throw Error(Errc::bad_output_length,
                std::to_string(msgs.size()) + " messages but " + std::to_string(outs.size()) + " outputs");
  const bool any_length = is_xof(alg);
  const std::size_t digest = digest_size(alg);
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    if (overlaps_array(outs[i].data(), outs[i].size(), msgs) || overlaps_array(outs[i].data(), outs[i].size(), outs))
      throw Error(Errc::bad_output_length,
                  nth("output", i) + " overlaps the array of message or output spans passed to hash_many");
    if (msgs[i].data() == nullptr && !msgs[i].empty())
      internal::check_pointer(nullptr, msgs[i].size(), nth("message", i));
    if (!any_length && outs[i].size() != digest)
      check_nth("output", i, [&] { internal::check_output_length(alg, outs[i].size()); });
    if (outs[i].data() == nullptr && !outs[i].empty())
      internal::check_pointer(nullptr, outs[i].size(), nth("output", i));
    if constexpr (F != Family::keccak) {
      detail::StateOf<F> probe;  // only the counters: md_count reads nothing else
      probe.bytes_lo = start.state.bytes_lo;
      probe.bytes_hi = start.state.bytes_hi;
      if (!internal::md_count(probe, msgs[i].size())) check_nth("message", i, [&] { internal::throw_too_long(alg); });
    }
  }
}

// One message from the start state through the row's single-stream functions (a row without lanes).
template <Family F>
void one_message(Algorithm alg, const BackendOf<F>& be, const ManyStart<F>& start, bool fresh, const ManyJob& job) {
  if constexpr (F == Family::keccak) {
    // The row's one-shot hook (CPACF KLMD) where a fresh message allows it, as hash() does.
    if (fresh && be.digest && be.digest(alg, job.data, job.len, job.out, job.outlen)) return;
  }
  using Framing = internal::Framing<F>;
  detail::StateOf<F> s = start.state;
  if (job.len) Framing::absorb(s, be, job.data, job.len);  // checked with the others; an empty one may be null
  Framing::finish(s, be, job.out, job.outlen);
  internal::secure_zero(&s, sizeof s);
}

// Which code runs (docs/design.md "Many messages"): a named row alone, its lanes if the messages reach its
// min_busy; by default the first row with lanes whose min_busy they reach, with the single-message default for
// what the lanes leave, else the single-message default alone.
template <Family F>
struct ManyRows {
  const BackendOf<F>* lanes;  // null: one message at a time
  const BackendOf<F>* single;
};

template <Family F>
ManyRows<F> many_rows(const BackendInfo* named, std::size_t count) {
  if (named) {
    const BackendOf<F>& row = internal::row_of<F>(named);
    return {row.multi.lanes != 0 && count >= row.multi.min_busy ? &row : nullptr, &row};
  }
  const BackendOf<F>* single = &internal::default_backend<F>();
  for (const BackendOf<F>* row : internal::default_many_rows<F>())
    if (count >= row->multi.min_busy) return {row, single};
  return {nullptr, single};
}

template <Family F>
void run_many(Algorithm alg, const ManyRows<F>& rows, ManyStart<F>& start, bool fresh, Messages msgs, Outputs outs) {
  try {
    check_many<F>(alg, start, msgs, outs);
  } catch (...) {
    internal::secure_zero(&start, sizeof start);  // a prefix's state
    throw;
  }
  if constexpr (F != Family::keccak) internal::md_flush_whole_blocks(start.state, *rows.single);
  const auto job_at = [&](std::size_t i) {
    return ManyJob{msgs[i].data(), msgs[i].size(), outs[i].data(), outs[i].size()};
  };
  if (rows.lanes) {
    internal::run_lanes<F>(*rows.lanes, *rows.single, start, msgs.size(), job_at);
  } else {
    for (std::size_t i = 0; i < msgs.size(); ++i) one_message<F>(alg, *rows.single, start, fresh, job_at(i));
  }
  internal::secure_zero(&start, sizeof start);
}

// From the algorithm's empty message, on the default rows or a named one.
void many_from_scratch(Algorithm alg, const BackendInfo* named, Messages msgs, Outputs outs) {
  const internal::AlgorithmSpec& spec = internal::spec(alg);
  visit_family(spec.family, [&]<class T>(T) {
    constexpr Family F = T::kFamily;
    const ManyRows<F> rows = many_rows<F>(named, msgs.size());
    ManyStart<F> start{{}, spec.block};
    internal::Framing<F>::init(start.state, spec);
    run_many<F>(alg, rows, start, true, msgs, outs);
  });
}

// Every allocation is made before anything is hashed; one that fails is an Error like every other refusal
// (Errc::bad_output_length, as output_buffer() says for one output too large), never std::bad_alloc.
std::vector<std::vector<std::uint8_t>> many_vectors(Algorithm alg, Messages msgs, std::size_t outlen) {
  internal::check_output_length(alg, outlen);  // with no messages too: the same length is wrong for any count
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<std::span<std::uint8_t>> spans;
  try {
    out.reserve(msgs.size());
    for (std::size_t i = 0; i < msgs.size(); ++i) out.emplace_back(outlen);
    spans.assign(out.begin(), out.end());
  } catch (const std::exception&) {  // std::bad_alloc, std::length_error
    throw Error(Errc::bad_output_length, "cannot allocate " + std::to_string(msgs.size()) + " outputs of " +
                                             std::to_string(outlen) + " bytes of " + std::string(name(alg)) +
                                             "; pass output spans instead");
  }
  hash_many(alg, msgs, spans);
  return out;
}

}  // namespace

void hash_many(Algorithm alg, Messages msgs, Outputs outs) { many_from_scratch(alg, nullptr, msgs, outs); }

void hash_many(Algorithm alg, std::string_view backend, Messages msgs, Outputs outs) {
  // Unknown and unavailable names throw first.
  many_from_scratch(alg, internal::named_backend_info(family_of(alg), backend), msgs, outs);
}

void hash_many(const Hasher& prefix, Messages msgs, Outputs outs) {
  prefix.check_usable(true);  // finalized, or a SHAKE context that started squeezing
  const Algorithm alg = prefix.alg_;
  visit_family(family_of(alg), [&]<class T>(T) {
    constexpr Family F = T::kFamily;
    const ManyRows<F> rows = many_rows<F>(prefix.named_ ? prefix.backend_ : nullptr, msgs.size());
    ManyStart<F> start{{}, internal::spec(alg).block};
    if constexpr (F == Family::sha256)
      start.state = prefix.u_.s256;
    else if constexpr (F == Family::sha512)
      start.state = prefix.u_.s512;
    else
      start.state = prefix.u_.keccak;
    run_many<F>(alg, rows, start, false, msgs, outs);
  });
}

std::vector<std::vector<std::uint8_t>> hash_many(Algorithm alg, Messages msgs) {
  return many_vectors(alg, msgs, digest_size(alg));
}

std::vector<std::vector<std::uint8_t>> hash_many(Algorithm alg, Messages msgs, std::size_t outlen) {
  return many_vectors(alg, msgs, outlen);
}

}  // namespace shakedown
