// The trap framework (x86-64, PHE model): environment install, chaining to earlier handlers, threads, exit check.
#include <gtest/gtest.h>
#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

#include "emul_fixture.h"
#include "openssl_ref.h"
#include "phe_caller.h"

namespace shakedown::emul::test {
namespace {

TEST(Environment, EmptyInstallsNothingAndMalformedThrows) {
  ::unsetenv("SHAKEDOWN_EMULATE");
  EXPECT_EQ(install_from_environment(), "");
  ::setenv("SHAKEDOWN_EMULATE", "", 1);
  EXPECT_EQ(install_from_environment(), "");
  EXPECT_FALSE(installed());
  ::setenv("SHAKEDOWN_EMULATE", "phe:fast", 1);
  EXPECT_THROW(install_from_environment(), std::invalid_argument);
  EXPECT_FALSE(installed());
  ::setenv("SHAKEDOWN_EMULATE", "phe", 1);
  ::setenv("SHAKEDOWN_EMULATE_REQUIRE", "yes", 1);
  EXPECT_THROW(install_from_environment(), std::invalid_argument);
  EXPECT_FALSE(installed());
  ::unsetenv("SHAKEDOWN_EMULATE");
  ::unsetenv("SHAKEDOWN_EMULATE_REQUIRE");
}

// SHAKEDOWN_EMULATE_REQUIRE=1: a run that emulated nothing fails at exit; one that emulated something does not.
TEST(Environment, RequireFailsARunThatEmulatedNothing) {
  EXPECT_EXIT(
      {
        ::setenv("SHAKEDOWN_EMULATE", "phe:zhaoxin,strict", 1);
        ::setenv("SHAKEDOWN_EMULATE_REQUIRE", "1", 1);
        reset_counters();
        install_from_environment();
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "no instruction was emulated");
  EXPECT_EXIT(
      {
        ::setenv("SHAKEDOWN_EMULATE", "phe:zhaoxin,strict", 1);
        ::setenv("SHAKEDOWN_EMULATE_REQUIRE", "1", 1);
        reset_counters();
        install_from_environment();
        const auto block = message(64);
        StateBuffer s(kIvSha256);
        rep_phe<kOpXsha256>(kMultiBlock, 1, block.data(), s.bytes);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "xsha256=1 ");
  EXPECT_EXIT(
      {
        ::setenv("SHAKEDOWN_EMULATE", "phe", 1);
        ::setenv("SHAKEDOWN_EMULATE_REQUIRE", "xsha256=2,xsha512=1", 1);
        reset_counters();
        install_from_environment();
        const auto block = message(128);
        StateBuffer s(kIvSha512);
        rep_phe<kOpXsha256>(kMultiBlock, 1, block.data(), s.bytes);
        rep_phe<kOpXsha512>(kMultiBlock, 1, block.data(), s.bytes);
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "xsha256 ran 1 times, fewer than the required 2");
}

TEST(Environment, MalformedRequirementThrows) {
  for (const char* bad : {"yes", "xsha256", "xsha256=", "xsha256=1x", "sm3=4", "xsha256=1,"}) {
    ::setenv("SHAKEDOWN_EMULATE", "phe", 1);
    ::setenv("SHAKEDOWN_EMULATE_REQUIRE", bad, 1);
    EXPECT_THROW(install_from_environment(), std::invalid_argument) << bad;
    EXPECT_FALSE(installed()) << bad;
  }
  ::unsetenv("SHAKEDOWN_EMULATE");
  ::unsetenv("SHAKEDOWN_EMULATE_REQUIRE");
}

// A genuine illegal instruction still kills the process with SIGILL.
TEST(Chaining, GenuineIllegalInstructionStillCrashes) {
  EXPECT_EXIT(
      {
        install(Options{});
        __asm__ volatile("ud2");
      },
      ::testing::KilledBySignal(SIGILL), "");
}

// An earlier SA_SIGINFO handler receives what we do not emulate; uninstall() restores it.
std::atomic<int> g_earlier_calls{0};
void earlier_handler(int, siginfo_t*, void* context) {
  g_earlier_calls.fetch_add(1);
  static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP] += 2;  // skip the 2-byte UD2
}

TEST(Chaining, PassesUnemulatedTrapsToTheEarlierHandler) {
  struct sigaction earlier {}, saved{};
  earlier.sa_sigaction = earlier_handler;
  earlier.sa_flags = SA_SIGINFO;
  sigemptyset(&earlier.sa_mask);
  ASSERT_EQ(sigaction(SIGILL, &earlier, &saved), 0);
  const std::uint64_t chained = counters().chained;
  install(Options{});
  __asm__ volatile("ud2");
  EXPECT_EQ(g_earlier_calls.load(), 1);
  EXPECT_EQ(counters().chained, chained + 1);
  const auto block = message(64);  // and still emulates PHE
  StateBuffer s(kIvSha256);
  rep_phe<kOpXsha256>(kMultiBlock, 1, block.data(), s.bytes);
  uninstall();
  struct sigaction now {};
  ASSERT_EQ(sigaction(SIGILL, nullptr, &now), 0);
  EXPECT_EQ(now.sa_sigaction, earlier_handler);
  __asm__ volatile("ud2");
  EXPECT_EQ(g_earlier_calls.load(), 2);
  ASSERT_EQ(sigaction(SIGILL, &saved, nullptr), 0);
}

// kill(SIGILL) is not an instruction: chained, never decoded (si_code <= 0).
TEST(Chaining, SentSignalIsNotDecoded) {
  EXPECT_EXIT(
      {
        install(Options{});
        ::raise(SIGILL);
      },
      ::testing::KilledBySignal(SIGILL), "");
}

// Several threads trapping at once: every result right, every instruction counted.
TEST(Threads, ConcurrentTrapsAreIndependent) {
  install(make_options(PheProfile::zhaoxin, true, 2));
  const std::uint64_t before = emulated(Insn::xsha256);
  constexpr int kThreads = 4, kIterations = 200;
  const auto msg = message(300, 4);
  const auto want = to_hex(openssl("SHA256", msg));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kIterations; ++i) {
        StateBuffer s(kIvSha256);
        rep_phe<kOpXsha256>(kMultiBlock, 4, msg.data(), s.bytes);
        rep_phe<kOpXsha256>(256, 300, msg.data() + 256, s.bytes);
        if (to_hex(s.digest<std::uint32_t>(8)) != want) wrong.fetch_add(1);
      }
    });
  for (auto& th : threads) th.join();
  uninstall();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(emulated(Insn::xsha256) - before, std::uint64_t{2} * kThreads * kIterations);
}

}  // namespace
}  // namespace shakedown::emul::test
