// API contracts: one-shot vs incremental vs OpenSSL, clone, reset, zeroization, SHAKE, HMAC, every misuse error.
#include <gtest/gtest.h>
#if SHAKEDOWN_ORACLE_OPENSSL
#include <openssl/evp.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <new>

#include "error_of.h"
#include "shakedown/testing.h"
#include "support.h"

namespace shakedown {
namespace {

using test::openssl_digest;
using test::pattern;

using test::error_of;

bool all_zero(std::span<const std::uint8_t> bytes) {
  for (auto b : bytes)
    if (b) return false;
  return true;
}

TEST(Algorithm, NamesRoundTripAndParseCaseInsensitively) {
  for (Algorithm a : kAllAlgorithms) {
    EXPECT_EQ(parse_algorithm(name(a)), a);
    std::string upper(name(a));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(parse_algorithm(upper), a) << upper;
  }
  EXPECT_EQ(parse_algorithm("SHA512/256"), Algorithm::sha512_256);
  EXPECT_EQ(parse_algorithm("sha3_256"), Algorithm::sha3_256);
  EXPECT_EQ(parse_algorithm("SHA-256"), Algorithm::sha256);
  EXPECT_EQ(parse_algorithm("sha-3-256"), std::nullopt);
  EXPECT_EQ(parse_algorithm(""), std::nullopt);
  EXPECT_EQ(parse_algorithm("md5"), std::nullopt);
  EXPECT_EQ(parse_algorithm(std::string_view("sha256\0x", 8)), std::nullopt);
  auto [code, what] = error_of([] { algorithm_from_name("sha257"); });
  EXPECT_EQ(code, Errc::unknown_algorithm);
  EXPECT_NE(what.find("'sha257'"), std::string::npos) << what;
  EXPECT_NE(what.find("shake256"), std::string::npos) << "lists the valid names: " << what;
  EXPECT_EQ(error_of([] { family_from_name("sha1"); }).first, Errc::unknown_family);
}

TEST(Algorithm, ParametersMatchOpenSsl) {
#if !SHAKEDOWN_ORACLE_OPENSSL
  // No OpenSSL on this target: the values stated in FIPS 180-4 §1 and FIPS 202 §6 instead.
  const std::size_t digest[] = {28, 32, 48, 64, 28, 32, 28, 32, 48, 64, 32, 64};
  const std::size_t block[] = {64, 64, 128, 128, 128, 128, 144, 136, 104, 72, 168, 136};
  for (std::size_t i = 0; i < kAllAlgorithms.size(); ++i) {
    EXPECT_EQ(digest_size(kAllAlgorithms[i]), digest[i]) << name(kAllAlgorithms[i]);
    EXPECT_EQ(block_size(kAllAlgorithms[i]), block[i]) << name(kAllAlgorithms[i]);
  }
#else
  for (Algorithm a : kAllAlgorithms) {
    const EVP_MD* md = EVP_get_digestbyname(test::openssl_name(a));
    ASSERT_NE(md, nullptr) << name(a);
    EXPECT_EQ(block_size(a), static_cast<std::size_t>(EVP_MD_get_block_size(md))) << name(a);
    if (!is_xof(a)) {
      EXPECT_EQ(digest_size(a), static_cast<std::size_t>(EVP_MD_get_size(md))) << name(a);
    }
  }
#endif
  EXPECT_TRUE(is_xof(Algorithm::shake128));
  EXPECT_FALSE(is_xof(Algorithm::sha3_512));
}

TEST(Hash, OneShotIncrementalAndOpenSslAgree) {
  for (Algorithm a : kAllAlgorithms) {
    for (std::size_t len : {0u,   1u,   55u,  56u,  63u,  64u,  65u,  71u,  72u,  103u, 104u, 111u,
                            112u, 127u, 128u, 135u, 136u, 137u, 143u, 144u, 167u, 168u, 169u, 1000u}) {
      auto msg = pattern(len, static_cast<std::uint32_t>(len));
      auto want = openssl_digest(a, msg);
      EXPECT_EQ(hash(a, msg), want) << name(a) << " one-shot len " << len;
      Hasher h(a);
      for (std::size_t i = 0; i < len; ++i) h.update(&msg[i], 1);
      EXPECT_EQ(h.final(), want) << name(a) << " byte-at-a-time len " << len;
    }
  }
}

// A SHA-2 context buffers up to two blocks (shakedown/hash.h): byte-at-a-time updates leave every buffered length
// 0 .. 2 * block - 1 for final(), whose padded tail then takes one, two or three blocks (framing.h md_final).
TEST(Hash, FinalAfterEveryBufferedLength) {
  for (Algorithm a : kAllAlgorithms) {
    if (family_of(a) == Family::keccak) continue;
    for (std::size_t len = 0; len <= 3 * block_size(a); ++len) {
      const auto msg = pattern(len, 5);
      Hasher h(a);
      for (std::size_t i = 0; i < len; ++i) h.update(&msg[i], 1);
      ASSERT_EQ(h.final(), openssl_digest(a, msg)) << name(a) << " byte-at-a-time len " << len;
    }
  }
}

TEST(Hash, EmptyUpdatesAndNullWithZeroLengthAreNoOps) {
  for (Algorithm a : kAllAlgorithms) {
    Hasher h(a);
    h.update(nullptr, 0).update(std::span<const std::uint8_t>{}).update("abc").update(nullptr, 0);
    std::vector<std::uint8_t> abc = {'a', 'b', 'c'};
    EXPECT_EQ(h.final(), openssl_digest(a, abc)) << name(a);
  }
}

TEST(Hash, CloneMidStreamDivergesIndependently) {
  for (Algorithm a : kAllAlgorithms) {
    auto m = pattern(300, 7);
    Hasher h(a);
    h.update(std::span(m).first(150));
    Hasher clone = h;
    Hasher assigned(Algorithm::sha256);
    assigned = h;
    h.update(std::span(m).subspan(150));
    clone.update("x");
    std::vector<std::uint8_t> first150x(m.begin(), m.begin() + 150);
    first150x.push_back('x');
    EXPECT_EQ(h.final(), openssl_digest(a, m)) << name(a);
    EXPECT_EQ(clone.final(), openssl_digest(a, first150x)) << name(a);
    EXPECT_EQ(assigned.algorithm(), a);
    EXPECT_EQ(assigned.final(), openssl_digest(a, std::span(m).first(150))) << name(a);
  }
}

TEST(Hash, FinalZeroizesAndResetRestarts) {
  for (Algorithm a : kAllAlgorithms) {
    Hasher h(a);
    h.update(pattern(77, 1));
    EXPECT_FALSE(all_zero(testing::raw_state(h)));
    (void)h.final();
    EXPECT_TRUE(h.finalized());
    EXPECT_TRUE(all_zero(testing::raw_state(h))) << name(a) << ": state not zeroized by final()";
    h.reset();
    EXPECT_FALSE(h.finalized());
    h.update("abc");
    EXPECT_EQ(h.final(), openssl_digest(a, std::vector<std::uint8_t>{'a', 'b', 'c'})) << name(a);
  }
}

TEST(Hash, DestructorZeroizes) {
  for (Algorithm a : kAllAlgorithms) {
    alignas(Hasher) unsigned char storage[sizeof(Hasher)];
    auto* h = new (storage) Hasher(a);
    h->update(pattern(99, 3));
    auto raw = testing::raw_state(*h);
    const std::size_t offset = static_cast<std::size_t>(raw.data() - storage), size = raw.size();
    ASSERT_LE(offset + size, sizeof storage);
    ASSERT_FALSE(all_zero(raw));
    h->~Hasher();
    EXPECT_TRUE(all_zero({storage + offset, size})) << name(a) << ": state not zeroized by the destructor";
  }
}

TEST(Hash, MisuseGetsTheDocumentedErrorAndLosesNothing) {
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(std::string(name(a)));
    auto m = pattern(200, 9);
    Hasher h(a);
    h.update(std::span(m).first(100));
    EXPECT_EQ(error_of([&] { h.update(nullptr, 5); }).first, Errc::null_pointer);
    if (!is_xof(a)) {
      std::vector<std::uint8_t> wrong(digest_size(a) + 1);
      EXPECT_EQ(error_of([&] { h.final(wrong); }).first, Errc::bad_output_length);
      std::vector<std::uint8_t> empty;
      EXPECT_EQ(error_of([&] { h.final(empty); }).first, Errc::bad_output_length);
      std::uint8_t out[64];
      EXPECT_EQ(error_of([&] { h.squeeze(out, 8); }).first, Errc::not_xof);
    }
    EXPECT_EQ(error_of([&] { h.final(nullptr, digest_size(a)); }).first, Errc::null_pointer);
    // The failed calls changed nothing: the context still produces the right digest.
    h.update(std::span(m).subspan(100));
    EXPECT_EQ(h.final(), openssl_digest(a, m));
    EXPECT_EQ(error_of([&] { h.update("x"); }).first, Errc::finalized);
    EXPECT_EQ(error_of([&] { (void)h.final(); }).first, Errc::finalized);
    std::uint8_t out[64];
    EXPECT_EQ(error_of([&] { h.squeeze(out, 1); }).first, Errc::finalized);
  }
}

TEST(Hash, OneShotArgumentChecks) {
  std::uint8_t out[64];
  EXPECT_EQ(error_of([&] { hash(Algorithm::sha256, nullptr, 1, out, 32); }).first, Errc::null_pointer);
  EXPECT_EQ(error_of([&] { hash(Algorithm::sha256, "a", 1, out, 31); }).first, Errc::bad_output_length);
  EXPECT_EQ(error_of([&] { hash(Algorithm::sha256, "a", 1, nullptr, 32); }).first, Errc::null_pointer);
  EXPECT_EQ(error_of([&] { hash(Algorithm::sha256, "nosuch/backend", {}, std::span(out, 32)); }).first,
            Errc::unknown_backend);
  // SHAKE: any output length, including 0 (with a null pointer).
  EXPECT_NO_THROW(hash(Algorithm::shake128, "a", 1, nullptr, 0));
  // Output overlapping the input at its start.
  for (Algorithm a : kAllAlgorithms) {
    auto m = pattern(150, 4);
    auto want = openssl_digest(a, m);
    std::vector<std::uint8_t> buf = m;
    hash(a, buf.data(), 150, buf.data(), want.size());
    EXPECT_TRUE(std::equal(want.begin(), want.end(), buf.begin())) << name(a) << " in-place one-shot";
  }
}

TEST(Shake, SqueezePartitionsMatchOneLongOpenSslOutput) {
  for (Algorithm a : {Algorithm::shake128, Algorithm::shake256}) {
    for (std::size_t inlen : {0u, 1u, 135u, 136u, 167u, 168u, 169u, 500u}) {
      auto m = pattern(inlen, 11);
      auto want = openssl_digest(a, m, 1000);
      // Partitions with zero-length squeezes first and in between, and pieces ending on rate boundaries.
      for (const std::vector<std::size_t>& parts : {std::vector<std::size_t>{0, 0, 1000},
                                                    {0, 1, 0, 167, 0, 168, 664},
                                                    {136, 0, 136, 136, 592},
                                                    {1, 1, 1, 997},
                                                    {168, 168, 168, 168, 168, 160}}) {
        Hasher h(a);
        h.update(m);
        std::vector<std::uint8_t> got;
        for (std::size_t p : parts) {
          std::vector<std::uint8_t> piece(p);
          h.squeeze(piece);
          got.insert(got.end(), piece.begin(), piece.end());
        }
        EXPECT_EQ(got, want) << name(a) << " inlen " << inlen;
        EXPECT_EQ(error_of([&] { h.update("x"); }).first, Errc::wrong_phase);
      }
      // final() with any length, including after squeezes and 0.
      Hasher h(a);
      h.update(m);
      std::vector<std::uint8_t> head(10), tail(990);
      h.squeeze(head);
      h.final(tail);
      head.insert(head.end(), tail.begin(), tail.end());
      EXPECT_EQ(head, want);
      Hasher z(a);
      EXPECT_NO_THROW(z.final(nullptr, 0));
      EXPECT_TRUE(z.finalized());
    }
  }
}

TEST(Counters, LengthLimitsAreEnforced) {
  // FIPS 180-4 §1: SHA-256 messages are shorter than 2^64 bits (at most 2^61 - 1 bytes),
  // SHA-512 shorter than 2^128 bits.
  Hasher h(Algorithm::sha256);
  testing::forge_byte_count(h, (1ull << 61) - 64, 0);
  std::vector<std::uint8_t> block(62);  // now at 2^61 - 2 bytes
  EXPECT_NO_THROW(h.update(block));
  EXPECT_EQ(error_of([&] { h.update("ab"); }).first, Errc::message_too_long);
  EXPECT_NO_THROW(h.update("a"));  // exactly 2^61 - 1 bytes
  EXPECT_EQ(error_of([&] { h.update("a"); }).first, Errc::message_too_long);
  EXPECT_NO_THROW((void)h.final());

  Hasher g(Algorithm::sha512);
  testing::forge_byte_count(g, ~0ull - 127, (1ull << 61) - 1);
  std::vector<std::uint8_t> b127(127);
  EXPECT_NO_THROW(g.update(b127));
  EXPECT_EQ(error_of([&] { g.update("ab"); }).first, Errc::message_too_long);
  EXPECT_NO_THROW((void)g.final());

  Hasher k(Algorithm::sha3_256);
  EXPECT_EQ(error_of([&] { testing::forge_byte_count(k, 1, 0); }).first, Errc::wrong_phase);
  Hasher s(Algorithm::sha256);
  EXPECT_EQ(error_of([&] { testing::forge_byte_count(s, 0, 1); }).first, Errc::message_too_long);
  s.update("a");
  EXPECT_EQ(error_of([&] { testing::forge_byte_count(s, 64, 0); }).first, Errc::wrong_phase);
}

TEST(Hmac, MatchesOpenSslAndTruncates) {
  for (Algorithm a : kAllAlgorithms) {
    if (is_xof(a)) {
      std::uint8_t key[4] = {};
      EXPECT_EQ(error_of([&] { Hmac(a, key, sizeof key); }).first, Errc::not_hmac_capable);
      continue;
    }
    for (std::size_t keylen : {0ul, 1ul, block_size(a) - 1, block_size(a), block_size(a) + 1, 300ul}) {
      auto key = pattern(keylen, 5);
      auto msg = pattern(333, 6);
      auto want = test::openssl_hmac(a, key, msg);
      Hmac m(a, key);
      m.update(std::span(msg).first(100)).update(std::span(msg).subspan(100));
      Hmac clone = m;
      EXPECT_EQ(m.final(), want) << name(a) << " keylen " << keylen;
      std::vector<std::uint8_t> t(10);
      clone.final(t);
      EXPECT_TRUE(std::equal(t.begin(), t.end(), want.begin())) << "truncated";
      EXPECT_EQ(hmac(a, key, msg), want);
      Hmac v(a, key);
      v.update(msg);
      EXPECT_TRUE(v.verify(want));
      v.reset();
      v.update(msg);
      auto bad = want;
      bad.back() ^= 1;
      EXPECT_FALSE(v.verify(bad));
    }
  }
}

// verify(tag) is true for the full tag only: an attacker who picks a 1-byte tag would otherwise forge a MAC in
// 256 tries. Every length but digest_size is false, whatever the bytes; so is every 1-byte tag.
TEST(Hmac, VerifyAcceptsOnlyTheFullLengthTag) {
  for (Algorithm a : kAllAlgorithms) {
    if (is_xof(a)) continue;
    SCOPED_TRACE(std::string(name(a)));
    const auto key = pattern(20, 11), msg = pattern(50, 12);
    const auto want = test::openssl_hmac(a, key, msg);
    const Hmac keyed = [&] {
      Hmac m(a, key);
      m.update(msg);
      return m;
    }();
    for (std::size_t len = 0; len <= want.size() + 8; ++len) {
      std::vector<std::uint8_t> tag(want.begin(),
                                    want.begin() + static_cast<std::ptrdiff_t>(std::min(len, want.size())));
      tag.resize(len, 0);  // longer than the MAC: the MAC followed by zeros
      Hmac v = keyed;
      EXPECT_EQ(v.verify(tag), len == want.size()) << "tag of " << len << " bytes";
      EXPECT_TRUE(v.finalized()) << "verify finalizes whatever the length";
    }
    for (unsigned b = 0; b < 256; ++b) {
      Hmac v = keyed;
      const std::uint8_t one = static_cast<std::uint8_t>(b);
      EXPECT_FALSE(v.verify({&one, 1})) << "a 1-byte tag " << b << " verified";
    }
  }
}

// Truncated tags only where the verifier states the length (hmac.h): below max(10, L/2) bytes (RFC 2104 §5) or
// above L it is refused without touching the context; a tag of another size than stated is false.
TEST(Hmac, VerifyTruncatedTakesTheLengthFromTheVerifier) {
  for (Algorithm a : kAllAlgorithms) {
    if (is_xof(a)) continue;
    SCOPED_TRACE(std::string(name(a)));
    const std::size_t L = digest_size(a);
    const std::size_t min = std::max<std::size_t>(10, (L + 1) / 2);  // RFC 2104 §5, from the RFC's text
    EXPECT_EQ(Hmac::min_truncated_length(a), min);
    const auto key = pattern(33, 13), msg = pattern(70, 14);
    const auto want = test::openssl_hmac(a, key, msg);
    Hmac m(a, key);
    m.update(msg);
    for (std::size_t refused : {std::size_t{0}, std::size_t{1}, min - 1, L + 1}) {
      EXPECT_EQ(error_of([&] { (void)m.verify_truncated(std::span(want).first(std::min(refused, L)), refused); }).first,
                Errc::bad_output_length)
          << "expected_len " << refused;
    }
    for (std::size_t len = min; len <= L; ++len) {
      const auto tag = std::span(want).first(len);
      Hmac v = m;  // m is untouched by the refusals above: it still verifies
      EXPECT_TRUE(v.verify_truncated(tag, len)) << len;
      Hmac shorter = m;
      EXPECT_FALSE(shorter.verify_truncated(tag.first(len - 1), len)) << "tag shorter than stated";
      Hmac longer = m;
      std::vector<std::uint8_t> extra(tag.begin(), tag.end());
      extra.push_back(want.size() > len ? want[len] : 0);
      EXPECT_FALSE(longer.verify_truncated(extra, len)) << "tag longer than stated";
      Hmac flipped = m;
      std::vector<std::uint8_t> bad(tag.begin(), tag.end());
      bad[len / 2] ^= 0x80;
      EXPECT_FALSE(flipped.verify_truncated(bad, len)) << "wrong byte";
    }
  }
}

TEST(Hmac, MisuseErrors) {
  std::uint8_t key[3] = {1, 2, 3};
  EXPECT_EQ(error_of([] { Hmac(Algorithm::sha256, nullptr, 3); }).first, Errc::null_pointer);
  EXPECT_NO_THROW(Hmac(Algorithm::sha256, nullptr, 0));
  Hmac m(Algorithm::sha256, key, sizeof key);
  std::vector<std::uint8_t> empty, too_long(33), ok(32);
  EXPECT_EQ(error_of([&] { m.final(empty); }).first, Errc::bad_output_length);
  EXPECT_EQ(error_of([&] { m.final(too_long); }).first, Errc::bad_output_length);
  m.final(ok);
  EXPECT_EQ(error_of([&] { m.final(ok); }).first, Errc::finalized);
  EXPECT_EQ(error_of([&] { m.final(too_long); }).first, Errc::finalized);  // the state first, as Hasher says
  EXPECT_EQ(error_of([&] { m.update("x"); }).first, Errc::finalized);
  m.reset();
  EXPECT_NO_THROW(m.update("x"));
}

TEST(Hmac, EmptyBackendNameIsAnErrorAsForHasher) {
  const std::uint8_t key[3] = {1, 2, 3};
  EXPECT_EQ(error_of([] { Hasher(Algorithm::sha256, ""); }).first, Errc::unknown_backend);
  EXPECT_EQ(error_of([&] { Hmac(Algorithm::sha256, key, ""); }).first, Errc::unknown_backend);
  EXPECT_EQ(error_of([&] { Hmac(Algorithm::shake128, key, ""); }).first, Errc::not_hmac_capable);
  EXPECT_EQ(Hmac(Algorithm::sha256, key).backend_name(), selected_backend(Family::sha256));
}

// A value outside the enumeration (an integer cast by a caller) is an Error at every entry point, never an
// out-of-bounds read (UBSan saw index 99 in algorithm.cc).
TEST(Algorithm, OutOfRangeValuesAreErrorsEverywhere) {
  for (int raw : {12, 99, 255, -1}) {
    const auto bad = static_cast<Algorithm>(raw);
    SCOPED_TRACE(raw);
    const std::uint8_t key[1] = {};
    std::uint8_t out[64];
    EXPECT_EQ(error_of([&] { (void)name(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)family_of(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)is_xof(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)digest_size(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)block_size(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { Hasher h(bad); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { Hasher h(bad, "generic"); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { hash(bad, "a", 1, out, 32); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)hash(bad, std::span<const std::uint8_t>{}); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { Hmac m(bad, key); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)hmac(bad, key, key); }).first, Errc::unknown_algorithm);
    EXPECT_EQ(error_of([&] { (void)Hmac::min_truncated_length(bad); }).first, Errc::unknown_algorithm);
  }
  for (int raw : {3, 200}) {
    const auto bad = static_cast<Family>(raw);
    EXPECT_EQ(error_of([&] { (void)name(bad); }).first, Errc::unknown_family);
    EXPECT_EQ(error_of([&] { (void)backends(bad); }).first, Errc::unknown_family);
    EXPECT_EQ(error_of([&] { (void)available_backends(bad); }).first, Errc::unknown_family);
    EXPECT_EQ(error_of([&] { (void)selected_backend(bad); }).first, Errc::unknown_family);
  }
}

// Every refusal is a shakedown::Error with a code, including outputs too large to allocate: SIZE_MAX is refused by
// std::vector (std::length_error), the others by the allocator (std::bad_alloc). The ASan, TSan and MSan allocators
// abort the process on the latter instead of throwing, so sanitizer builds check the first only.
TEST(Hash, UnallocatableOutputIsAnError) {
  const std::uint8_t in[1] = {};
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHAKEDOWN_API_TEST_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SHAKEDOWN_API_TEST_SANITIZER_ALLOCATOR 1
#endif
#endif
#if SHAKEDOWN_API_TEST_SANITIZER_ALLOCATOR
  for (std::size_t len : {SIZE_MAX}) {
#else
  for (std::size_t len : {SIZE_MAX, SIZE_MAX / 2, std::size_t{1} << 62}) {
#endif
    EXPECT_EQ(error_of([&] { (void)hash(Algorithm::shake128, in, len); }).first, Errc::bad_output_length) << len;
  }
}

// Bytes [0, n) of the state a context holds after absorbing `absorbed` (its secret-bearing words).
std::vector<std::uint8_t> state_words(Algorithm a, std::span<const std::uint8_t> absorbed, std::size_t n) {
  Hasher h(a);
  h.update(absorbed);
  const auto raw = testing::raw_state(h);
  return {raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(n)};
}

bool contains(std::span<const std::uint8_t> haystack, std::span<const std::uint8_t> needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) != haystack.end();
}

template <class T>
std::span<const std::uint8_t> object_bytes(const T& object) {
  return {reinterpret_cast<const std::uint8_t*>(&object), sizeof object};
}

// A move leaves no copy of the secret state in the source (moved-from objects live on until their scope ends).
TEST(Hash, MoveWipesTheSource) {
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(std::string(name(a)));
    const auto msg = pattern(300, 21);
    Hasher src(a);
    src.update(msg);
    const std::vector<std::uint8_t> live(testing::raw_state(src).begin(), testing::raw_state(src).end());
    Hasher dst(std::move(src));
    EXPECT_TRUE(all_zero(testing::raw_state(src))) << "move construction left the state in the source";
    EXPECT_TRUE(src.finalized());
    EXPECT_EQ(error_of([&] { src.update("x"); }).first, Errc::finalized);
    EXPECT_TRUE(std::ranges::equal(testing::raw_state(dst), live));
    Hasher other(a);
    other = std::move(dst);
    EXPECT_TRUE(all_zero(testing::raw_state(dst))) << "move assignment left the state in the source";
    EXPECT_EQ(other.final(), openssl_digest(a, msg));
    src.reset();  // a moved-from Hasher holds no secret: reset makes it a fresh context
    src.update("abc");
    EXPECT_EQ(src.final(), openssl_digest(a, std::vector<std::uint8_t>{'a', 'b', 'c'}));
  }
}

// The keyed inner state (H(K0 ^ ipad) chaining value, FIPS 198-1 §4 step 5) is found in a live Hmac and nowhere
// in a moved-from one; the moved-from Hmac cannot MAC again, reset() included.
TEST(Hmac, MoveWipesTheSourceKeyedStates) {
  for (Algorithm a : kAllAlgorithms) {
    if (is_xof(a)) continue;
    SCOPED_TRACE(std::string(name(a)));
    const auto key = pattern(40, 22), msg = pattern(77, 23);
    std::vector<std::uint8_t> k0_ipad(block_size(a), 0x36);
    for (std::size_t i = 0; i < key.size(); ++i) k0_ipad[i] ^= key[i];
    const auto keyed = state_words(a, k0_ipad, 32);
    Hmac src(a, key);
    src.update(msg);
    ASSERT_TRUE(contains(object_bytes(src), keyed)) << "the search cannot find the keyed state it looks for";
    Hmac dst(std::move(src));
    EXPECT_FALSE(contains(object_bytes(src), keyed)) << "move construction left the keyed state in the source";
    EXPECT_TRUE(src.finalized());
    src.reset();
    EXPECT_TRUE(src.finalized()) << "reset() must not revive a moved-from Hmac";
    for (const auto& [code, message] :
         {error_of([&] { src.update("x"); }), error_of([&] { (void)src.final(); }),
          error_of([&] { (void)src.verify(std::vector<std::uint8_t>(digest_size(a))); })}) {
      EXPECT_EQ(code, Errc::finalized);
      // Not "call reset() first": reset() cannot bring the key back.
      EXPECT_NE(message.find("moved from: it holds no key"), std::string::npos) << message;
    }
    Hmac finished(a, key);
    (void)finished.final();
    const auto [code, message] = error_of([&] { finished.update("x"); });
    EXPECT_NE(message.find("call reset() first"), std::string::npos) << message;  // where reset() does help
    Hmac assigned(a, pattern(3, 1));
    assigned = std::move(dst);
    EXPECT_FALSE(contains(object_bytes(dst), keyed)) << "move assignment left the keyed state in the source";
    EXPECT_EQ(assigned.final(), test::openssl_hmac(a, key, msg));
    assigned.reset();  // the destination keeps the key
    assigned.update(msg);
    EXPECT_TRUE(assigned.verify(test::openssl_hmac(a, key, msg)));
  }
}

// Names from a caller (an FFI string, an environment value) are echoed escaped: no control byte, no malformed
// UTF-8 reaches a message (a terminal, a log, or a decoder such as ctypes' .decode() would take them in).
TEST(Errors, EchoedNamesAreEscapedToPrintableUtf8) {
  const std::string hostile = std::string("a\x1b[2J\xff\xc2\x9b\\b\x01") + "\xc3\xa9";
  const std::string shown = "'a\\x1b[2J\\xff\\xc2\\x9b\\\\b\\x01\xc3\xa9'";
  for (const auto& [code, message] :
       {error_of([&] { (void)algorithm_from_name(hostile); }), error_of([&] { (void)family_from_name(hostile); }),
        error_of([&] { Hasher(Algorithm::sha256, hostile); }), error_of([&] {
          testing::reselect("sha256=" + hostile);
          check_environment();
        })}) {
    EXPECT_NE(message.find(shown), std::string::npos) << message;
    for (const char c : message) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << message;
  }
  testing::reselect(std::nullopt);
}

}  // namespace
}  // namespace shakedown
