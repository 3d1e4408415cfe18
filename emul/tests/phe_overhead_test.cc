// Measures the trap round trip and the cost per emulated block (reported, never asserted: tests never assert
// on time). Numbers go to stdout and to the gtest XML as properties; emul/README.md records them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "phe_caller.h"
#include "phe_fixture.h"
#include "sha_reference.h"

namespace shakedown::emul::test {
namespace {

// Best of 5 runs of fn(), in nanoseconds per call of its inner loop (iterations each).
template <class Fn>
double best_ns(std::size_t iterations, Fn fn) {
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < iterations; ++i) fn();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(iterations));
  }
  return best;
}

TEST(Overhead, TrapsPerSecondAndCostPerBlock) {
  install(make_options(PheProfile::zhaoxin));
  const auto data = message(128 * 64);  // 128 SHA-256 blocks, 64 SHA-512 blocks
  StateBuffer s(kIvSha512);
  // RCX = 0: a complete trap round trip with no model work (kernel delivery, decode, sigreturn).
  const double trap = best_ns(5000, [&] { rep_phe<kOpXsha256>(kMultiBlock, 0, data.data(), s.bytes); });
  const double many256 = best_ns(200, [&] { rep_phe<kOpXsha256>(kMultiBlock, 128, data.data(), s.bytes); });
  const double many512 = best_ns(200, [&] { rep_phe<kOpXsha512>(kMultiBlock, 64, data.data(), s.bytes); });
  std::uint32_t h256[8] = {};
  std::uint64_t h512[8] = {};
  const double direct256 = best_ns(5000, [&] { detail::sha256_compress(h256, data.data()); });
  const double direct512 = best_ns(5000, [&] { detail::sha512_compress(h512, data.data()); });
  uninstall();
  // What one emulated block costs beyond the trap: (instruction time - empty trap) / blocks.
  const double per_block256 = (many256 - trap) / 128, per_block512 = (many512 - trap) / 64;
  std::printf("emul overhead: %.0f traps/s (%.2f us per trap round trip, RCX = 0)\n", 1e9 / trap, trap / 1e3);
  std::printf("emul overhead: XSHA256 %.0f ns per block beyond the trap (reference compress alone %.0f ns); "
              "a 1-block instruction costs %.2f us\n", per_block256, direct256, (trap + per_block256) / 1e3);
  std::printf("emul overhead: XSHA512 %.0f ns per block beyond the trap (reference compress alone %.0f ns)\n",
              per_block512, direct512);
  ::testing::Test::RecordProperty("traps_per_second", static_cast<int>(1e9 / trap));
  ::testing::Test::RecordProperty("ns_per_sha256_block", static_cast<int>(per_block256));
  ::testing::Test::RecordProperty("ns_per_sha512_block", static_cast<int>(per_block512));
  EXPECT_GT(trap, 0.0);
}

}  // namespace
}  // namespace shakedown::emul::test
