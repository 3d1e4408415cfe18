// Many messages per call: every multi-lane function against the generic single-stream one, and hash_many() on every
// backend against OpenSSL and generic one message at a time, for random counts and unequal lengths.
//
// The records go to suite "multi", and only where a multi-lane function ran (the backend coverage gate asks for it
// where one must run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "diff_support.h"
#include "families.h"
#include "reference.h"
#include "shakedown/testing.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;
using test::openssl_digest;
using test::to_hex;

constexpr std::string_view kMultiSuite = "multi";

// Lanes of a backend's multi-lane function (0: none), and the fewest messages for which hash_many() on it by name
// runs them (lib/src/hash_many.cc; SIZE_MAX: never).
std::size_t lanes_of(Family family, std::string_view backend) {
  return visit_family(family, [&]<class T>(T) -> std::size_t {
    return shakedown::backend<T::kFamily>(backend).multi.lanes;
  });
}
std::size_t lanes_from(Family family, std::string_view backend) {
  return visit_family(family, [&]<class T>(T) -> std::size_t {
    const auto& m = shakedown::backend<T::kFamily>(backend).multi;
    return m.lanes ? m.min_busy : SIZE_MAX;
  });
}

std::vector<test::FamilyBackend> multi_lane_backends() {
  std::vector<test::FamilyBackend> out;
  for (const auto& p : test::all_family_backends())
    if (lanes_of(p.family, p.backend) != 0) out.push_back(p);
  return out;
}

void record_multi(const test::FamilyBackend& p, std::string_view check, std::uint64_t count) {
  test::record(kMultiSuite, p.family, p.backend, check, count);
}
void record_multi(const test::AlgBackend& p, std::string_view check, std::uint64_t count) {
  test::record(kMultiSuite, p.alg, p.backend, check, count);
}

// Each lane's bytes in a buffer of its own, against a guard page: flush with its end (over-reads fault) or, on odd
// lanes of odd iterations, an odd offset after the leading one (misaligned loads, under-reads fault).
struct GuardedLane {
  std::unique_ptr<GuardedBuffer> buf;
  std::uint8_t* data;
  GuardedLane(std::span<const std::uint8_t> bytes, bool at_start, std::size_t offset)
      : buf(std::make_unique<GuardedBuffer>(bytes.size() + (at_start ? offset : 0), !at_start)),
        data(buf->data() + (at_start ? offset : 0)) {
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  }
};

// ---- The multi-lane functions themselves ----

class ManyBlockDiff : public ::testing::TestWithParam<test::FamilyBackend> {};

// The FIPS 202 rates, and two whole-lane rates no FIPS 202 instance uses (one lane; 24 of the 25): the seam takes
// any rate (backend.h), and a backend that dispatches on the FIPS rates has a general path for the others.
inline constexpr std::size_t kMultiLaneRates[] = {168, 144, 136, 104, 72, 8, 192};

// L random states, each over the same block count of its own random data (some lanes reading another's data, as
// the framing's idle lanes do), against the generic block function lane by lane; then the same blocks in two
// calls split at k.
template <Family F>
void check_blocks_multi(const test::FamilyBackend& p) {
  using Word = typename FamilyTraits<F>::Word;
  constexpr std::size_t W = FamilyTraits<F>::kStateWords;
  const auto& be = shakedown::backend<F>(p.backend);
  const auto& generic = shakedown::backend<F>("generic");
  const std::size_t L = be.multi.lanes;
  const std::size_t iterations = test::scaled(120, 12);
  const std::string param = test::param_name(p);
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("many-blocks", param, i);
    Rng rng(seed);
    const std::size_t block =
        F == Family::keccak ? kMultiLaneRates[i % std::size(kMultiLaneRates)] : FamilyTraits<F>::kBlockBytes;
    const std::size_t n = 1 + rng.below(i % 4 == 0 ? 24 : 5);
    std::vector<std::vector<Word>> start(L, std::vector<Word>(W));
    std::vector<GuardedLane> placed;
    std::vector<const std::uint8_t*> data(L);
    std::string shape = who(p) + " multi-lane (" + std::to_string(L) + " lanes): seed=" + std::to_string(seed) +
                        " iteration=" + std::to_string(i) + " nblocks=" + std::to_string(n) +
                        (F == Family::keccak ? " rate=" + std::to_string(block) : "") +
                        " lanes reading another's data:";
    for (std::size_t l = 0; l < L; ++l) {
      for (auto& w : start[l]) w = static_cast<Word>(rng.next());
      if (l > 0 && rng.percent(20)) {  // an idle lane of the framing: another lane's data
        data[l] = data[rng.below(l)];
        shape += " " + std::to_string(l);
        continue;
      }
      const Bytes bytes = rng.bytes(n * block);
      placed.emplace_back(bytes, i % 2 == 1 && l % 2 == 1, 1 + rng.below(63));
      data[l] = placed.back().data;
    }
    CrashNote note(shape);
    std::vector<std::vector<Word>> got = start, split = start, want = start;
    std::vector<Word*> got_p(L), split_p(L);
    for (std::size_t l = 0; l < L; ++l) {
      got_p[l] = got[l].data();
      split_p[l] = split[l].data();
      if constexpr (F == Family::keccak) {
        for (std::size_t b = 0; b < n; ++b) {
          ref::sponge_xor(want[l].data(), data[l] + b * block, block);
          generic.permute(want[l].data());
        }
      } else {
        generic.blocks(want[l].data(), data[l], n);
      }
    }
    const std::size_t k = rng.below(n + 1);
    std::vector<const std::uint8_t*> rest(L);
    for (std::size_t l = 0; l < L; ++l) rest[l] = data[l] + k * block;
    if constexpr (F == Family::keccak) {
      be.multi.fn(got_p.data(), data.data(), n, block);
      be.multi.fn(split_p.data(), data.data(), k, block);
      be.multi.fn(split_p.data(), rest.data(), n - k, block);
    } else {
      be.multi.fn(got_p.data(), data.data(), n);
      be.multi.fn(split_p.data(), data.data(), k);
      be.multi.fn(split_p.data(), rest.data(), n - k);
    }
    for (std::size_t l = 0; l < L; ++l) {
      ASSERT_EQ(got[l], want[l]) << shape << ": lane " << l << " differs from generic";
      ASSERT_EQ(split[l], want[l]) << shape << ": lane " << l << " differs in calls of " << k << " and " << n - k
                                   << " blocks";
    }
  }
  record_multi(p, "blocks-vs-generic", iterations);
}

TEST_P(ManyBlockDiff, RandomStatesAndBlockCountsPerLane) {
  switch (GetParam().family) {
    case Family::sha256: return check_blocks_multi<Family::sha256>(GetParam());
    case Family::sha512: return check_blocks_multi<Family::sha512>(GetParam());
    case Family::keccak: return check_blocks_multi<Family::keccak>(GetParam());
  }
}

// nblocks = 0 must touch no memory, not even the pointer arrays (backend.h): all on an inaccessible page, in a
// forked child so that a fault fails this test only.
TEST_P(ManyBlockDiff, ZeroBlockCountTouchesNoMemory) {
  const auto& p = GetParam();
  void* page = inaccessible_page();
  visit_family(p.family, [&]<class T>(T) {
    using Word = typename T::Word;
    const auto& be = shakedown::backend<T::kFamily>(p.backend);
    const auto states = static_cast<Word* const*>(page);
    const auto data = static_cast<const std::uint8_t* const*>(page);
    if constexpr (T::kFamily == Family::keccak) {
      for (std::size_t rate : kKeccakRates)
        EXPECT_EXIT((be.multi.fn(states, data, 0, rate), std::_Exit(0)), ::testing::ExitedWithCode(0), "")
            << who(p) << " multi-lane absorb(st[], data[], 0, " << rate << ") with everything on an inaccessible page";
    } else {
      EXPECT_EXIT((be.multi.fn(states, data, 0), std::_Exit(0)), ::testing::ExitedWithCode(0), "")
          << who(p) << " multi-lane blocks(h[], data[], 0) with everything on an inaccessible page";
    }
  });
  record_multi(p, "zero-blocks", 1);
}

INSTANTIATE_TEST_SUITE_P(EveryMultiLaneBackend, ManyBlockDiff, ::testing::ValuesIn(multi_lane_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ManyBlockDiff);  // arches without multi-lane functions

// ---- hash_many() on every backend ----

class ManyHashDiff : public ::testing::TestWithParam<test::AlgBackend> {
 protected:
  const test::AlgBackend& p() const { return GetParam(); }
  Algorithm alg() const { return GetParam().alg; }
  std::size_t block() const { return block_size(alg()); }
  std::size_t lanes() const { return lanes_of(family_of(alg()), GetParam().backend); }

  // A length that exercises the framing: empty, one byte, around a block, around the last byte the padding fits
  // in (FIPS 180-4 §5.1: 55/56 of 64, 111/112 of 128; FIPS 202: the domain byte and 0x80 in one byte at rate - 1),
  // a few blocks, or random.
  std::size_t interesting_length(Rng& rng) const {
    const std::size_t B = block();
    const std::size_t pad_edge = family_of(alg()) == Family::keccak ? B - 1 : B - (B == 64 ? 9 : 17);
    switch (rng.below(9)) {
      case 0: return 0;
      case 1: return 1;
      case 2: return B - 1 + rng.below(3);
      case 3: return pad_edge + rng.below(2);
      case 4: return 2 * B - 1 + rng.below(3);
      case 5: return rng.below(B);
      case 6: return B * (1 + rng.below(6)) + rng.below(B);
      default: return rng.below(4 * B + 1);
    }
  }
  std::size_t output_length(Rng& rng) const {
    if (!is_xof(alg())) return digest_size(alg());
    const std::size_t B = block();
    const std::size_t choices[] = {0, 1, 32, B - 1, B, B + 1, 2 * B + 7, 64};
    return choices[rng.below(std::size(choices))];
  }
};

// One case: messages and outputs each against their own guard pages; prefix (if any) hashed first. Fails naming the
// first message whose output differs from OpenSSL (and whether generic, one message at a time, agrees with it).
struct ManyCase {
  std::vector<Bytes> msgs;
  std::vector<std::size_t> outlens;
  std::string describe() const {
    std::string s = std::to_string(msgs.size()) + " messages, lengths [";
    for (std::size_t i = 0; i < msgs.size(); ++i) s += (i ? "," : "") + std::to_string(msgs[i].size());
    s += "]";
    if (!outlens.empty()) {
      s += ", output lengths [";
      for (std::size_t i = 0; i < outlens.size(); ++i) s += (i ? "," : "") + std::to_string(outlens[i]);
      s += "]";
    }
    return s;
  }
};

// Runs hash_many (through `call`, which gets the spans) and compares each output with OpenSSL on prefix || msg.
template <class Call>
void check_case(const test::AlgBackend& p, const ManyCase& c, const Bytes& prefix, const std::string& shape,
                bool misalign, Call call) {
  std::vector<GuardedLane> in, out;
  std::vector<std::span<const std::uint8_t>> msgs;
  std::vector<std::span<std::uint8_t>> outs;
  for (std::size_t i = 0; i < c.msgs.size(); ++i) {
    in.emplace_back(c.msgs[i], misalign && i % 2 == 1, 1 + i % 63);
    msgs.emplace_back(in.back().data, c.msgs[i].size());
  }
  for (std::size_t i = 0; i < c.msgs.size(); ++i) {
    out.emplace_back(Bytes(c.outlens[i], 0), misalign && i % 2 == 0, 1 + i % 31);
    outs.emplace_back(out.back().data, c.outlens[i]);
  }
  {
    CrashNote note(shape + ": " + c.describe());
    call(msgs, outs);
  }
  for (std::size_t i = 0; i < c.msgs.size(); ++i) {
    Bytes whole = prefix;
    whole.insert(whole.end(), c.msgs[i].begin(), c.msgs[i].end());
    const Bytes want = openssl_digest(p.alg, whole, c.outlens[i]);
    const Bytes got(outs[i].begin(), outs[i].end());
    if (got == want) continue;
    const Bytes generic = digest_oneshot(p.alg, "generic", whole, c.outlens[i]);
    FAIL() << shape << ": " << c.describe() << ": message " << i << " (" << c.msgs[i].size()
           << " bytes) differs from OpenSSL"
           << (generic == want ? "; generic agrees with OpenSSL" : "; so does generic")
           << "\n  got  " << to_hex(got) << "\n  want " << to_hex(want);
  }
}

// Random counts (none, fewer than the lanes, several rounds of them) of unequal lengths, now and then one very long
// message among short ones (its lane runs alone at the end), SHAKE with an output length per message.
TEST_P(ManyHashDiff, UnequalLengthsVsOpenSSL) {
  const std::size_t iterations = test::scaled(60, 6);
  const std::size_t L = std::max<std::size_t>(lanes(), 2);
  const std::string param = test::param_name(p());
  const std::size_t from = lanes_from(family_of(alg()), p().backend);
  std::size_t laned = 0;  // messages of calls in which the lanes ran
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("many-unequal", param, i);
    Rng rng(seed);
    ManyCase c;
    const std::size_t n = i == 0 ? 0 : rng.below(3 * L + 4);
    const bool long_one = n > 0 && rng.percent(25);
    const std::size_t long_at = long_one ? rng.below(n) : SIZE_MAX;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t len = k == long_at ? 64 * block() + rng.below(block()) : interesting_length(rng);
      c.msgs.push_back(rng.bytes(len));
      c.outlens.push_back(output_length(rng));
    }
    if (n >= from) laned += n;
    const std::string shape =
        who(p()) + " hash_many(): seed=" + std::to_string(seed) + " iteration=" + std::to_string(i);
    check_case(p(), c, {}, shape, i % 2 == 1,
               [&](auto msgs, auto outs) { hash_many(p().alg, p().backend, msgs, outs); });
    if (HasFatalFailure() || HasFailure()) return;
  }
  if (laned) record_multi(p(), "unequal-lengths-vs-openssl", laned);
}

// A context with a prefix absorbed in random updates (a salt shared by the messages), then hash_many() from it:
// each output is the hash of prefix || message, and the prefix context is unchanged.
TEST_P(ManyHashDiff, FromPrefixContext) {
  const std::size_t iterations = test::scaled(40, 6);
  const std::size_t L = std::max<std::size_t>(lanes(), 2);
  const std::string param = test::param_name(p());
  const std::size_t from = lanes_from(family_of(alg()), p().backend);
  std::size_t laned = 0;
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("many-prefix", param, i);
    Rng rng(seed);
    const Bytes prefix = rng.bytes(rng.percent(30) ? block() * rng.below(3) : rng.below(3 * block()));
    const auto splits = random_splits(rng, prefix.size(), block());
    Hasher h(p().alg, p().backend);
    std::size_t at = 0;
    for (std::size_t s : splits) {
      h.update(prefix.data() + at, s);
      at += s;
    }
    const Bytes before = Bytes(testing::raw_state(h).begin(), testing::raw_state(h).end());
    ManyCase c;
    const std::size_t n = rng.below(2 * L + 3);
    if (n >= from) ++laned;
    for (std::size_t k = 0; k < n; ++k) {
      c.msgs.push_back(rng.bytes(interesting_length(rng)));
      c.outlens.push_back(output_length(rng));
    }
    const std::string shape = who(p()) + " hash_many(prefix of " + std::to_string(prefix.size()) +
                              " bytes in updates " + describe(splits) + "): seed=" + std::to_string(seed) +
                              " iteration=" + std::to_string(i);
    check_case(p(), c, prefix, shape, i % 2 == 0, [&](auto msgs, auto outs) { hash_many(h, msgs, outs); });
    if (HasFatalFailure() || HasFailure()) return;
    const Bytes after = Bytes(testing::raw_state(h).begin(), testing::raw_state(h).end());
    ASSERT_EQ(after, before) << shape << ": the prefix context changed";
  }
  if (laned) record_multi(p(), "prefix-vs-openssl", laned);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, ManyHashDiff, ::testing::ValuesIn(test::all_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
