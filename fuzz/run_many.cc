// fuzz_many executor: hash_many() on every backend by name and by default, each output vs OpenSSL on its message.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "run_context.h"
#include "runners.h"
#include "shakedown/shakedown.h"
#include "support.h"  // tests/: the OpenSSL oracle

namespace shakedown::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The lanes of a named backend run when the messages reach its min_busy (lib/src/hash_many.cc).
bool lanes_run(Family family, const std::string& backend, std::size_t count) {
  return visit_family(family, [&]<class T>(T) {
    const auto& row = shakedown::backend<T::kFamily>(backend);
    return row.multi.lanes != 0 && count >= row.multi.min_busy;
  });
}

// One hash_many() call; each message in a buffer of exactly its size and each output at out_align in a buffer
// that ends where it does, so that ASan flags any access past either. backend empty: the default rows. Returns the
// output buffers themselves (output i is bufs[i][out_align..]): compared in place, not copied once more.
std::vector<Bytes> run_once(const ManyPlan& p, const Bytes& prefix, const std::vector<Bytes>& msgs,
                            const std::string& backend) {
  std::vector<Bytes> bufs;
  std::vector<std::span<std::uint8_t>> outs;
  std::vector<std::span<const std::uint8_t>> in(msgs.begin(), msgs.end());
  for (std::size_t n : p.outlens) bufs.emplace_back(p.out_align + n);
  for (std::size_t i = 0; i < bufs.size(); ++i) outs.emplace_back(bufs[i].data() + p.out_align, p.outlens[i]);
  if (p.prefix) {
    Hasher h = backend.empty() ? Hasher(p.alg) : Hasher(p.alg, backend);
    std::size_t at = 0;
    for (std::size_t c : p.prefix_chunks) {
      h.update(prefix.data() + at, c);
      at += c;
    }
    hash_many(h, in, outs);
  } else if (backend.empty()) {
    hash_many(p.alg, in, outs);
  } else {
    hash_many(p.alg, backend, in, outs);
  }
  return bufs;
}

}  // namespace

Verdict run_many_plan(const ManyPlan& p) {
  Verdict v;
  const Family family = family_of(p.alg);
  v.subject = "hash_many(" + std::string(name(p.alg)) + ") of " + std::to_string(p.lengths.size()) + " messages" +
              (p.prefix ? " after a prefix context" : "");
  v.reference = "OpenSSL EVP one-shot on each message";
  // The prefix and the messages are cut once for every run (they were cut again per message and per run).
  const Bytes prefix = p.prefix_bytes();
  const std::vector<Bytes> msgs = p.messages();
  std::vector<Bytes> want;
  Bytes whole;  // prefix || message i, for OpenSSL's one-shot; one buffer reused
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    whole.assign(prefix.begin(), prefix.end());
    whole.insert(whole.end(), msgs[i].begin(), msgs[i].end());
    want.push_back(test::openssl_digest(p.alg, whole, p.outlens[i]));
  }
  const auto& names = backends_of(family);
  std::vector<std::string> runs(names.begin(), names.end());
  runs.emplace_back();  // the default rows
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::string label = runs[r].empty() ? "default rows (hash_many without a backend)" : runs[r];
    // The backends a wrong output is charged to: the named row, or the one hash_many() chose by default.
    const std::vector<std::string> charged{runs[r].empty() ? std::string(selected_many_backend(family)) : runs[r]};
    try {
      const std::vector<Bytes> bufs = run_once(p, prefix, msgs, runs[r]);
      bool agree = true;
      for (std::size_t i = 0; i < bufs.size(); ++i) {
        const auto got = std::span<const std::uint8_t>(bufs[i]).subspan(p.out_align);
        if (!std::ranges::equal(got, want[i])) {
          agree = false;
          v.divergences.push_back(
              {label + ", message " + std::to_string(i),
               "output differs from " + v.reference + " (" + std::to_string(msgs[i].size()) + "-byte message)",
               Bytes(got.begin(), got.end()), want[i], charged});
        }
      }
      if (agree) v.agreeing.push_back(label);
    } catch (const std::exception& e) {
      v.divergences.push_back({label, std::string("threw: ") + e.what(), {}, {}, charged});
    }
    if (r < names.size()) {
      count_run(family, r);
      if (lanes_run(family, names[r], msgs.size())) count_lanes_run(family, r);
    }
  }
  return v;
}

}  // namespace shakedown::fuzz
