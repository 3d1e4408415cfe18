// ABI check per (family, backend): every block-function entry point, called through the trampoline with
// canaries in the callee-saved registers, must give them back intact (and compute the same result).
#include <gtest/gtest.h>

#include <algorithm>

#include "abi/abi_call.h"
#include "diff_support.h"
#include "families.h"

namespace shakedown::diff {
namespace {

class AbiDiff : public ::testing::TestWithParam<test::FamilyBackend> {};

#if SHAKEDOWN_DIFF_ABI_CALL

// Calls fn through the trampoline with fresh canaries; returns a failure description or "".
template <class Fn>
std::string call_checked(Rng& rng, Fn fn, std::uintptr_t a0, std::uintptr_t a1, std::uintptr_t a2,
                         std::uintptr_t a3) {
  abi::Registers regs{};
  for (auto& r : regs.before) r = rng.next();
  abi::shakedown_abi_call(reinterpret_cast<const void*>(fn), a0, a1, a2, a3, &regs);
  std::string bad;
  for (std::size_t i = 0; i < abi::kCalleeSaved; ++i)
    if (regs.after[i] != regs.before[i]) bad += std::string(" ") + abi::kCalleeSavedNames[i] + " clobbered;";
  if (regs.flags_after & abi::kFlagsMustBeClear) bad += " direction flag left set;";
  return bad;
}

template <class Word>
void check_sha2(const test::FamilyBackend& p, Rng& rng, std::size_t& calls) {
  using F = Sha2Family<Word>;
  const auto& be = F::get(p.backend);
  for (std::size_t n : {0, 1, 2, 5}) {
    const auto data = rng.bytes(n * F::kBlock + 1);
    Word via[8], direct[8];
    for (auto& w : via) w = static_cast<Word>(rng.next());
    std::copy(via, via + 8, direct);
    std::string bad = call_checked(rng, be.blocks, reinterpret_cast<std::uintptr_t>(via),
                                   reinterpret_cast<std::uintptr_t>(data.data()), n, 0);
    EXPECT_EQ(bad, "") << who(p) << " blocks(h, data, " << n << ") through the ABI trampoline";
    be.blocks(direct, data.data(), n);
    EXPECT_TRUE(std::equal(via, via + 8, direct)) << who(p) << " blocks() result via trampoline, nblocks " << n;
    ++calls;
  }
}

void check_keccak(const test::FamilyBackend& p, Rng& rng, std::size_t& calls) {
  const auto& be = shakedown::backend<Family::keccak>(p.backend);
  std::uint64_t via[25], direct[25];
  for (auto& lane : via) lane = rng.next();
  std::copy(via, via + 25, direct);
  EXPECT_EQ(call_checked(rng, be.permute, reinterpret_cast<std::uintptr_t>(via), 0, 0, 0), "")
      << who(p) << " permute() through the ABI trampoline";
  be.permute(direct);
  EXPECT_TRUE(std::equal(via, via + 25, direct)) << who(p) << " permute() result via trampoline";
  ++calls;
  if (!be.absorb) return;
  for (std::size_t rate : kKeccakRates) {
    for (std::size_t n : {0, 1, 3}) {
      const auto data = rng.bytes(n * rate + 1);
      std::string bad = call_checked(rng, be.absorb, reinterpret_cast<std::uintptr_t>(via),
                                     reinterpret_cast<std::uintptr_t>(data.data()), n, rate);
      EXPECT_EQ(bad, "") << who(p) << " absorb(st, data, " << n << ", " << rate << ") through the ABI trampoline";
      be.absorb(direct, data.data(), n, rate);
      EXPECT_TRUE(std::equal(via, via + 25, direct)) << who(p) << " absorb() result via trampoline";
      ++calls;
    }
  }
}

// The multi-lane entry (backend.h): L states over nblocks blocks of their own data each (plus a rate for Keccak).
template <Family F>
void check_multi(const test::FamilyBackend& p, Rng& rng, std::size_t& calls) {
  using Word = typename FamilyTraits<F>::Word;
  constexpr std::size_t W = FamilyTraits<F>::kStateWords;
  const auto& be = shakedown::backend<F>(p.backend);
  const std::size_t L = be.multi.lanes;
  if (L == 0) return;
  const std::size_t block = F == Family::keccak ? kKeccakRates[0] : FamilyTraits<F>::kBlockBytes;
  for (std::size_t n : {0, 1, 3}) {
    std::vector<std::vector<Word>> via(L, std::vector<Word>(W)), direct;
    std::vector<std::vector<std::uint8_t>> data;
    std::vector<Word*> via_p, direct_p;
    std::vector<const std::uint8_t*> data_p;
    for (auto& st : via)
      for (auto& w : st) w = static_cast<Word>(rng.next());
    direct = via;
    for (std::size_t l = 0; l < L; ++l) {
      data.push_back(rng.bytes(n * block + 1));
      via_p.push_back(via[l].data());
      direct_p.push_back(direct[l].data());
      data_p.push_back(data.back().data());
    }
    const auto states = reinterpret_cast<std::uintptr_t>(via_p.data());
    const auto inputs = reinterpret_cast<std::uintptr_t>(data_p.data());
    EXPECT_EQ(call_checked(rng, be.multi.fn, states, inputs, n, F == Family::keccak ? block : 0), "")
        << who(p) << " multi-lane entry (" << L << " lanes, nblocks " << n << ") through the ABI trampoline";
    if constexpr (F == Family::keccak) be.multi.fn(direct_p.data(), data_p.data(), n, block);
    else be.multi.fn(direct_p.data(), data_p.data(), n);
    EXPECT_EQ(via, direct) << who(p) << " multi-lane result via trampoline, nblocks " << n;
    ++calls;
  }
  test::record("multi", p.family, p.backend, "abi-callee-saved", 3);
}

TEST_P(AbiDiff, CalleeSavedRegistersPreserved) {
  const auto& p = GetParam();
  Rng rng(seed_for("abi", test::param_name(p), 0));
  std::size_t calls = 0;
  switch (p.family) {
    case Family::sha256: check_sha2<std::uint32_t>(p, rng, calls); break;
    case Family::sha512: check_sha2<std::uint64_t>(p, rng, calls); break;
    case Family::keccak: check_keccak(p, rng, calls); break;
  }
  visit_family(p.family, [&]<class T>(T) { check_multi<T::kFamily>(p, rng, calls); });
  record(p, "abi-callee-saved", calls);
}

// The check must be able to fail: a function that breaks the ABI on purpose is caught.
TEST(AbiTrampoline, DetectsAClobberedRegister) {
  Rng rng(seed_for("abi-self-test", "", 0));
  const std::string bad = call_checked(rng, &abi::shakedown_abi_misbehave_for_test, 0, 0, 0, 0);
  EXPECT_NE(bad.find(" " + std::string(abi::kMisbehaveClobbers) + " clobbered;"), std::string::npos) << bad;
  if constexpr (abi::kFlagsMustBeClear != 0) {
    EXPECT_NE(bad.find("direction flag"), std::string::npos) << bad;
  }
  // ...and nothing else: every other canary comes back, so the offsets in abi/<arch>.S line up.
  std::size_t clobbered = 0;
  for (auto at = bad.find(" clobbered;"); at != std::string::npos; at = bad.find(" clobbered;", at + 1))
    ++clobbered;
  EXPECT_EQ(clobbered, 1u) << bad;
}

#else

TEST_P(AbiDiff, CalleeSavedRegistersPreserved) {
  GTEST_SKIP() << "no ABI trampoline (diff/abi/<arch>.S) for this architecture yet";
}

#endif

INSTANTIATE_TEST_SUITE_P(EveryBackend, AbiDiff, ::testing::ValuesIn(test::all_family_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
