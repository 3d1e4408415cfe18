// Backend-level checks per (family, backend): each block function called directly with random starting
// states and block counts 1..16 vs generic, split-consistency, and nblocks = 0 touching no memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "diff_support.h"
#include "families.h"
#include "reference.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;

class BlockDiff : public ::testing::TestWithParam<test::FamilyBackend> {};

// Input placement that alternates between ending exactly at a guard page (over-reads fault) and
// starting right after one at an odd offset (misaligned loads).
struct PlacedBlocks {
  GuardedBuffer buf;
  const std::uint8_t* data;
  PlacedBlocks(const Bytes& bytes, std::size_t iteration)
      : buf(bytes.size() + (iteration % 2 ? iteration % 61 + 1 : 0), iteration % 2 == 0) {
    std::uint8_t* d = buf.data() + (iteration % 2 ? iteration % 61 + 1 : 0);
    std::memcpy(d, bytes.data(), bytes.size());
    data = d;
  }
};

template <class Word>
void check_sha2_blocks(const test::FamilyBackend& p) {
  using F = Sha2Family<Word>;
  const auto& be = F::get(p.backend);
  const auto& generic = F::get("generic");
  const bool vs_generic = p.backend != "generic";  // generic vs itself proves nothing
  const std::size_t iterations = test::scaled(200, 16);
  const std::string param = test::param_name(p);
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("blocks", param, i);
    Rng rng(seed);
    Word start[8];
    for (auto& w : start) w = static_cast<Word>(rng.next());
    const std::size_t n = 1 + i % 16;
    const Bytes bytes = rng.bytes(n * F::kBlock);
    PlacedBlocks in(bytes, i);
    const std::string shape = who(p) + " blocks(): seed=" + std::to_string(seed) + " iteration=" +
                              std::to_string(i) + " nblocks=" + std::to_string(n) + " data address mod 64=" +
                              std::to_string(reinterpret_cast<std::uintptr_t>(in.data) % 64);
    CrashNote note(shape);
    Word got[8], want[8], split[8];
    std::copy(start, start + 8, got);
    std::copy(start, start + 8, want);
    std::copy(start, start + 8, split);
    be.blocks(got, in.data, n);
    if (vs_generic) {
      generic.blocks(want, in.data, n);
      ASSERT_TRUE(std::equal(got, got + 8, want)) << shape << ": differs from generic";
    }
    // The same blocks in two calls split at k must give the same state (no cross-call assumptions).
    const std::size_t k = rng.below(n + 1);
    be.blocks(split, in.data, k);
    be.blocks(split, in.data + k * F::kBlock, n - k);
    ASSERT_TRUE(std::equal(got, got + 8, split)) << shape << ": one call differs from calls of " << k << " and "
                                                 << n - k << " blocks";
  }
  if (vs_generic) record(p, "blocks-vs-generic", iterations);
  record(p, "blocks-split-consistency", iterations);
}

void check_keccak(const test::FamilyBackend& p) {
  const auto& be = shakedown::backend<Family::keccak>(p.backend);
  const auto& generic = shakedown::backend<Family::keccak>("generic");
  const bool vs_generic = p.backend != "generic";
  const std::size_t iterations = test::scaled(200, 16);
  const std::string param = test::param_name(p);
  std::size_t absorbs = 0;
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::uint64_t seed = seed_for("keccak", param, i);
    Rng rng(seed);
    std::uint64_t start[25];
    for (auto& lane : start) lane = rng.next();
    const std::string shape = who(p) + " seed=" + std::to_string(seed) + " iteration=" + std::to_string(i);
    CrashNote note(shape);
    std::uint64_t got[25], want[25];
    std::copy(start, start + 25, got);
    std::copy(start, start + 25, want);
    be.permute(got);
    if (vs_generic) {
      generic.permute(want);
      ASSERT_TRUE(std::equal(got, got + 25, want)) << shape << ": permute differs from generic";
    }
    if (!be.absorb) continue;
    // absorb(st, data, n, rate) == n x (XOR one block per FIPS 202 §B.1 byte order, permute).
    const std::size_t rate = kKeccakRates[i % std::size(kKeccakRates)];
    const std::size_t n = 1 + (i / std::size(kKeccakRates)) % 16;
    const Bytes bytes = rng.bytes(n * rate);
    PlacedBlocks in(bytes, i);
    std::copy(start, start + 25, got);
    std::copy(start, start + 25, want);
    be.absorb(got, in.data, n, rate);
    for (std::size_t b = 0; b < n; ++b) {
      ref::sponge_xor(want, bytes.data() + b * rate, rate);
      (vs_generic ? generic : be).permute(want);
    }
    ASSERT_TRUE(std::equal(got, got + 25, want))
        << shape << ": absorb(rate " << rate << ", nblocks " << n << ") differs from XOR + "
        << (vs_generic ? "generic" : "its own") << " permute";
    ++absorbs;
  }
  if (vs_generic) record(p, "permute-vs-generic", iterations);
  if (absorbs) record(p, "absorb-vs-permute", absorbs);
}

TEST_P(BlockDiff, RandomStatesAndBlockCounts) {
  switch (GetParam().family) {
    case Family::sha256: return check_sha2_blocks<std::uint32_t>(GetParam());
    case Family::sha512: return check_sha2_blocks<std::uint64_t>(GetParam());
    case Family::keccak: return check_keccak(GetParam());
  }
}

// nblocks = 0 must touch no memory (backend.h): state and data pointers both point at an inaccessible
// page. Run in a forked child so that a fault fails this test only, with the call named.
TEST_P(BlockDiff, ZeroBlockCountTouchesNoMemory) {
  const auto& p = GetParam();
  auto* page = inaccessible_page();  // page-aligned, so viewing it as state words is aligned
  switch (p.family) {
    case Family::sha256: {
      const auto& be = shakedown::backend<Family::sha256>(p.backend);
      EXPECT_EXIT((be.blocks(static_cast<std::uint32_t*>(static_cast<void*>(page)), page, 0), std::_Exit(0)),
                  ::testing::ExitedWithCode(0), "")
          << who(p) << " blocks(h, data, 0) with h and data on an inaccessible page";
      break;
    }
    case Family::sha512: {
      const auto& be = shakedown::backend<Family::sha512>(p.backend);
      EXPECT_EXIT((be.blocks(static_cast<std::uint64_t*>(static_cast<void*>(page)), page, 0), std::_Exit(0)),
                  ::testing::ExitedWithCode(0), "")
          << who(p) << " blocks(h, data, 0) with h and data on an inaccessible page";
      break;
    }
    case Family::keccak: {
      const auto& be = shakedown::backend<Family::keccak>(p.backend);
      if (!be.absorb) GTEST_SKIP() << who(p) << " has no absorb(); permute() has no block count";
      for (std::size_t rate : kKeccakRates)
        EXPECT_EXIT((be.absorb(static_cast<std::uint64_t*>(static_cast<void*>(page)), page, 0, rate), std::_Exit(0)),
                    ::testing::ExitedWithCode(0), "")
            << who(p) << " absorb(st, data, 0, " << rate << ") with st and data on an inaccessible page";
      break;
    }
  }
  if (!HasFailure()) record(p, "zero-block-count");
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, BlockDiff, ::testing::ValuesIn(test::all_family_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
