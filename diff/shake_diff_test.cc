// SHAKE differential suite per (SHAKE, backend) vs one long OpenSSL XOF output: every input length with
// varying output lengths, and random squeeze partitions (zero-length squeezes, exact rate boundaries).
#include <gtest/gtest.h>

#include "diff_support.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;
using test::openssl_digest;

class ShakeDiff : public ::testing::TestWithParam<test::AlgBackend> {};

// Input lengths 0..4096; the output length varies with the input length (0..2*rate+2, FIPS 202 §6.2).
TEST_P(ShakeDiff, InputLengths0To4096WithVaryingOutput) {
  const auto& p = GetParam();
  const std::size_t rate = block_size(p.alg);
  const Bytes msg = test::pattern(4096, 202);
  for (std::size_t len = 0; len <= 4096; ++len) {
    const std::size_t outlen = (len * 31) % (2 * rate + 3);
    std::span<const std::uint8_t> m(msg.data(), len);
    const Bytes want = openssl_digest(p.alg, m, outlen);
    ASSERT_EQ(digest_oneshot(p.alg, p.backend, m, outlen), want)
        << who(p) << " one-shot, input length " << len << " (pattern(4096, 202) prefix), output length " << outlen;
    Hasher h(p.alg, p.backend);
    h.update(m);
    Bytes got(outlen);
    h.squeeze(got);
    ASSERT_EQ(got, want) << who(p) << " update+squeeze, input length " << len << ", output length " << outlen;
  }
  record(p, "shake-lengths", 4097);
}

// Squeeze sizes: zero-length ones followed by non-zero ones (a real upstream bug class), ones that
// end exactly on a rate boundary, single bytes, whole rates and random ones; sometimes final() last.
std::vector<std::size_t> random_squeezes(Rng& rng, std::size_t total, std::size_t rate) {
  std::vector<std::size_t> out;
  std::size_t pos = 0;
  while (pos < total) {
    const std::size_t kind = rng.below(100);
    std::size_t len;
    if (kind < 15) {
      len = 0;
    } else if (kind < 35) {
      len = rate - pos % rate;  // ends exactly on the rate boundary
    } else if (kind < 50) {
      len = 1;
    } else if (kind < 60) {
      len = rate * (1 + rng.below(3));
    } else {
      len = rng.below(2 * rate + 1);
    }
    len = std::min(len, total - pos);
    out.push_back(len);
    pos += len;
  }
  return out;
}

TEST_P(ShakeDiff, RandomSqueezePartitions) {
  const auto& p = GetParam();
  const std::size_t rate = block_size(p.alg);
  const std::size_t iterations = test::scaled(300, 16);
  const std::string param = test::param_name(p);
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("squeeze", param, i);
    Rng rng(seed);
    const Bytes msg = rng.bytes(rng.below(3 * rate + 1));
    const std::size_t total = rng.below(8 * rate + 1);
    auto squeezes = random_squeezes(rng, total, rate);
    // The historic bug: a zero-length squeeze first must not skip the padding permutation.
    if (i % 4 == 0) squeezes.insert(squeezes.begin(), 0);
    const bool end_with_final = rng.percent(30);
    const Bytes want = openssl_digest(p.alg, msg, total);
    const auto updates = random_splits(rng, msg.size(), rate);
    Hasher h(p.alg, p.backend);
    std::size_t off = 0;
    for (std::size_t u : updates) {
      h.update(msg.data() + off, u);
      off += u;
    }
    Bytes got(total);
    off = 0;
    for (std::size_t k = 0; k < squeezes.size(); ++k) {
      if (end_with_final && k + 1 == squeezes.size())
        h.final(got.data() + off, squeezes[k]);
      else
        h.squeeze(got.data() + off, squeezes[k]);
      off += squeezes[k];
    }
    ASSERT_EQ(got, want) << who(p) << " squeeze partition: seed=" << seed << " iteration=" << i
                         << " input length " << msg.size() << " updates " << describe(updates) << " squeezes "
                         << describe(squeezes) << (end_with_final ? " (last one via final)" : "")
                         << " " << generic_verdict(p.alg, p.backend, msg, updates, total);
  }
  record(p, "shake-squeeze-partitions", iterations);
}

// Deterministic corner shapes, named so that a regression points at the exact pattern.
TEST_P(ShakeDiff, SqueezeCornerShapes) {
  const auto& p = GetParam();
  const std::size_t r = block_size(p.alg);
  const std::vector<std::vector<std::size_t>> shapes = {
      {0, 1},           {0, 0, r},         {r, 0, 1},     {r, r, 1},       {r - 1, 1, 0, r},
      {1, r - 1, r},    {0, 2 * r + 1},    {r + 1, r - 1}, {3 * r},         {1, 1, 1, r - 3, 0, 1}};
  for (std::size_t inlen : {std::size_t{0}, r - 1, r, r + 1}) {
    const Bytes msg = test::pattern(inlen, 17);
    for (const auto& shape : shapes) {
      std::size_t total = 0;
      for (auto s : shape) total += s;
      const Bytes want = openssl_digest(p.alg, msg, total);
      Hasher h(p.alg, p.backend);
      h.update(msg);
      Bytes got(total);
      std::size_t off = 0;
      for (auto s : shape) {
        h.squeeze(got.data() + off, s);
        off += s;
      }
      ASSERT_EQ(got, want) << who(p) << " input length " << inlen << ", squeezes " << describe(shape);
    }
  }
  record(p, "shake-corner-squeezes", 4 * shapes.size());
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, ShakeDiff, ::testing::ValuesIn(shake_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
