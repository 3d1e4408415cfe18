// hash_many() contracts: results equal to one message at a time (OpenSSL), the conveniences, the prefix form, and
// every misuse error, thrown before any output is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "error_of.h"
#include "shakedown/testing.h"
#include "support.h"

namespace shakedown {
namespace {

using Bytes = std::vector<std::uint8_t>;
using test::error_of;
using test::openssl_digest;
using test::pattern;

// n messages of lengths 0, 1, 2, ... times a stride that walks across block boundaries.
std::vector<Bytes> messages(std::size_t n, std::size_t stride, std::uint32_t seed) {
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(pattern(i * stride, seed + static_cast<std::uint32_t>(i)));
  return out;
}

std::vector<std::span<const std::uint8_t>> spans_of(const std::vector<Bytes>& v) { return {v.begin(), v.end()}; }

// The default path and the std::vector convenience on every algorithm, for counts around every lane count here.
TEST(Many, DefaultPathMatchesOpenSslMessageByMessage) {
  for (Algorithm a : kAllAlgorithms) {
    for (std::size_t n : {0u, 1u, 2u, 3u, 5u, 8u, 9u, 16u, 17u, 33u}) {
      const auto msgs = messages(n, 37, 100);
      const auto got = hash_many(a, spans_of(msgs));
      ASSERT_EQ(got.size(), n);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(got[i], openssl_digest(a, msgs[i]))
            << name(a) << ": message " << i << " of " << n << " (" << msgs[i].size() << " bytes) on "
            << selected_many_backend(family_of(a));
    }
  }
}

TEST(Many, ShakeOutputLengthsAnyAndPerMessage) {
  for (Algorithm a : {Algorithm::shake128, Algorithm::shake256}) {
    const auto msgs = messages(11, 61, 7);
    for (std::size_t outlen : {0u, 1u, 135u, 168u, 169u, 1000u}) {
      const auto got = hash_many(a, spans_of(msgs), outlen);
      for (std::size_t i = 0; i < msgs.size(); ++i) EXPECT_EQ(got[i], openssl_digest(a, msgs[i], outlen)) << outlen;
    }
    // A length of its own per output (the span form).
    std::vector<Bytes> outs;
    for (std::size_t i = 0; i < msgs.size(); ++i) outs.emplace_back(i * 47);
    std::vector<std::span<std::uint8_t>> out_spans(outs.begin(), outs.end());
    hash_many(a, spans_of(msgs), out_spans);
    for (std::size_t i = 0; i < msgs.size(); ++i) EXPECT_EQ(outs[i], openssl_digest(a, msgs[i], i * 47)) << i;
  }
}

// outs[i] may overlap msgs[i] (as hash()'s output may overlap its input): every message is read before its own
// output is written.
TEST(Many, OutputMayOverlapItsOwnMessage) {
  for (Algorithm a : kAllAlgorithms) {
    auto msgs = messages(10, 45, 3);
    for (auto& m : msgs) m.resize(std::max<std::size_t>(m.size(), 64));
    std::vector<Bytes> want;
    for (const auto& m : msgs) want.push_back(openssl_digest(a, m));
    std::vector<std::span<std::uint8_t>> outs;
    for (auto& m : msgs) outs.emplace_back(m.data() + (m.size() > 64 ? 1 : 0), digest_size(a));
    hash_many(a, spans_of(msgs), outs);
    for (std::size_t i = 0; i < msgs.size(); ++i)
      EXPECT_TRUE(std::equal(want[i].begin(), want[i].end(), outs[i].begin())) << name(a) << " message " << i;
  }
}

// Every refusal throws before anything is written: the outputs keep their fill.
TEST(Many, MisuseGetsTheDocumentedErrorAndWritesNothing) {
  constexpr std::uint8_t kFill = 0xa7;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(std::string(name(a)));
    const auto msgs = messages(5, 70, 9);
    std::vector<Bytes> outs(5, Bytes(digest_size(a), kFill));
    std::vector<std::span<std::uint8_t>> spans(outs.begin(), outs.end());
    const auto untouched = [&] {
      for (const auto& o : outs)
        if (std::any_of(o.begin(), o.end(), [](std::uint8_t b) { return b != kFill; })) return false;
      return true;
    };
    auto in = spans_of(msgs);
    EXPECT_EQ(error_of([&] { hash_many(a, in, std::span(spans).first(4)); }).first, Errc::bad_output_length);
    if (!is_xof(a)) {
      Bytes wrong(digest_size(a) - 1);
      auto bad = spans;
      bad[3] = wrong;  // the fourth: the first three could have been written already by a careless implementation
      const auto [code, what] = error_of([&] { hash_many(a, in, bad); });
      EXPECT_EQ(code, Errc::bad_output_length);
      EXPECT_NE(what.find("output 3: "), std::string::npos) << what;
      EXPECT_EQ(what.find("shakedown: ", 1), std::string::npos) << what;  // the prefix once
    }
    auto null_msg = in;
    null_msg[4] = std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(nullptr), 3);
    EXPECT_EQ(error_of([&] { hash_many(a, null_msg, spans); }).first, Errc::null_pointer);
    auto null_out = spans;
    null_out[2] = std::span<std::uint8_t>(static_cast<std::uint8_t*>(nullptr), digest_size(a));
    EXPECT_EQ(error_of([&] { hash_many(a, in, null_out); }).first, Errc::null_pointer);
    EXPECT_EQ(error_of([&] { hash_many(a, "nosuch/backend", in, spans); }).first, Errc::unknown_backend);
    if (!is_xof(a)) {
      EXPECT_EQ(error_of([&] { (void)hash_many(a, in, digest_size(a) + 1); }).first, Errc::bad_output_length);
      // The length is wrong whatever the count: refused with no messages too, as hash() refuses it.
      EXPECT_EQ(error_of([&] { (void)hash_many(a, Messages{}, digest_size(a) + 1); }).first, Errc::bad_output_length);
    }
    EXPECT_TRUE(untouched()) << "a refused call wrote an output";
    // A null message of length 0 is an empty message, and no messages at all is nothing to do.
    null_msg[4] = {};
    EXPECT_NO_THROW(hash_many(a, null_msg, spans));
    EXPECT_EQ(outs[4], openssl_digest(a, {}));
    // Spelled out: hash_many(a, {}, {}) would pick the std::vector form with an output length of 0.
    EXPECT_NO_THROW(hash_many(a, Messages{}, Outputs{}));
    EXPECT_TRUE(hash_many(a, Messages{}, digest_size(a)).empty());
  }
}

// An output placed over the arrays of spans themselves is refused before anything is written (the lanes read
// msgs[j] and outs[j] after earlier outputs are written: such an output would turn digest bytes into pointers).
// On every backend with lanes and on generic. Under ASan, the call before the check was a wild memcpy.
TEST(Many, OutputOverTheSpanArraysIsRefused) {
  for (Algorithm a : kAllAlgorithms) {
    for (const std::string& backend : available_backends(family_of(a))) {
      SCOPED_TRACE(std::string(name(a)) + " on " + backend);
      const auto msgs = messages(9, 53, 21);
      const std::size_t n = digest_size(a);
      // One buffer holds the span arrays and, after them, the outputs.
      constexpr std::size_t kCount = 9;
      alignas(std::span<std::uint8_t>) std::uint8_t arena[2 * kCount * sizeof(std::span<std::uint8_t>) + 9 * 64];
      auto* in = reinterpret_cast<std::span<const std::uint8_t>*>(arena);
      auto* out = reinterpret_cast<std::span<std::uint8_t>*>(arena + kCount * sizeof(std::span<std::uint8_t>));
      std::uint8_t* outputs = arena + 2 * kCount * sizeof(std::span<std::uint8_t>);
      for (std::size_t i = 0; i < kCount; ++i) {
        new (&in[i]) std::span<const std::uint8_t>(msgs[i]);
        new (&out[i]) std::span<std::uint8_t>(outputs + i * 64, n);
      }
      const Bytes before(arena, arena + sizeof arena);
      for (const auto& [what, target] : {std::pair{"the output spans", reinterpret_cast<std::uint8_t*>(out + 5)},
                                         std::pair{"the message spans", reinterpret_cast<std::uint8_t*>(in + 2)}}) {
        const std::span<std::uint8_t> saved = out[1];
        out[1] = std::span<std::uint8_t>(target, n);  // output 1 over entry 5 of outs or entry 2 of msgs
        const auto [code, message] = error_of([&] { hash_many(a, backend, {in, kCount}, {out, kCount}); });
        EXPECT_EQ(code, Errc::bad_output_length) << what;
        EXPECT_NE(message.find("output 1 overlaps"), std::string::npos) << message;
        out[1] = saved;
        EXPECT_EQ(Bytes(arena, arena + sizeof arena), before) << "a refused call wrote over " << what;
      }
      hash_many(a, backend, {in, kCount}, {out, kCount});  // apart, it works
      for (std::size_t i = 0; i < kCount; ++i)
        EXPECT_EQ(Bytes(out[i].begin(), out[i].end()), openssl_digest(a, msgs[i], n)) << "message " << i;
    }
  }
}

// The prefix form: prefix || msgs[i] for a prefix in every state of its buffer, prefix unchanged; finalized and
// squeezing prefixes refused.
TEST(Many, FromPrefixContext) {
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(std::string(name(a)));
    // In one update (less than a block stays buffered) and in 50-byte ones (more than a block of SHA-2 can).
    for (std::size_t plen : {0u, 1u, 63u, 64u, 100u, 168u, 200u, 300u}) {
      for (std::size_t piece : {plen, std::size_t{50}}) {
        SCOPED_TRACE("prefix " + std::to_string(plen) + " in updates of " + std::to_string(piece));
        const Bytes prefix = pattern(plen, 77);
        Hasher h(a);
        for (std::size_t at = 0; at < plen; at += piece) h.update(prefix.data() + at, std::min(piece, plen - at));
        const auto msgs = messages(13, 29, 40);
        std::vector<Bytes> outs(msgs.size(), Bytes(digest_size(a)));
        std::vector<std::span<std::uint8_t>> spans(outs.begin(), outs.end());
        hash_many(h, spans_of(msgs), spans);
        for (std::size_t i = 0; i < msgs.size(); ++i) {
          Bytes whole = prefix;
          whole.insert(whole.end(), msgs[i].begin(), msgs[i].end());
          EXPECT_EQ(outs[i], openssl_digest(a, whole)) << "prefix " << plen << ", message " << i;
        }
        EXPECT_EQ(h.final(), openssl_digest(a, prefix)) << "the prefix context changed";
        std::vector<std::span<const std::uint8_t>> one = {msgs[1]};
        EXPECT_EQ(error_of([&] { hash_many(h, one, std::span(spans).first(1)); }).first, Errc::finalized);
      }
    }
    if (is_xof(a)) {
      Hasher s(a);
      std::uint8_t out[4];
      s.squeeze(out, sizeof out);
      EXPECT_EQ(error_of([&] { hash_many(s, {}, {}); }).first, Errc::wrong_phase);
    }
  }
}

// FIPS 180-4 §1: the limit counts the prefix too; a message past it is refused before any output is written.
TEST(Many, LengthLimitsCountThePrefix) {
  Hasher h(Algorithm::sha256);
  testing::forge_byte_count(h, (1ull << 61) - 64, 0);
  const Bytes fits(63), over(64);
  Bytes out_a(32, 1), out_b(32, 1);
  std::vector<std::span<const std::uint8_t>> msgs = {fits, over};
  std::vector<std::span<std::uint8_t>> outs = {out_a, out_b};
  const auto [code, what] = error_of([&] { hash_many(h, msgs, outs); });
  EXPECT_EQ(code, Errc::message_too_long);
  EXPECT_NE(what.find("message 1"), std::string::npos) << what;  // which one, as for the other refusals
  EXPECT_EQ(out_a, Bytes(32, 1));
  msgs[1] = fits;
  EXPECT_NO_THROW(hash_many(h, msgs, outs));
  EXPECT_EQ(out_a, out_b);

  Hasher g(Algorithm::sha512);
  testing::forge_byte_count(g, ~0ull - 127, (1ull << 61) - 1);
  const Bytes b127(127), b128(128);
  Bytes o(64);
  std::vector<std::span<const std::uint8_t>> one = {b128};
  std::vector<std::span<std::uint8_t>> one_out = {o};
  EXPECT_EQ(error_of([&] { hash_many(g, one, one_out); }).first, Errc::message_too_long);
  one[0] = b127;
  EXPECT_NO_THROW(hash_many(g, one, one_out));
}

}  // namespace
}  // namespace shakedown
