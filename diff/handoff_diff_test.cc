// Cross-backend handoff per (algorithm, first backend A): absorb part of a message with A, continue with
// B, finish with C, for every B and C of the family — through live contexts (testing::rebind) and
// directly at block-function level with the test's own padding — vs OpenSSL.
#include <gtest/gtest.h>

#include <algorithm>

#include "diff_support.h"
#include "families.h"
#include "reference.h"
#include "shakedown/testing.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;

class HandoffDiff : public ::testing::TestWithParam<test::AlgBackend> {
 protected:
  std::vector<std::string> family_backends() const { return available_backends(family_of(GetParam().alg)); }
};

// Two cut points in [0, len], sorted, chosen to land inside blocks as often as on their edges.
std::pair<std::size_t, std::size_t> cuts(Rng& rng, std::size_t len) {
  std::size_t a = rng.below(len + 1), b = rng.below(len + 1);
  return {std::min(a, b), std::max(a, b)};
}

TEST_P(HandoffDiff, ContextRebindMidStream) {
  const auto& p = GetParam();
  const std::size_t B = block_size(p.alg), outlen = digest_size(p.alg);
  const std::size_t per_pair = test::scaled(4, 2);
  const std::string param = test::param_name(p);
  std::size_t runs = 0, iteration = 0;
  for (const auto& b : family_backends()) {
    for (const auto& c : family_backends()) {
      for (std::size_t k = 0; k < per_pair; ++k, ++iteration) {
        const std::uint64_t seed = seed_for("handoff", param, iteration);
        Rng rng(seed);
        const Bytes msg = rng.bytes(rng.below(6 * B + 1));
        const auto [x, y] = cuts(rng, msg.size());
        const std::string shape = std::string(name(p.alg)) + " handoff " + p.backend + " -> " + b + " -> " + c +
                                  ": seed=" + std::to_string(seed) + " length " + std::to_string(msg.size()) +
                                  " cuts at " + std::to_string(x) + "," + std::to_string(y);
        // SHAKE: squeezing hands off too, B pads and squeezes a part, C squeezes the rest.
        const std::size_t first = is_xof(p.alg) ? rng.below(2 * B + 1) : 0;
        const std::size_t second = is_xof(p.alg) ? rng.below(2 * B + 1) : 0;
        auto run = [&](const std::string& first_backend, const std::string& middle, const std::string& last) {
          Hasher h(p.alg, first_backend);
          h.update(msg.data(), x);
          testing::rebind(h, middle);
          h.update(msg.data() + x, y - x);
          EXPECT_EQ(h.backend_name(), middle) << shape;
          if (!is_xof(p.alg)) {
            testing::rebind(h, last);
            h.update(msg.data() + y, msg.size() - y);
            Bytes got(outlen);
            h.final(got);
            return got;
          }
          h.update(msg.data() + y, msg.size() - y);
          Bytes got(first + second);
          h.squeeze(got.data(), first);
          testing::rebind(h, last);
          h.squeeze(got.data() + first, second);
          return got;
        };
        const Bytes want = test::openssl_digest(p.alg, msg, is_xof(p.alg) ? first + second : outlen);
        ASSERT_EQ(run_handoff(family_of(p.alg), p.backend, b, c, want, run), want)
            << shape << (is_xof(p.alg) ? ", squeezes " + std::to_string(first) + " (" + b + ") + " +
                                             std::to_string(second) + " (" + c + ")"
                                       : std::string());
        ++runs;
      }
      record({p.alg, b}, "handoff-middle", per_pair);
      record({p.alg, c}, "handoff-last", per_pair);
    }
  }
  record(p, "handoff-first", runs);
}

// Block-function level: the test pads the message itself (FIPS 180-4 §5.1) and runs the padded blocks
// through A, B and C in turn, starting from the algorithm's IV.
template <class Word>
void sha2_block_handoff(const test::AlgBackend& p, const std::vector<std::string>& names, std::size_t per_pair,
                        std::size_t& runs) {
  using F = Sha2Family<Word>;
  const std::string param = test::param_name(p);
  Word iv[8];
  ref::chaining_value(Hasher(p.alg, "generic"), iv);
  std::size_t iteration = 0;
  for (const auto& bn : names) {
    for (const auto& cn : names) {
      for (std::size_t k = 0; k < per_pair; ++k, ++iteration) {
        const std::uint64_t seed = seed_for("block-handoff", param, iteration);
        Rng rng(seed);
        const Bytes msg = rng.bytes(rng.below(8 * F::kBlock));
        const Bytes padded = ref::md_padded(msg, F::kBlock);
        const std::size_t n = padded.size() / F::kBlock;
        auto [x, y] = cuts(rng, n);
        auto run = [&](const std::string& first, const std::string& middle, const std::string& last) {
          Word h[8];
          std::copy(iv, iv + 8, h);
          F::get(first).blocks(h, padded.data(), x);
          F::get(middle).blocks(h, padded.data() + x * F::kBlock, y - x);
          F::get(last).blocks(h, padded.data() + y * F::kBlock, n - y);
          return ref::md_digest(h, digest_size(p.alg));
        };
        const Bytes want = test::openssl_digest(p.alg, msg);
        ASSERT_EQ(run_handoff(family_of(p.alg), p.backend, bn, cn, want, run), want)
            << name(p.alg) << " block handoff " << p.backend << " -> " << bn << " -> " << cn << ": seed=" << seed
            << " message length " << msg.size() << ", padded blocks " << n << " split " << x << "/" << y - x << "/"
            << n - y;
        ++runs;
      }
    }
  }
}

// Keccak: the test pads (FIPS 202 §B.2) and XORs; A, B, C permute (or absorb) their share of blocks,
// and C also performs the squeeze permutations.
void keccak_block_handoff(const test::AlgBackend& p, const std::vector<std::string>& names, std::size_t per_pair,
                          std::size_t& runs) {
  const std::string param = test::param_name(p);
  const std::size_t rate = block_size(p.alg);
  std::size_t iteration = 0;
  auto run_blocks = [rate](const KeccakBackend& be, std::uint64_t st[25], const std::uint8_t* data, std::size_t n) {
    if (be.absorb && n) {
      be.absorb(st, data, n, rate);
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      ref::sponge_xor(st, data + i * rate, rate);
      be.permute(st);
    }
  };
  for (const auto& bn : names) {
    for (const auto& cn : names) {
      for (std::size_t k = 0; k < per_pair; ++k, ++iteration) {
        const std::uint64_t seed = seed_for("block-handoff", param, iteration);
        Rng rng(seed);
        const Bytes msg = rng.bytes(rng.below(6 * rate));
        const Bytes padded = ref::sponge_padded(msg, rate, is_xof(p.alg));
        const std::size_t n = padded.size() / rate;
        auto [x, y] = cuts(rng, n);
        const std::size_t outlen = is_xof(p.alg) ? 1 + rng.below(3 * rate) : digest_size(p.alg);
        auto run = [&](const std::string& first, const std::string& middle, const std::string& last) {
          const auto& c = shakedown::backend<Family::keccak>(last);
          std::uint64_t st[25] = {};
          run_blocks(shakedown::backend<Family::keccak>(first), st, padded.data(), x);
          run_blocks(shakedown::backend<Family::keccak>(middle), st, padded.data() + x * rate, y - x);
          run_blocks(c, st, padded.data() + y * rate, n - y);
          Bytes out(outlen);
          for (std::size_t off = 0; off < outlen; off += rate) {
            if (off) c.permute(st);
            ref::sponge_extract(st, out.data() + off, std::min(rate, outlen - off));
          }
          return out;
        };
        const Bytes want = test::openssl_digest(p.alg, msg, outlen);
        ASSERT_EQ(run_handoff(family_of(p.alg), p.backend, bn, cn, want, run), want)
            << name(p.alg) << " block handoff " << p.backend << " -> " << bn << " -> " << cn << ": seed=" << seed
            << " message length " << msg.size() << ", padded blocks " << n << " split " << x << "/" << y - x << "/"
            << n - y << ", output " << outlen;
        ++runs;
      }
    }
  }
}

TEST_P(HandoffDiff, BlockFunctionsInTurn) {
  const auto& p = GetParam();
  const std::size_t per_pair = test::scaled(4, 2);
  std::size_t runs = 0;
  switch (family_of(p.alg)) {
    case Family::sha256: sha2_block_handoff<std::uint32_t>(p, family_backends(), per_pair, runs); break;
    case Family::sha512: sha2_block_handoff<std::uint64_t>(p, family_backends(), per_pair, runs); break;
    case Family::keccak: keccak_block_handoff(p, family_backends(), per_pair, runs); break;
  }
  record(p, "block-handoff", runs);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, HandoffDiff, ::testing::ValuesIn(test::all_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
