// HMAC differential suite per (digest, backend) vs OpenSSL EVP_MAC: key lengths 0..292 (shorter than,
// equal to and longer than every block size, FIPS 198-1 §4 steps 1-3) x data lengths, plus truncation.
#include <gtest/gtest.h>

#include <algorithm>

#include "diff_support.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;

class HmacDiff : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(HmacDiff, KeyLengths0To292) {
  const auto& p = GetParam();
  const std::size_t block = block_size(p.alg), n = digest_size(p.alg);
  constexpr std::size_t kMaxKey = 292;  // > 2 x 144 (SHA3-224 rate), the largest HMAC block size
  const Bytes keys = test::pattern(kMaxKey, 292);
  constexpr std::size_t kShortMax = 150;  // the first data length of each key is 1..kShortMax
  const Bytes data = test::pattern(std::max(2 * block + 2, kShortMax), 293);
  std::size_t runs = 0;
  for (std::size_t klen = 0; klen <= kMaxKey; ++klen) {
    std::span<const std::uint8_t> key(keys.data(), klen);
    // Three data lengths per key, rotating through the interesting ones so every key meets each.
    const std::size_t data_lengths[] = {klen % 3 == 0 ? 0 : 1 + (klen * 7) % kShortMax, block - 1 + klen % 3,
                                        2 * block + klen % 3};
    for (std::size_t dlen : data_lengths) {
      std::span<const std::uint8_t> msg(data.data(), dlen);
      const Bytes want = test::openssl_hmac(p.alg, key, msg);
      Hmac mac(p.alg, key, p.backend);
      mac.update(msg.first(dlen / 2)).update(msg.subspan(dlen / 2));
      Hmac truncated(mac);  // clone mid-stream; FIPS 198-1 §5: the leftmost bytes
      ASSERT_EQ(mac.final(), want) << who(p) << " HMAC key length " << klen << " (key = pattern(292, 292) prefix),"
                                   << " data length " << dlen << " (pattern(" << data.size() << ", 293) prefix)"
                                   << ", updates [" << dlen / 2 << "," << dlen - dlen / 2 << "]";
      const std::size_t t = 1 + klen % n;
      Bytes tag(t);
      truncated.final(tag);
      ASSERT_EQ(tag, Bytes(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(t)))
          << who(p) << " HMAC truncated to " << t << " bytes, key length " << klen << ", data length " << dlen;
      runs += 2;
    }
  }
  record(p, "hmac-key-lengths", runs);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, HmacDiff, ::testing::ValuesIn(hmac_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
