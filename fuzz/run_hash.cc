// fuzz_hash executor: the plan on every backend (with clone and handoff), through the C++ contexts and the C entry
// points (shakedown/c.h), vs OpenSSL EVP one-shot and generic.
#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "run_context.h"
#include "runners.h"
#include "shakedown/c.h"
#include "shakedown/shakedown.h"
#include "shakedown/testing.h"
#include "support.h"  // tests/: the OpenSSL oracle

namespace shakedown::fuzz {
namespace {

struct RunOutput {
  std::string label;
  std::vector<std::uint8_t> out;      // the buffer the run wrote: its output is out[out_at..]
  std::string error;                  // non-empty: the run threw, which no valid plan should make it do
  std::vector<std::string> backends;  // who produced out
  std::size_t out_at = 0;
  // Compared where it was written: no second allocation and copy per run (each one an ASan-tracked malloc).
  std::span<const std::uint8_t> bytes() const { return std::span<const std::uint8_t>(out).subspan(out_at); }
};

// Output written at plan.out_align inside a buffer that ends exactly where the output does, so that
// ASan flags any write past it. Returns the whole buffer (the output is its last output_size() bytes).
std::vector<std::uint8_t> finish(Hasher& h, const HashPlan& p) {
  std::vector<std::uint8_t> buf(p.out_align + p.output_size());
  std::uint8_t* out = buf.data() + p.out_align;
  if (!is_xof(p.alg)) {
    h.final(out, p.output_size());
  } else {
    for (std::size_t n : p.squeezes) {
      h.squeeze(out, n);
      out += n;
    }
    if (p.final_len) h.final(out, *p.final_len);
  }
  return buf;
}

std::vector<std::uint8_t> finish(Hmac& h, const HashPlan& p) {
  std::vector<std::uint8_t> buf(p.out_align + p.tag_len);
  h.final(std::span<std::uint8_t>(buf.data() + p.out_align, p.tag_len));
  return buf;
}

// Feeds the chunks to ctx (and to its clone once made), rebinding ctx before chunk handoff_before.
template <class Ctx>
void run_contexts(const HashPlan& p, Ctx ctx, const std::uint8_t* msg, std::string label, const std::string* handoff_to,
                  std::vector<RunOutput>& results) {
  std::optional<Ctx> clone;
  std::string clone_label;
  std::vector<std::string> backends{label}, clone_backends;
  std::size_t offset = 0;
  for (std::size_t i = 0; i <= p.chunks.size(); ++i) {
    if (p.clone_before == i) {
      clone.emplace(ctx);
      clone_label = "clone of " + label + " before update #" + std::to_string(i) + (handoff_to ? " (handoff run)" : "");
      clone_backends = backends;
    }
    if constexpr (std::is_same_v<Ctx, Hasher>) {
      if (handoff_to && p.handoff_before == i) {
        testing::rebind(ctx, *handoff_to);
        label += " -> " + *handoff_to + " before update #" + std::to_string(i);
        if (*handoff_to != backends.front()) backends.push_back(*handoff_to);
      }
    }
    if (i == p.chunks.size()) break;
    ctx.update(msg + offset, p.chunks[i]);
    if (clone) clone->update(msg + offset, p.chunks[i]);
    offset += p.chunks[i];
  }
  results.push_back({label, finish(ctx, p), {}, backends, p.out_align});
  if (clone) results.push_back({clone_label, finish(*clone, p), {}, clone_backends, p.out_align});
}

void run_backend(const HashPlan& p, const std::string& backend, const std::string* handoff_to, const std::uint8_t* msg,
                 std::vector<RunOutput>& results) {
  try {
    if (p.hmac)
      run_contexts(p, Hmac(p.alg, p.key, backend), msg, backend, nullptr, results);
    else
      run_contexts(p, Hasher(p.alg, backend), msg, backend, handoff_to, results);
  } catch (const std::exception& e) {
    results.push_back({backend, {}, std::string("threw: ") + e.what(), {backend}});
  }
}

// ---- The same plan through the C entry points: contexts in C storage, copy for the clone, status codes (no
// handoff: the C API has no rebind). A status other than SHAKEDOWN_OK is a divergence, as an exception is above. ----

void check_c(int status, const char* call) {
  if (status != SHAKEDOWN_OK)
    throw std::runtime_error(std::string(call) + " returned " + shakedown_status_name(status) + " (" +
                             shakedown_last_error() + ")");
}

// The functions of one C context kind.
struct CHash {
  using Ctx = shakedown_hash_ctx;
  static int update(Ctx* c, const void* d, std::size_t n) { return shakedown_hash_update(c, d, n); }
  static int copy(Ctx* to, const Ctx* from) { return shakedown_hash_copy(to, from); }
  static void cleanup(Ctx* c) { shakedown_hash_cleanup(c); }
};
struct CXof {
  using Ctx = shakedown_xof_ctx;
  static int update(Ctx* c, const void* d, std::size_t n) { return shakedown_xof_update(c, d, n); }
  static int copy(Ctx* to, const Ctx* from) { return shakedown_xof_copy(to, from); }
  static void cleanup(Ctx* c) { shakedown_xof_cleanup(c); }
};
struct CHmac {
  using Ctx = shakedown_hmac_ctx;
  static int update(Ctx* c, const void* d, std::size_t n) { return shakedown_hmac_update(c, d, n); }
  static int copy(Ctx* to, const Ctx* from) { return shakedown_hmac_copy(to, from); }
  static void cleanup(Ctx* c) { shakedown_hmac_cleanup(c); }
};

// Output of `finish(ctx, out)` written at out_align in a buffer that ends where the output does (as finish() above);
// the whole buffer.
template <class Ctx, class Finish>
std::vector<std::uint8_t> finish_c(Ctx* ctx, std::size_t out_align, std::size_t len, Finish finish) {
  std::vector<std::uint8_t> buf(out_align + len);
  finish(ctx, buf.data() + out_align);
  return buf;
}

template <class C, class Init, class Finish>
void run_c_contexts(const HashPlan& p, Init init, std::size_t out_len, Finish finish, const std::uint8_t* msg,
                    const std::string& label, std::vector<RunOutput>& results) {
  typename C::Ctx ctx{}, clone{};
  struct Cleanup {
    typename C::Ctx *a, *b;
    ~Cleanup() { C::cleanup(a), C::cleanup(b); }
  } cleanup{&ctx, &clone};
  check_c(init(&ctx), "init");
  bool cloned = false;
  std::size_t offset = 0;
  for (std::size_t i = 0; i <= p.chunks.size(); ++i) {
    if (p.clone_before == i) {
      check_c(C::copy(&clone, &ctx), "copy");
      cloned = true;
    }
    if (i == p.chunks.size()) break;
    check_c(C::update(&ctx, msg + offset, p.chunks[i]), "update");
    if (cloned) check_c(C::update(&clone, msg + offset, p.chunks[i]), "update (clone)");
    offset += p.chunks[i];
  }
  results.push_back({label, finish_c(&ctx, p.out_align, out_len, finish), {}, {}, p.out_align});
  if (cloned)
    results.push_back({"clone of " + label + " before update #" + std::to_string(*p.clone_before),
                       finish_c(&clone, p.out_align, out_len, finish),
                       {},
                       {},
                       p.out_align});
}

void run_backend_c(const HashPlan& p, const std::string& backend, const std::uint8_t* msg,
                   std::vector<RunOutput>& results) {
  const std::string label = "C API on " + backend;
  const auto alg = static_cast<shakedown_algorithm>(p.alg);
  const std::size_t first = results.size();
  try {
    if (p.hmac) {
      run_c_contexts<CHmac>(
          p,
          [&](shakedown_hmac_ctx* c) {
            return shakedown_hmac_init(c, alg, p.key.data(), p.key.size(), backend.c_str());
          },
          p.tag_len,
          [&](shakedown_hmac_ctx* c, std::uint8_t* out) {
            check_c(shakedown_hmac_final(c, out, p.tag_len), "hmac_final");
          },
          msg, label, results);
    } else if (is_xof(p.alg)) {
      // The squeezes, then final(len) as one more squeeze: the same output stream (FIPS 202 §4, Algorithm 8).
      run_c_contexts<CXof>(
          p, [&](shakedown_xof_ctx* c) { return shakedown_xof_init(c, alg, backend.c_str()); }, p.output_size(),
          [&](shakedown_xof_ctx* c, std::uint8_t* out) {
            for (std::size_t n : p.squeezes) {
              check_c(shakedown_xof_squeeze(c, out, n), "xof_squeeze");
              out += n;
            }
            if (p.final_len) check_c(shakedown_xof_squeeze(c, out, *p.final_len), "xof_squeeze (final)");
          },
          msg, label, results);
    } else {
      run_c_contexts<CHash>(
          p, [&](shakedown_hash_ctx* c) { return shakedown_hash_init(c, alg, backend.c_str()); }, p.output_size(),
          [&](shakedown_hash_ctx* c, std::uint8_t* out) {
            check_c(shakedown_hash_final(c, out, p.output_size()), "hash_final");
          },
          msg, label, results);
    }
  } catch (const std::exception& e) {
    results.push_back({label, {}, std::string("threw: ") + e.what(), {}});
  }
  for (std::size_t i = first; i < results.size(); ++i) results[i].backends = {backend};  // the C runs' producer
}

// The one-shot entry points take a separate code path (no Hasher for hash(); KLMD hooks).
void run_oneshot(const HashPlan& p, const std::uint8_t* msg, std::vector<RunOutput>& results) {
  const std::string backend(selected_backend(family_of(p.alg)));
  const std::string label = "one-shot " + std::string(p.hmac ? "hmac()" : "hash()") + " on " + backend;
  try {
    std::vector<std::uint8_t> out;
    std::size_t out_at = 0;
    if (p.hmac) {
      out = hmac(p.alg, p.key, std::span<const std::uint8_t>(msg, p.message.size()));
      out.resize(p.tag_len);
    } else {
      out.resize(p.out_align + p.output_size());
      hash(p.alg, msg, p.message.size(), out.data() + p.out_align, p.output_size());
      out_at = p.out_align;
    }
    results.push_back({label, std::move(out), {}, {backend}, out_at});
  } catch (const std::exception& e) {
    results.push_back({label, {}, std::string("threw: ") + e.what(), {backend}});
  }
  const std::string c_label = "C API one-shot " + std::string(p.hmac ? "shakedown_hmac()" : "shakedown_hash()");
  try {
    const auto alg = static_cast<shakedown_algorithm>(p.alg);
    const std::size_t len = p.hmac ? p.tag_len : p.output_size();
    std::vector<std::uint8_t> buf(p.out_align + len);
    std::uint8_t* out = buf.data() + p.out_align;
    if (p.hmac)
      check_c(shakedown_hmac(alg, p.key.data(), p.key.size(), msg, p.message.size(), out, len), "shakedown_hmac");
    else
      check_c(shakedown_hash(alg, msg, p.message.size(), out, len), "shakedown_hash");
    results.push_back({c_label, std::move(buf), {}, {backend}, p.out_align});
  } catch (const std::exception& e) {
    results.push_back({c_label, {}, std::string("threw: ") + e.what(), {backend}});
  }
}

}  // namespace

Verdict run_hash_plan(const HashPlan& p) {
  Verdict v;
  v.subject = std::string(p.hmac ? "HMAC-" : "") + std::string(name(p.alg));
  v.reference = p.hmac ? "OpenSSL EVP_MAC one-shot" : "OpenSSL EVP one-shot";
  v.family = family_of(p.alg);
  std::vector<std::uint8_t> want;
  if (p.hmac) {
    want = test::openssl_hmac(p.alg, p.key, p.message);
    want.resize(p.tag_len);
  } else {
    want = test::openssl_digest(p.alg, p.message, p.output_size());
  }

  // The message sits at data_align in a buffer that ends with it: reads past the end are caught.
  std::vector<std::uint8_t> input(p.data_align + p.message.size());
  std::copy(p.message.begin(), p.message.end(), input.begin() + static_cast<std::ptrdiff_t>(p.data_align));
  const std::uint8_t* msg = input.data() + p.data_align;

  const auto& names = backends_of(family_of(p.alg));
  std::vector<RunOutput> results;
  results.reserve(6 * names.size() + 2);  // per backend <= 3 runs and their clones; the two one-shots: no regrowth
  std::optional<std::span<const std::uint8_t>> generic_out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string* handoff_to = p.handoff_before && !p.hmac && names.size() > 1
                                        ? &names[(i + 1 + p.handoff_step % (names.size() - 1)) % names.size()]
                                        : nullptr;
    // The plain run first (no handoff): it attributes a divergence to one backend on its own.
    if (handoff_to) run_backend(p, names[i], nullptr, msg, results);
    run_backend(p, names[i], handoff_to, msg, results);
    run_backend_c(p, names[i], msg, results);
    count_run(family_of(p.alg), i);
  }
  run_oneshot(p, msg, results);
  for (const auto& r : results)  // after the last push_back: the span points into results' buffers
    if (r.label == "generic" && r.error.empty()) generic_out = r.bytes();

  // The results are not read after this loop: their labels and backend lists move into the verdict.
  v.agreeing.reserve(results.size());
  for (auto& r : results) {
    if (!r.error.empty()) {
      v.divergences.push_back({std::move(r.label), std::move(r.error), {}, {}, std::move(r.backends)});
    } else if (!std::ranges::equal(r.bytes(), want)) {
      std::string problem = "output differs from " + v.reference;
      if (generic_out && r.label != "generic")
        problem += std::ranges::equal(*generic_out, r.bytes()) ? " (but matches generic)" : " and from generic";
      const std::span<const std::uint8_t> got = r.bytes();
      v.divergences.push_back({std::move(r.label), problem, {got.begin(), got.end()}, want, std::move(r.backends)});
    } else {
      v.agreeing.push_back(std::move(r.label));
    }
  }
  return v;
}

}  // namespace shakedown::fuzz
