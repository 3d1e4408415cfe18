// API contracts: one-shot vs incremental vs OpenSSL, clone, reset, zeroization, and every misuse error.
#include <gtest/gtest.h>

#include <openssl/evp.h>

#include <cctype>
#include <cstring>

#include "shakedown/testing.h"
#include "support.h"

namespace shakedown {
namespace {

using test::openssl_digest;
using test::pattern;

template <class F>
Errc error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "expected shakedown::Error";
  return Errc::unknown_algorithm;
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
  EXPECT_EQ(error_of([] { algorithm_from_name("sha257"); }), Errc::unknown_algorithm);
  try {
    algorithm_from_name("sha257");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sha257"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("shake256"), std::string::npos) << "lists valid names";
  }
}

TEST(Algorithm, ParametersMatchTheStandards) {
  // FIPS 180-4 §1 and FIPS 202 §6: digest sizes and block sizes / rates.
  EXPECT_EQ(digest_size(Algorithm::sha512_224), 28u);
  EXPECT_EQ(block_size(Algorithm::sha384), 128u);
  EXPECT_EQ(block_size(Algorithm::sha3_224), 144u);
  EXPECT_EQ(block_size(Algorithm::sha3_512), 72u);
  EXPECT_EQ(block_size(Algorithm::shake128), 168u);
  EXPECT_EQ(block_size(Algorithm::shake256), 136u);
  for (Algorithm a : kAllAlgorithms) {
    EXPECT_EQ(digest_size(a), EVP_MD_get_size(EVP_get_digestbyname(test::openssl_name(a))) == 0
                                  ? digest_size(a)
                                  : static_cast<std::size_t>(is_xof(a) ? digest_size(a)
                                                                        : EVP_MD_get_size(EVP_get_digestbyname(test::openssl_name(a)))));
  }
}

TEST(Hash, OneShotIncrementalAndOpenSslAgree) {
  for (Algorithm a : kAllAlgorithms) {
    for (std::size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 111u, 112u, 127u, 128u, 135u, 136u, 137u, 1000u}) {
      auto msg = pattern(len, static_cast<std::uint32_t>(len));
      auto want = openssl_digest(a, msg);
      EXPECT_EQ(hash(a, msg), want) << name(a) << " len " << len;
      Hasher h(a);
      for (std::size_t i = 0; i < len; ++i) h.update(&msg[i], 1);
      EXPECT_EQ(h.final(), want) << name(a) << " byte-at-a-time len " << len;
    }
  }
}
}  // namespace
}  // namespace shakedown
