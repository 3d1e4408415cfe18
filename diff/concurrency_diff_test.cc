// Concurrency: every (algorithm, backend) pair hashing in its own thread at once, and hashing inside a
// signal handler that interrupts a hash in progress (user-space analogue of the kernel's IRQ-context test).
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <latch>
#include <thread>

#include "diff_support.h"

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(ConcurrencyDiff, EveryBackendAtOnce) {
  const auto pairs = test::all_alg_backends();
  const std::size_t iterations = test::scaled(30, 4);
  // Expected digests are computed up front so that the threads exercise only our code.
  struct Job {
    test::AlgBackend p;
    std::vector<Bytes> msgs, want;
    std::vector<std::vector<std::size_t>> splits;
    std::string failure;
  };
  std::vector<Job> jobs;
  for (const auto& p : pairs) {
    Job j{p, {}, {}, {}, {}};
    Rng rng(seed_for("threads", test::param_name(p), 0));
    for (std::size_t i = 0; i < iterations; ++i) {
      j.msgs.push_back(rng.bytes(rng.below(4097)));
      j.splits.push_back(random_splits(rng, j.msgs.back().size(), block_size(p.alg)));
      j.want.push_back(test::openssl_digest(p.alg, j.msgs.back(), out_size(p.alg)));
    }
    jobs.push_back(std::move(j));
  }
  std::latch start(static_cast<std::ptrdiff_t>(jobs.size()));
  std::vector<std::thread> threads;
  for (auto& j : jobs) {
    threads.emplace_back([&j, &start, iterations] {
      start.arrive_and_wait();  // all backends hash at the same time
      for (std::size_t i = 0; i < iterations && j.failure.empty(); ++i) {
        if (digest_in_chunks(j.p.alg, j.p.backend, j.msgs[i], j.splits[i], out_size(j.p.alg)) != j.want[i])
          j.failure = who(j.p) + " in a thread: iteration " + std::to_string(i) + " length " +
                      std::to_string(j.msgs[i].size()) + " updates " + describe(j.splits[i]) +
                      " (seed_for(\"threads\", param, 0) stream)";
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& j : jobs) {
    EXPECT_EQ(j.failure, "");
    if (j.failure.empty())
      record(j.p, "threads", iterations);
    else
      test::charge_failure(family_of(j.p.alg), j.p.backend);  // one test, many backends: name the wrong one
  }
}

// What the SIGUSR1 handler hashes and checks; written before the handler is installed.
struct SignalProbe {
  const Hasher* prototype = nullptr;  // copied in the handler: a memcpy, no allocation, no lock
  const std::uint8_t* msg = nullptr;
  std::size_t len = 0, outlen = 0;
  std::uint8_t expected[kMaxDigestSize] = {};
  std::atomic<int> handled{0}, mismatches{0}, landed_mid_hash{0};
  volatile sig_atomic_t in_hash = 0;
};
SignalProbe g_probe;
static_assert(std::atomic<int>::is_always_lock_free, "the handler's counters must be async-signal-safe");

SHAKEDOWN_DIFF_SIGNAL_HANDLER void hash_in_handler(int) {
  const int saved_errno = errno;
  Hasher h(*g_probe.prototype);
  h.update(g_probe.msg, g_probe.len);
  std::uint8_t out[kMaxDigestSize];
  h.final(out, g_probe.outlen);
  if (std::memcmp(out, g_probe.expected, g_probe.outlen) != 0) g_probe.mismatches.fetch_add(1);
  if (g_probe.in_hash) g_probe.landed_mid_hash.fetch_add(1);
  g_probe.handled.fetch_add(1);
  errno = saved_errno;
}

class SignalDiff : public ::testing::TestWithParam<test::AlgBackend> {};

TEST_P(SignalDiff, HashInHandlerInterruptingAHash) {
  const auto& p = GetParam();
  const std::size_t outlen = out_size(p.alg);
  const Bytes small = test::pattern(3 * block_size(p.alg) + 1, 31);  // several blocks: the handler does real work
  const Bytes big = test::pattern(64 * 1024, 32);
  const Bytes want_small = test::openssl_digest(p.alg, small, outlen);
  const Bytes want_big = test::openssl_digest(p.alg, big, outlen);
  const Hasher prototype(p.alg, p.backend);
  g_probe.prototype = &prototype;
  g_probe.msg = small.data();
  g_probe.len = small.size();
  g_probe.outlen = outlen;
  std::memcpy(g_probe.expected, want_small.data(), outlen);
  g_probe.handled = 0;
  g_probe.mismatches = 0;
  g_probe.landed_mid_hash = 0;

  struct sigaction sa = {};
  struct sigaction previous = {};
  sa.sa_handler = hash_in_handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &sa, &previous), 0);
  std::atomic<bool> stop{false};
  const pthread_t worker = pthread_self();
  // One signal in flight at a time: where a handler takes longer than the period (Bochs, a trapping emulator:
  // milliseconds per block), signals sent faster than they are handled would starve the interrupted hash forever.
  std::thread signaller([&] {
    while (!stop.load()) {
      const int before = g_probe.handled.load();
      pthread_kill(worker, SIGUSR1);
      while (!stop.load() && g_probe.handled.load() == before) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  // Hash until enough interrupts have landed inside a hash, or the time budget is spent.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  const int wanted = static_cast<int>(test::scaled(20, 5));
  std::size_t hashes = 0, wrong = 0;
  Rng rng(seed_for("signal", test::param_name(p), 0));
  while ((g_probe.landed_mid_hash < wanted || hashes < 4) && std::chrono::steady_clock::now() < deadline) {
    const auto splits = random_splits(rng, big.size(), block_size(p.alg));
    g_probe.in_hash = 1;
    Bytes got = digest_in_chunks(p.alg, p.backend, big, splits, outlen);
    g_probe.in_hash = 0;
    if (got != want_big) ++wrong;
    ++hashes;
  }
  stop = true;
  signaller.join();
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(wrong, 0u) << who(p) << ": " << wrong << " of " << hashes
                       << " interrupted 64 KiB hashes were wrong (pattern(65536, 32), random splits)";
  EXPECT_EQ(g_probe.mismatches.load(), 0) << who(p) << ": the handler's own hash was wrong";
  // A check whose interrupts never landed did not run: that is a failure, not a pass.
  ASSERT_GT(g_probe.landed_mid_hash.load(), 0) << who(p) << ": no signal landed during a hash in " << hashes
                                               << " hashes (" << g_probe.handled.load() << " handled)";
  record(p, "signal-handler", static_cast<std::uint64_t>(g_probe.landed_mid_hash.load()));
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, SignalDiff, ::testing::ValuesIn(test::all_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });

}  // namespace
}  // namespace shakedown::diff
