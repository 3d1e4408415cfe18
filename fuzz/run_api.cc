// fuzz_api executor: runs the operation sequence against a model of the documented contract
// (error codes of hash.h / hmac.h / backend.h, outputs from OpenSSL) and checks contexts stay intact.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "api_choices.h"
#include "run_context.h"
#include "runners.h"
#include "shakedown/shakedown.h"
#include "shakedown/testing.h"
#include "support.h"  // tests/: the OpenSSL oracle

namespace shakedown::fuzz {
namespace {

using Kind = ApiOp::Kind;
using Errs = std::vector<Errc>;  // the codes the contract allows here; empty: the call must succeed

constexpr std::string_view kUnknownBackend = "no-such-backend";

struct HasherModel {
  enum class Phase { absorbing, squeezing, finalized };
  Algorithm alg;
  std::string backend;
  Phase phase = Phase::absorbing;
  std::vector<std::uint8_t> msg;
  std::size_t squeezed = 0;
};

struct HmacModel {
  Algorithm alg;
  std::vector<std::uint8_t> key;
  std::vector<std::uint8_t> msg;
  bool finalized = false;
  bool moved_from = false;  // its keyed states went with the move: finalized for good, reset() included
};

// A compiled backend of the family that this CPU cannot run, if there is one.
std::optional<std::string> unavailable_backend(Family f) {
  const auto& avail = backends_of(f);
  return visit_family(f, [&]<class T>(T) -> std::optional<std::string> {
    for (const auto& b : compiled_backends<T::kFamily>())
      if (std::find(avail.begin(), avail.end(), b.info.name) == avail.end()) return std::string(b.info.name);
    return std::nullopt;
  });
}

std::vector<std::uint8_t> xof_slice(Algorithm alg, const std::vector<std::uint8_t>& msg, std::size_t from,
                                    std::size_t len) {
  std::vector<std::uint8_t> all = test::openssl_digest(alg, msg, from + len);
  return {all.begin() + static_cast<std::ptrdiff_t>(from), all.end()};
}

std::string codes(const Errs& errs) {
  std::string s;
  for (Errc e : errs) s += (s.empty() ? "" : " or ") + std::string("Errc::") + std::string(errc_name(e));
  return s.empty() ? "success" : s;
}

class ApiRun {
 public:
  Verdict verdict;

  bool step(std::size_t index, const ApiOp& op) {
    index_ = index;
    op_ = &op;
    run(op);
    if (verdict.ok()) check_invariants();
    return verdict.ok();
  }

 private:
  std::array<std::optional<Hasher>, kHasherSlots> hashers_;
  std::array<std::optional<HasherModel>, kHasherSlots> hasher_models_;
  std::array<std::optional<Hmac>, kHmacSlots> hmacs_;
  std::array<std::optional<HmacModel>, kHmacSlots> hmac_models_;
  // The operation being run; described only when something fails (describe() is costly per op).
  std::size_t index_ = 0;
  const ApiOp* op_ = nullptr;

  void fail(const std::string& problem, std::vector<std::uint8_t> got = {}, std::vector<std::uint8_t> want = {}) {
    verdict.divergences.push_back(
        {"op #" + std::to_string(index_) + " " + describe(*op_), problem, std::move(got), std::move(want), {}});
  }

  // Runs call; true when it succeeded and success was expected. A thrown Error whose code is in
  // `allowed` is the documented outcome (false, no divergence); anything else is a divergence.
  template <class Call>
  bool expect(const Errs& allowed, Call&& call) {
    try {
      call();
    } catch (const Error& e) {
      if (std::find(allowed.begin(), allowed.end(), e.code()) == allowed.end())
        fail("threw Errc::" + std::string(errc_name(e.code())) + " (" + e.what() + "), contract says " +
             codes(allowed));
      return false;
    } catch (const std::exception& e) {
      fail(std::string("threw a non-shakedown exception: ") + e.what());
      return false;
    }
    if (!allowed.empty()) fail("succeeded, contract says " + codes(allowed));
    return allowed.empty();
  }

  void compare(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want, const char* what) {
    if (got != want) fail(std::string(what) + " differs from OpenSSL", got, want);
  }

  std::string backend_choice(Family f, std::uint8_t choice) {
    const auto& names = backends_of(f);
    return names[choice % names.size()];
  }

  // One operation: on an empty slot it is skipped (the plan is still valid); else the kind's own method.
  void run(const ApiOp& op) {
    Hasher* h = op.slot < hashers_.size() && hashers_[op.slot] ? &*hashers_[op.slot] : nullptr;
    Hmac* m = op.slot < hmacs_.size() && hmacs_[op.slot] ? &*hmacs_[op.slot] : nullptr;
    const bool hmac_op = op.kind >= Kind::hmac_create && op.kind <= Kind::hmac_reset;
    const bool needs_slot = op.kind != Kind::create && op.kind != Kind::hmac_create && op.kind != Kind::oneshot &&
                            op.kind != Kind::environment && op.kind != Kind::parse_name;
    if (needs_slot && (hmac_op ? !m : !h)) return;
    HasherModel* hm = h ? &*hasher_models_[op.slot] : nullptr;
    HmacModel* mm = m ? &*hmac_models_[op.slot] : nullptr;
    switch (op.kind) {
      case Kind::create: return create(op);
      case Kind::update:
      case Kind::update_null: return update(op, *h, *hm);
      case Kind::final: return final(op, *h, *hm);
      case Kind::squeeze: return squeeze(op, *h, *hm);
      case Kind::clone: return clone(op, *h, *hm);
      case Kind::reset:
        h->reset();
        *hm = HasherModel{hm->alg, hm->backend, HasherModel::Phase::absorbing, {}, 0};
        return;
      case Kind::rebind: return rebind(op, *h, *hm);
      case Kind::hmac_create: return hmac_create(op);
      case Kind::hmac_update:
        if (expect(mm->finalized ? Errs{Errc::finalized} : Errs{}, [&] { m->update(op.bytes); }))
          mm->msg.insert(mm->msg.end(), op.bytes.begin(), op.bytes.end());
        return;
      case Kind::hmac_final: return hmac_final(op, *m, *mm);
      case Kind::hmac_verify: return hmac_verify(op, *m, *mm);
      case Kind::hmac_clone: return hmac_clone(op, *m, *mm);
      case Kind::hmac_reset:
        m->reset();
        mm->msg.clear();
        mm->finalized = mm->moved_from;
        return;
      case Kind::oneshot: return oneshot(op);
      case Kind::environment: return check_environment_string(std::string(op.bytes.begin(), op.bytes.end()));
      case Kind::parse_name: return check_parse(std::string(op.bytes.begin(), op.bytes.end()));
      case Kind::count_: return;
    }
  }

  // The errors any use of a Hasher slot may hit in its current phase.
  static Errs usable(const HasherModel& hm) {
    return hm.phase == HasherModel::Phase::finalized ? Errs{Errc::finalized} : Errs{};
  }

  void create(const ApiOp& op) {
    using api_choice::Backend;
    const Family f = family_of(op.alg);
    std::optional<std::string> named;
    Errs allowed;
    switch (api_choice::create_backend(op.choice)) {
      case Backend::named: named = backend_choice(f, op.choice); break;
      case Backend::unknown_name: named = std::string(kUnknownBackend), allowed = {Errc::unknown_backend}; break;
      case Backend::unavailable_name:
        named = unavailable_backend(f).value_or("generic");
        if (*named != "generic") allowed = {Errc::backend_unavailable};
        break;
      case Backend::selected:
      case Backend::empty_name: break;
    }
    std::optional<Hasher> made;
    if (expect(allowed, [&] { made.emplace(named ? Hasher(op.alg, *named) : Hasher(op.alg)); })) {
      hashers_[op.slot] = *made;
      hasher_models_[op.slot] =
          HasherModel{op.alg, named.value_or(std::string(selected_backend(f))), HasherModel::Phase::absorbing, {}, 0};
    }
  }

  void update(const ApiOp& op, Hasher& h, HasherModel& hm) {
    Errs allowed = usable(hm);
    if (hm.phase == HasherModel::Phase::squeezing) allowed.push_back(Errc::wrong_phase);
    const bool null = op.kind == Kind::update_null;
    const std::size_t len = null ? op.choice : op.bytes.size();  // update_null: the choice is the length
    if (null && len) allowed.push_back(Errc::null_pointer);
    if (expect(allowed, [&] { h.update(null ? nullptr : op.bytes.data(), len); }))
      hm.msg.insert(hm.msg.end(), op.bytes.begin(), op.bytes.end());
  }

  void final(const ApiOp& op, Hasher& h, HasherModel& hm) {
    using api_choice::Output;
    const bool xof = is_xof(hm.alg);
    const std::size_t right = xof ? op.len : digest_size(hm.alg);
    std::size_t outlen = right;
    const Output variant = api_choice::final_output(op.choice);
    if (variant == Output::zero) outlen = 0;
    if (variant == Output::one_more) outlen = right + 1;
    if (variant == Output::one_less) outlen = right ? right - 1 : 0;
    const bool null = variant == Output::null;
    Errs allowed = usable(hm);
    if (!xof && outlen != digest_size(hm.alg)) allowed.push_back(Errc::bad_output_length);
    if (null && outlen) allowed.push_back(Errc::null_pointer);
    std::vector<std::uint8_t> out(outlen);
    if (expect(allowed, [&] { h.final(null ? nullptr : out.data(), outlen); })) {
      compare(out, xof ? xof_slice(hm.alg, hm.msg, hm.squeezed, outlen) : test::openssl_digest(hm.alg, hm.msg),
              "final() output");
      hm.phase = HasherModel::Phase::finalized;
    }
  }

  void squeeze(const ApiOp& op, Hasher& h, HasherModel& hm) {
    Errs allowed = usable(hm);
    if (!is_xof(hm.alg)) allowed.push_back(Errc::not_xof);
    const bool null = api_choice::squeeze_to_null(op.choice);
    if (null && op.len) allowed.push_back(Errc::null_pointer);
    std::vector<std::uint8_t> out(op.len);
    if (expect(allowed, [&] { h.squeeze(null ? nullptr : out.data(), op.len); })) {
      compare(out, xof_slice(hm.alg, hm.msg, hm.squeezed, op.len), "squeeze() output");
      hm.squeezed += op.len;
      hm.phase = HasherModel::Phase::squeezing;
    }
  }

  void clone(const ApiOp& op, Hasher& h, HasherModel& hm) {
    if (!api_choice::clone_moves(op.choice) || op.slot2 == op.slot) {
      hashers_[op.slot2] = h;  // copy assignment: a mid-stream clone (or a self-move, which changes nothing)
      hasher_models_[op.slot2] = hm;
      return;
    }
    hashers_[op.slot2] = std::move(h);  // a move leaves nothing of the state behind (hash.h)
    hasher_models_[op.slot2] = hm;
    hm = HasherModel{hm.alg, hm.backend, HasherModel::Phase::finalized, {}, 0};
    if (!std::ranges::all_of(testing::raw_state(h), [](std::uint8_t b) { return b == 0; }))
      fail("the moved-from Hasher still holds state bytes");
  }

  void rebind(const ApiOp& op, Hasher& h, HasherModel& hm) {
    const bool unknown = api_choice::rebind_to_unknown(op.choice);
    const std::string target = unknown ? std::string(kUnknownBackend) : backend_choice(family_of(hm.alg), op.choice);
    if (expect(unknown ? Errs{Errc::unknown_backend} : Errs{}, [&] { testing::rebind(h, target); }))
      hm.backend = target;
  }

  void hmac_create(const ApiOp& op) {
    using api_choice::Backend;
    std::optional<std::string> backend;
    const Backend choice = api_choice::hmac_backend(op.choice);
    if (choice == Backend::named) backend = backend_choice(family_of(op.alg), op.choice);
    if (choice == Backend::empty_name) backend = std::string();
    Errs allowed;
    if (is_xof(op.alg))
      allowed = {Errc::not_hmac_capable};
    else if (backend && backend->empty())
      allowed = {Errc::unknown_backend};
    std::optional<Hmac> made;
    if (expect(allowed, [&] { made.emplace(backend ? Hmac(op.alg, op.bytes, *backend) : Hmac(op.alg, op.bytes)); })) {
      hmacs_[op.slot] = *made;
      hmac_models_[op.slot] = HmacModel{op.alg, op.bytes, {}};
    }
  }

  void hmac_final(const ApiOp& op, Hmac& m, HmacModel& mm) {
    const std::size_t full = digest_size(mm.alg);
    const std::size_t taglen = api_choice::hmac_tag_length(op.choice, full);
    Errs allowed;
    if (mm.finalized) allowed.push_back(Errc::finalized);
    if (taglen == 0 || taglen > full) allowed.push_back(Errc::bad_output_length);
    std::vector<std::uint8_t> out(taglen);
    if (expect(allowed, [&] { m.final(out); })) {
      std::vector<std::uint8_t> want = test::openssl_hmac(mm.alg, mm.key, mm.msg);
      want.resize(taglen);
      compare(out, want, "HMAC tag");
      mm.finalized = true;
    }
  }

  // verify(tag) accepts exactly the full tag; truncation only through verify_truncated, whose expected length the
  // verifier states and which refuses lengths below max(10, L/2) (RFC 2104 section 5, hmac.h).
  void hmac_verify(const ApiOp& op, Hmac& m, HmacModel& mm) {
    using api_choice::Tag;
    std::vector<std::uint8_t> tag = test::openssl_hmac(mm.alg, mm.key, mm.msg);
    const std::size_t full = tag.size(), min = Hmac::min_truncated_length(mm.alg);
    const std::size_t stated = min + op.choice % (full - min + 1);  // a length verify_truncated accepts
    std::optional<std::size_t> expected_len;                        // set: verify_truncated(tag, *expected_len)
    bool right = true;
    Errs allowed = mm.finalized ? Errs{Errc::finalized} : Errs{};
    switch (api_choice::verify_tag(op.choice)) {
      case Tag::truncated: tag.resize(1 + op.choice % (full - 1)), right = false; break;
      case Tag::flipped: tag[op.choice % tag.size()] ^= 0x01, right = false; break;
      case Tag::empty: tag.clear(), right = false; break;
      case Tag::one_byte_too_long: tag.push_back(0), right = false; break;
      case Tag::truncated_stated: tag.resize(stated), expected_len = stated; break;
      case Tag::shorter_than_stated: tag.resize(stated - 1), expected_len = stated, right = false; break;
      case Tag::stated_below_minimum:  // refused before anything changes
        tag.resize(min - 1), expected_len = min - 1;
        allowed.push_back(Errc::bad_output_length);
        break;
      case Tag::right: break;
    }
    bool said = false;
    if (expect(allowed, [&] { said = expected_len ? m.verify_truncated(tag, *expected_len) : m.verify(tag); })) {
      if (said != right)
        fail(std::string(expected_len ? "verify_truncated()" : "verify()") + " returned " + (said ? "true" : "false"));
      mm.finalized = true;
    }
  }

  void hmac_clone(const ApiOp& op, Hmac& m, HmacModel& mm) {
    if (!api_choice::clone_moves(op.choice) || op.slot2 == op.slot) {
      hmacs_[op.slot2] = m;
      hmac_models_[op.slot2] = mm;
      return;
    }
    hmacs_[op.slot2] = std::move(m);  // the source loses its key: finalized for good
    hmac_models_[op.slot2] = mm;
    mm = HmacModel{mm.alg, {}, {}, true, true};
  }

  void oneshot(const ApiOp& op) {
    const std::size_t outlen =
        api_choice::oneshot_right_length(op.choice) && !is_xof(op.alg) ? digest_size(op.alg) : op.len;
    Errs allowed;
    if (!is_xof(op.alg) && outlen != digest_size(op.alg)) allowed = {Errc::bad_output_length};
    std::vector<std::uint8_t> out(outlen);
    if (expect(allowed, [&] { hash(op.alg, op.bytes.data(), op.bytes.size(), out.data(), outlen); }))
      compare(out, test::openssl_digest(op.alg, op.bytes, outlen), "hash() output");
  }

  // A SHAKEDOWN_BACKENDS value is either accepted everywhere or rejected everywhere with
  // Errc::bad_environment (backend.h); accepted selections name available backends. Rejected values
  // are checked through validate_backends_env (no re-selection, so nothing is retained per input);
  // tests/registry_test.cc proves that a rejected value makes every default-bound call throw.
  void check_environment_string(const std::string& text) {
    const std::string verdict_text = testing::validate_backends_env(text);
    if (!verdict_text.empty()) {
      if (verdict_text.find("SHAKEDOWN_BACKENDS") == std::string::npos)
        fail("rejection does not name SHAKEDOWN_BACKENDS: " + verdict_text);
      return;
    }
    struct Restore {
      ~Restore() { testing::reselect(std::nullopt); }
    } restore;
    testing::reselect(text);
    bool accepted = false;
    try {
      check_environment();
      accepted = true;
    } catch (const Error& e) {
      if (e.code() != Errc::bad_environment)
        return fail("check_environment() threw Errc::" + std::string(errc_name(e.code())));
    }
    const Errs allowed = accepted ? Errs{} : Errs{Errc::bad_environment};
    for (Family f : kAllFamilies) {
      const Algorithm alg = f == Family::sha256   ? Algorithm::sha256
                            : f == Family::sha512 ? Algorithm::sha512
                                                  : Algorithm::sha3_256;
      std::optional<Hasher> made;
      if (!expect(allowed, [&] { made.emplace(alg); })) continue;
      const auto& names = backends_of(f);
      if (std::find(names.begin(), names.end(), made->backend_name()) == names.end())
        fail("selected an unavailable backend '" + std::string(made->backend_name()) + "'");
      if (made->backend_name() != selected_backend(f)) fail("Hasher(alg) ignores selected_backend()");
    }
  }

  void check_parse(const std::string& text) {
    if (auto a = parse_algorithm(text)) {
      if (parse_algorithm(name(*a)) != a) fail("name(parse_algorithm(text)) does not parse back");
      Algorithm b{};
      if (expect({}, [&] { b = algorithm_from_name(text); }) && b != *a) fail("algorithm_from_name != parse_algorithm");
    } else {
      expect({Errc::unknown_algorithm}, [&] { (void)algorithm_from_name(text); });
    }
    if (parse_family(text)) {
      expect({}, [&] { (void)family_from_name(text); });
    } else {
      expect({Errc::unknown_family}, [&] { (void)family_from_name(text); });
    }
  }

  // Whatever happened, every live context still says what the model says (no corruption).
  void check_invariants() {
    for (std::size_t i = 0; i < kHasherSlots && verdict.ok(); ++i) {
      if (!hashers_[i]) continue;
      const Hasher& h = *hashers_[i];
      const HasherModel& hm = *hasher_models_[i];
      if (h.algorithm() != hm.alg || h.backend_name() != hm.backend ||
          h.finalized() != (hm.phase == HasherModel::Phase::finalized))
        fail("slot#" + std::to_string(i) + " now says " + std::string(name(h.algorithm())) + " on " +
             std::string(h.backend_name()) + (h.finalized() ? ", finalized" : ", live") +
             "; model: " + std::string(name(hm.alg)) + " on " + hm.backend);
    }
  }
};

}  // namespace

Verdict run_api_plan(const ApiPlan& plan) {
  ApiRun run;
  run.verdict.subject = "API operation sequence (" + std::to_string(plan.ops.size()) + " operations)";
  run.verdict.reference = "documented contract (hash.h, hmac.h, backend.h, error.h) and OpenSSL outputs";
  for (std::size_t i = 0; i < plan.ops.size(); ++i)
    if (!run.step(i, plan.ops[i])) return run.verdict;
  run.verdict.agreeing.push_back("all " + std::to_string(plan.ops.size()) + " operations");
  return run.verdict;
}

}  // namespace shakedown::fuzz
