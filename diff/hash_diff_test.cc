// Hash-level differential template, run per (algorithm, backend) vs OpenSSL EVP: every length,
// random incremental splits, guard pages, overlap, rewritten input, alignment, zeroization, clones.
#include <gtest/gtest.h>

#include <cstring>
#include <new>

#include "diff_support.h"
#include "shakedown/testing.h"

namespace shakedown::diff {
namespace {

using test::openssl_digest;
using test::to_hex;
using Bytes = std::vector<std::uint8_t>;

class HashDiff : public ::testing::TestWithParam<test::AlgBackend> {
 protected:
  const test::AlgBackend& p() const { return GetParam(); }
  Algorithm alg() const { return GetParam().alg; }
  const std::string& backend() const { return GetParam().backend; }
  std::size_t outlen() const { return out_size(alg()); }
  std::size_t block() const { return block_size(alg()); }
};

// The first length whose digests differ in two per-length digest concatenations.
std::string first_difference(const Bytes& ours, const Bytes& theirs, std::size_t outlen) {
  std::size_t first = SIZE_MAX, count = 0;
  for (std::size_t i = 0; i * outlen < ours.size(); ++i)
    if (std::memcmp(ours.data() + i * outlen, theirs.data() + i * outlen, outlen) != 0) {
      if (first == SIZE_MAX) first = i;
      ++count;
    }
  return "first differing length " + std::to_string(first) + " (" + std::to_string(count) + " of " +
         std::to_string(ours.size() / outlen) + " lengths differ)";
}

// Kernel hash-test-template "test_hash_all_lens_up_to_4096", plus the incremental path: each length's
// digests are concatenated and the concatenations consolidated into one SHA-256 per pair.
TEST_P(HashDiff, EveryLength0To4096) {
  constexpr std::size_t kMax = 4096;
  constexpr std::uint32_t kSeed = 4096;
  const Bytes msg = test::pattern(kMax, kSeed);
  Bytes oneshot, incremental, oracle;
  for (std::size_t len = 0; len <= kMax; ++len) {
    std::span<const std::uint8_t> m(msg.data(), len);
    auto splits = sweep_splits(len, block());
    auto a = digest_oneshot(alg(), backend(), m, outlen());
    auto b = digest_in_chunks(alg(), backend(), m, splits, outlen());
    auto c = openssl_digest(alg(), m, outlen());
    oneshot.insert(oneshot.end(), a.begin(), a.end());
    incremental.insert(incremental.end(), b.begin(), b.end());
    oracle.insert(oracle.end(), c.begin(), c.end());
  }
  auto consolidate = [](const Bytes& all) { return to_hex(openssl_digest(Algorithm::sha256, all)); };
  const std::string want = consolidate(oracle);
  EXPECT_EQ(consolidate(oneshot), want) << who(p()) << " one-shot, message = pattern(" << kMax << ", seed "
                                        << kSeed << ") prefixes: " << first_difference(oneshot, oracle, outlen());
  EXPECT_EQ(consolidate(incremental), want)
      << who(p()) << " incremental (sweep_splits(len, " << block() << ")), message = pattern(" << kMax
      << ", seed " << kSeed << ") prefixes: " << first_difference(incremental, oracle, outlen());
  record(p(), "all-lengths", kMax + 1);
}

// Random total lengths up to 16 KiB, split into updates biased to small and block-boundary sizes.
TEST_P(HashDiff, RandomIncrementalSplits) {
  const std::size_t iterations = test::scaled(120, 8);
  const std::string param = test::param_name(p());
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("random-incremental", param, i);
    Rng rng(seed);
    const std::size_t total = rng.percent(50) ? rng.below(4 * block() + 1) : rng.below(16 * 1024 + 1);
    const Bytes msg = rng.bytes(total);
    const auto splits = random_splits(rng, total, block());
    const auto want = openssl_digest(alg(), msg, outlen());
    ASSERT_EQ(to_hex(digest_in_chunks(alg(), backend(), msg, splits, outlen())), to_hex(want))
        << who(p()) << " random incremental: seed=0x" << std::hex << seed << std::dec << " iteration=" << i
        << " total=" << total << " updates=" << describe(splits) << " " << generic_verdict(alg(), backend(), msg, splits, outlen());
  }
  record(p(), "random-incremental", iterations);
}

// Lengths around every framing boundary of the algorithm.
std::vector<std::size_t> boundary_lengths(std::size_t block) {
  return {0, 1, block - 1, block, block + 1, 2 * block + 3, 1000};
}

// Input ending exactly at a PROT_NONE page (and starting right after one), output ending at one,
// the context ending at one, and zero-length calls whose pointer is an inaccessible page.
TEST_P(HashDiff, GuardPages) {
  std::size_t runs = 0;
  for (std::size_t len : boundary_lengths(block())) {
    const Bytes msg = test::pattern(len, static_cast<std::uint32_t>(len) + 1);
    const Bytes want = openssl_digest(alg(), msg, outlen());
    const auto splits = sweep_splits(len, block());
    for (bool at_end : {true, false}) {
      GuardedBuffer in(len, at_end);
      if (len) std::memcpy(in.data(), msg.data(), len);
      CrashNote note(who(p()) + " input of " + std::to_string(len) + " bytes at a guard page");
      std::span<const std::uint8_t> m(in.data(), len);
      const std::string where = who(p()) + " input of " + std::to_string(len) + " bytes " +
                                (at_end ? "ending at" : "starting after") + " a guard page";
      EXPECT_EQ(digest_oneshot(alg(), backend(), m, outlen()), want) << where << ", one-shot";
      EXPECT_EQ(digest_in_chunks(alg(), backend(), m, splits, outlen()), want) << where << ", updates "
                                                                                << describe(splits);
    }
    {
      GuardedBuffer out(outlen());
      CrashNote note(who(p()) + " output ending at a guard page, len " + std::to_string(len));
      hash(alg(), backend(), msg, std::span<std::uint8_t>(out.data(), outlen()));
      EXPECT_EQ(Bytes(out.data(), out.end()), want) << who(p()) << " one-shot output ending at guard, len " << len;
      Hasher h(alg(), backend());
      h.update(msg);
      h.final(out.data(), outlen());
      EXPECT_EQ(Bytes(out.data(), out.end()), want) << who(p()) << " final output ending at guard, len " << len;
    }
    for (bool at_end : {true, false}) {
      GuardedBuffer ctx(sizeof(Hasher), at_end);
      CrashNote note(who(p()) + " context " + (at_end ? "ending at" : "starting after") + " a guard page, len " +
                     std::to_string(len));
      auto* h = new (ctx.data()) Hasher(alg(), backend());
      h->update(msg.data(), len / 2).update(msg.data() + len / 2, len - len / 2);
      Hasher clone(*h);
      Bytes got(outlen());
      h->final(got.data(), got.size());
      EXPECT_EQ(got, want) << who(p()) << " context at guard page (at_end=" << at_end << "), len " << len;
      h->~Hasher();
      EXPECT_EQ(clone.final(), want) << who(p()) << " clone of a context at a guard page, len " << len;
    }
    runs += 5;
  }
  {
    // A zero-length update may carry any pointer, even one to memory that faults on access.
    CrashNote note(who(p()) + " zero-length calls with a pointer to an inaccessible page");
    const Bytes want = openssl_digest(alg(), {}, outlen());
    Hasher h(alg(), backend());
    h.update(inaccessible_page(), 0);
    h.update(inaccessible_page(), 0);
    Bytes got(outlen());
    if (is_xof(alg())) {
      h.squeeze(inaccessible_page(), 0);
      h.squeeze(got.data(), got.size());
      h.final(inaccessible_page(), 0);
    } else {
      h.final(got.data(), got.size());
    }
    EXPECT_EQ(got, want) << who(p()) << " empty message with zero-length updates at an inaccessible page";
    Bytes one(outlen());
    hash(alg(), backend(), std::span<const std::uint8_t>(inaccessible_page(), 0), one);
    EXPECT_EQ(one, want) << who(p()) << " one-shot of an empty input at an inaccessible page";
    ++runs;
  }
  record(p(), "guard-pages", runs);
}

// Output overlapping the input: in place at its start, straddling its start, inside its end,
// straddling its end. The result must be the digest of the input as it was before the call.
TEST_P(HashDiff, OverlappingOutput) {
  const std::size_t n = outlen();
  std::size_t runs = 0;
  for (std::size_t len : {n, block() + 5, 3 * block() + 1, std::size_t{700}}) {
    const Bytes msg = test::pattern(len, static_cast<std::uint32_t>(len) + 77);
    const Bytes want = openssl_digest(alg(), msg, n);
    const std::size_t in_off = n;  // room for an output that starts before the input
    const std::pair<const char*, std::size_t> placements[] = {
        {"in place at input start", in_off},
        {"straddling input start", in_off - n / 2},
        {"inside input end", in_off + len - n},
        {"straddling input end", in_off + len - n / 2},
    };
    for (const auto& [what, out_off] : placements) {
      for (bool oneshot : {true, false}) {
        Bytes buf(len + 2 * n, 0xee);
        std::memcpy(buf.data() + in_off, msg.data(), len);
        std::span<const std::uint8_t> in(buf.data() + in_off, len);
        std::span<std::uint8_t> out(buf.data() + out_off, n);
        if (oneshot) {
          hash(alg(), backend(), in, out);
        } else {
          Hasher h(alg(), backend());
          h.update(in);
          h.final(out);
        }
        EXPECT_EQ(Bytes(out.begin(), out.end()), want)
            << who(p()) << (oneshot ? " one-shot" : " update+final") << ", output " << what << ", len " << len
            << ", input offset " << in_off << ", output offset " << out_off;
        ++runs;
      }
    }
  }
  record(p(), "overlap", runs);
}

// The context must own everything it needs after update(): rewriting the caller's buffer between
// update and final must not change the digest.
TEST_P(HashDiff, InputRewrittenBeforeFinal) {
  std::size_t runs = 0;
  for (std::size_t len : {std::size_t{1}, block() - 1, block(), block() + 1, 3 * block() + 7}) {
    const Bytes msg = test::pattern(len, static_cast<std::uint32_t>(len) + 5);
    const Bytes want = openssl_digest(alg(), msg, outlen());
    Bytes buf = msg;
    Hasher h(alg(), backend());
    h.update(buf);
    for (auto& b : buf) b = static_cast<std::uint8_t>(~b);
    Bytes got(outlen());
    h.final(got.data(), got.size());
    EXPECT_EQ(got, want) << who(p()) << " input rewritten between update and final, len " << len;
    ++runs;
  }
  record(p(), "input-rewritten", runs);
}

// Data and output offsets 0..127 (output offset (29*o + 5) mod 128 visits all of them).
TEST_P(HashDiff, Alignment0To127) {
  constexpr std::size_t kAlign = 128;
  std::size_t runs = 0;
  for (std::size_t len : {std::size_t{1}, block() + 1, 4 * block() + 3}) {
    const Bytes msg = test::pattern(len, static_cast<std::uint32_t>(len) + 9);
    const Bytes want = openssl_digest(alg(), msg, outlen());
    Bytes in_store(len + 2 * kAlign), out_store(outlen() + 2 * kAlign);
    auto aligned = [](Bytes& v) {
      auto addr = reinterpret_cast<std::uintptr_t>(v.data());
      return v.data() + (kAlign - addr % kAlign) % kAlign;
    };
    std::uint8_t* in_base = aligned(in_store);
    std::uint8_t* out_base = aligned(out_store);
    for (std::size_t off = 0; off < kAlign; ++off) {
      const std::size_t out_off = (29 * off + 5) % kAlign;
      std::memcpy(in_base + off, msg.data(), len);
      std::span<const std::uint8_t> in(in_base + off, len);
      std::span<std::uint8_t> out(out_base + out_off, outlen());
      hash(alg(), backend(), in, out);
      ASSERT_EQ(Bytes(out.begin(), out.end()), want)
          << who(p()) << " one-shot, len " << len << ", data offset " << off << ", output offset " << out_off;
      const std::size_t split[] = {len / 3, len - len / 3};
      ASSERT_EQ(digest_in_chunks(alg(), backend(), in, split, outlen()), want)
          << who(p()) << " updates " << describe(split) << ", data offset " << off;
      runs += 2;
    }
  }
  record(p(), "alignment", runs);
}

bool all_zero(std::span<const std::uint8_t> bytes) {
  for (auto b : bytes)
    if (b) return false;
  return true;
}

// final() and the destructor leave no state behind (docs/design.md "Contexts").
TEST_P(HashDiff, ZeroizedAfterFinalAndDestruction) {
  std::size_t runs = 0;
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, block() - 1, block(), 2 * block() + 5}) {
    const Bytes msg = test::pattern(len, static_cast<std::uint32_t>(len) + 11);
    const Bytes want = openssl_digest(alg(), msg, outlen());
    Hasher h(alg(), backend());
    h.update(msg);
    if (is_xof(alg())) {
      Bytes first(3), rest(outlen() - 3);
      h.squeeze(first);
      h.final(rest);
      first.insert(first.end(), rest.begin(), rest.end());
      EXPECT_EQ(first, want) << who(p()) << " squeeze(3) then final, len " << len;
    } else {
      Bytes got(outlen());
      h.final(got);
      EXPECT_EQ(got, want) << who(p()) << " len " << len;
    }
    EXPECT_TRUE(all_zero(testing::raw_state(h))) << who(p()) << " state not zeroized after final, len " << len
                                                 << ": " << to_hex(testing::raw_state(h));
    // Destruction: the object's storage outlives it, so its bytes can be inspected afterwards.
    alignas(Hasher) std::uint8_t storage[sizeof(Hasher)];
    auto* live = new (storage) Hasher(alg(), backend());
    live->update(msg);
    auto raw = testing::raw_state(*live);
    const std::size_t off = static_cast<std::size_t>(raw.data() - storage), size = raw.size();
    live->~Hasher();
    EXPECT_TRUE(all_zero({storage + off, size})) << who(p()) << " state not zeroized by the destructor, len " << len;
    runs += 2;
  }
  record(p(), "zeroization", runs);
}

// Clones (copy construction and assignment) taken mid-stream continue independently.
TEST_P(HashDiff, ClonesDivergeMidStream) {
  const std::size_t iterations = test::scaled(24, 4);
  const std::string param = test::param_name(p());
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("clone", param, i);
    Rng rng(seed);
    const Bytes a = rng.bytes(rng.below(3 * block() + 1));
    const Bytes b = rng.bytes(rng.below(2 * block() + 1)), c = rng.bytes(rng.below(2 * block() + 1));
    auto concat = [](Bytes x, const Bytes& y) {
      x.insert(x.end(), y.begin(), y.end());
      return x;
    };
    const std::string shape = who(p()) + " clone: seed=" + std::to_string(seed) + " |a|=" + std::to_string(a.size()) +
                              " |b|=" + std::to_string(b.size()) + " |c|=" + std::to_string(c.size());
    Hasher h1(alg(), backend());
    h1.update(a);
    Hasher h2(h1);
    Hasher h3(alg(), "generic");
    h3 = h1;
    EXPECT_EQ(h3.backend_name(), backend()) << shape << ": assignment must carry the backend";
    h1.update(b);
    h2.update(c);
    Bytes o1(outlen()), o2(outlen()), o3(outlen());
    h1.final(o1);
    h2.final(o2);
    h3.final(o3);
    ASSERT_EQ(o1, openssl_digest(alg(), concat(a, b), outlen())) << shape << " (original, a||b)";
    ASSERT_EQ(o2, openssl_digest(alg(), concat(a, c), outlen())) << shape << " (copy-constructed, a||c)";
    ASSERT_EQ(o3, openssl_digest(alg(), a, outlen())) << shape << " (assigned, a)";
    if (is_xof(alg())) {
      // A clone taken mid-squeeze continues the same output stream.
      const std::size_t k = rng.below(2 * block() + 1), n = 1 + rng.below(2 * block());
      const Bytes all = openssl_digest(alg(), a, k + n);
      Hasher s1(alg(), backend());
      s1.update(a);
      Bytes skip(k), r1(n), r2(n);
      s1.squeeze(skip);
      Hasher s2(s1);
      s1.squeeze(r1);
      s2.squeeze(r2);
      const Bytes tail(all.begin() + static_cast<std::ptrdiff_t>(k), all.end());
      ASSERT_EQ(r1, tail) << shape << " squeeze clone original after " << k << " bytes";
      ASSERT_EQ(r2, tail) << shape << " squeeze clone copy after " << k << " bytes";
    }
  }
  record(p(), "clone", iterations);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, HashDiff, ::testing::ValuesIn(test::all_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
