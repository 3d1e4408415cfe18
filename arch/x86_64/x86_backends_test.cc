// Direct block-function tests of the x86-64 SHA-2 backends against the generic code: random
// states, 0..16 blocks, misaligned data, a guard page after the input, and nblocks == 0.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "shakedown/shakedown.h"
#include "support.h"

namespace shakedown {
namespace {

struct Case {
  Family family;
  const char* backend;
};

// The x86-64 SHA-2 backends of arch/x86_64/backends.cc (the PadLock ones have their own tests).
const Case kCases[] = {
    {Family::sha256, "x86_64/shani"},
    {Family::sha256, "x86_64/avx2"},
    {Family::sha512, "x86_64/avx2"},
    {Family::sha512, "x86_64/avx512"},
    {Family::sha512, "x86_64/sha512ni"},  // only with its instructions emulated (emul/tests_x86_64.cmake)
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::string(shakedown::name(info.param.family)) + "_" + info.param.backend;
  for (char& c : name)
    if (c == '/' || c == '-') c = '_';
  return name;
}

// Finds a compiled backend row by name; null when it is not compiled into this build.
template <class Backend>
const Backend* find_row(std::span<const Backend> table, std::string_view name) {
  for (const Backend& row : table)
    if (row.info.name == name) return &row;
  return nullptr;
}

// Skips (never passes) when the backend is not compiled in or the CPU lacks it; the coverage
// gate then sees no record for it.
class X86Sha2Blocks : public ::testing::TestWithParam<Case> {};

// Compares `blocks` with `generic` for nblocks 0..16 at every alignment 0..7, random states.
template <class Word, std::size_t kBlock, class Fn>
std::uint64_t compare_with_generic(Fn blocks, Fn generic, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uint64_t checks = 0;
  const std::size_t iterations = test::scaled(24, 2);
  for (std::size_t iter = 0; iter < iterations; ++iter) {
    for (std::size_t nblocks = 0; nblocks <= 16; ++nblocks) {
      const std::size_t offset = iter % 8;
      std::vector<std::uint8_t> buffer(nblocks * kBlock + offset);
      for (auto& b : buffer) b = static_cast<std::uint8_t>(rng());
      Word expected[8], actual[8];
      for (Word& w : expected) w = static_cast<Word>(rng());
      std::memcpy(actual, expected, sizeof actual);
      // nblocks == 0 passes a null pointer: the seam forbids touching memory then.
      const std::uint8_t* data = nblocks ? buffer.data() + offset : nullptr;
      generic(expected, data, nblocks);
      blocks(actual, data, nblocks);
      EXPECT_EQ(0, std::memcmp(expected, actual, sizeof actual)) << "nblocks " << nblocks << " offset " << offset;
      ++checks;
    }
  }
  return checks;
}

// The last block ends exactly at a PROT_NONE page: any over-read faults.
template <class Word, std::size_t kBlock, class Fn>
void guard_page_check(Fn blocks, Fn generic) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* base = static_cast<std::uint8_t*>(map);
  ASSERT_EQ(0, mprotect(base + page, page, PROT_NONE));
  for (std::size_t i = 0; i < page; ++i) base[i] = static_cast<std::uint8_t>(i * 7 + 1);
  for (std::size_t nblocks = 1; nblocks <= 3; ++nblocks) {
    const std::uint8_t* data = base + page - nblocks * kBlock;
    Word expected[8] = {1, 2, 3, 4, 5, 6, 7, 8}, actual[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    generic(expected, data, nblocks);
    blocks(actual, data, nblocks);
    EXPECT_EQ(0, std::memcmp(expected, actual, sizeof actual)) << "nblocks " << nblocks;
  }
  munmap(map, 2 * page);
}

TEST_P(X86Sha2Blocks, MatchesGeneric) {
  const Case& c = GetParam();
  std::uint64_t checks = 0;
  if (c.family == Family::sha256) {
    const Sha256Backend* row = find_row(sha256_backends(), c.backend);
    if (!row) GTEST_SKIP() << c.backend << " is not compiled into this build";
    if (!row->info.available(cpu_features())) GTEST_SKIP() << c.backend << " needs " << row->info.needs;
    const auto generic = sha256_backend("generic").blocks;
    checks = compare_with_generic<std::uint32_t, 64>(row->blocks, generic, 256);
    guard_page_check<std::uint32_t, 64>(row->blocks, generic);
  } else {
    const Sha512Backend* row = find_row(sha512_backends(), c.backend);
    if (!row) GTEST_SKIP() << c.backend << " is not compiled into this build";
    if (!row->info.available(cpu_features())) GTEST_SKIP() << c.backend << " needs " << row->info.needs;
    const auto generic = sha512_backend("generic").blocks;
    checks = compare_with_generic<std::uint64_t, 128>(row->blocks, generic, 512);
    guard_page_check<std::uint64_t, 128>(row->blocks, generic);
  }
  if (!HasFailure()) test::record("x86_blocks", c.family, c.backend, "blocks_vs_generic", checks);
}

INSTANTIATE_TEST_SUITE_P(X86, X86Sha2Blocks, ::testing::ValuesIn(kCases), case_name);

// x86_64/sha512ni needs the SHA512 CPUID bit and VEX.256 state: AVX with OS-enabled YMM state, plus AVX2 for
// the code around the instructions. Each missing piece alone makes it unavailable (docs/intel-sha512.md). The
// emulated runs cover "all present" and qemu-x86_64 -cpu max,-xsave the missing YMM state; this covers the rest.
TEST(X86Sha512ni, PredicateNeedsSha512AvxAvx2AndYmmState) {
  const Sha512Backend* row = find_row(sha512_backends(), "x86_64/sha512ni");
  if (!row) GTEST_SKIP() << "x86_64/sha512ni is not compiled into this build";
  const CpuFeature all[] = {CpuFeature::x86_sha512, CpuFeature::x86_avx, CpuFeature::x86_avx2, CpuFeature::x86_os_ymm};
  CpuFeatures full;
  for (CpuFeature f : all) full.set(f);
  EXPECT_TRUE(row->info.available(full));
  for (CpuFeature missing : all) {
    CpuFeatures f = full;
    f.set(missing, false);
    EXPECT_FALSE(row->info.available(f)) << "available without " << feature_name(missing);
  }
}

}  // namespace
}  // namespace shakedown
