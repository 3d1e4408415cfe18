// Byte-counter checks per (SHA-2 algorithm, backend): contexts forged to counts just below 2^32 and 2^61
// bytes (and, for SHA-512, at and beyond 2^64 bits), finished by our API and compared with the padded
// length computed by the test itself (FIPS 180-4 §5.1) run through the generic block function.
#include <gtest/gtest.h>

#include <cstring>

#include "diff_support.h"
#include "families.h"
#include "reference.h"
#include "shakedown/testing.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;
using u128 = unsigned __int128;

struct Forged {
  std::uint64_t lo, hi;
};

std::string describe(Forged f) {
  char s[64];
  std::snprintf(s, sizeof s, "bytes_hi=0x%llx bytes_lo=0x%llx", static_cast<unsigned long long>(f.hi),
                static_cast<unsigned long long>(f.lo));
  return s;
}

template <class Word>
void check_counters(const test::AlgBackend& p) {
  using F = Sha2Family<Word>;
  constexpr std::size_t B = F::kBlock;
  // FIPS 180-4 §1: SHA-256 messages are < 2^64 bits, SHA-512 messages < 2^128 bits.
  const u128 limit_bytes = B == 64 ? (u128{1} << 61) : (u128{1} << 125);
  std::vector<Forged> counts = {{(1ull << 32) - B, 0}, {(1ull << 32) - 2 * B, 0}, {(1ull << 61) - B, 0},
                                {(1ull << 61) - 2 * B, 0}};
  if (B == 128) {
    counts.push_back({1ull << 61, 0});                    // exactly 2^64 bits: the high length word becomes 1
    counts.push_back({0ull - B, 0});                      // bytes_lo about to carry into bytes_hi
    counts.push_back({0, 1});                             // 2^67 bits
    counts.push_back({0ull - B, (1ull << 61) - 1});       // the last block before 2^128 bits
  }
  const std::size_t tails[] = {0, 1, B - 9, B - 8, B - 1, B, B + 5, 2 * B + 3};
  const auto& generic = F::get("generic");
  std::size_t runs = 0;
  for (const Forged& n : counts) {
    for (std::size_t t : tails) {
      const std::string shape = who(p) + " forged " + describe(n) + " then " + std::to_string(t) + " bytes";
      const Bytes head = test::pattern(2 * B, 61), tail = test::pattern(t, 62);
      Hasher h(p.alg, p.backend);
      h.update(head);  // an arbitrary chaining value, not the IV
      Word cv[8];
      ref::chaining_value(h, cv);
      testing::forge_byte_count(h, n.lo, n.hi);
      const u128 total = ((u128{n.hi} << 64) | n.lo) + t;
      if (total >= limit_bytes) {
        try {
          h.update(tail);
          ADD_FAILURE() << shape << ": update past the FIPS 180-4 §1 limit was accepted";
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), Errc::message_too_long) << shape << ": " << e.what();
        }
        ++runs;
        continue;
      }
      h.update(tail);
      Bytes got(digest_size(p.alg));
      h.final(got);
      // Independent: tail || padding of the 128-bit total, built by the test, through generic blocks().
      Bytes rest = tail;
      const auto pad = ref::md_padding(static_cast<std::uint64_t>(total), static_cast<std::uint64_t>(total >> 64), B);
      rest.insert(rest.end(), pad.begin(), pad.end());
      EXPECT_EQ(rest.size() % B, 0u) << shape;
      generic.blocks(cv, rest.data(), rest.size() / B);
      EXPECT_EQ(test::to_hex(got), test::to_hex(ref::md_digest(cv, digest_size(p.alg)))) << shape;
      ++runs;
    }
  }
  record(p, "byte-counters", runs);
}

class CounterDiff : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(CounterDiff, ForgedCountsNear2To32And2To61Bytes) {
  if (family_of(GetParam().alg) == Family::sha256)
    check_counters<std::uint32_t>(GetParam());
  else
    check_counters<std::uint64_t>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, CounterDiff, ::testing::ValuesIn(sha2_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
