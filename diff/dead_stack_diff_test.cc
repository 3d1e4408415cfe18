// Secrets left in dead stack: after hashing a secret message or MACing under a secret key, per (algorithm,
// backend), nothing the computation derived from them may remain in the stack below the caller.
//
// The function runs on a painted stack (painted_stack.h); the secrets are every intermediate value of an
// independent round-by-round trace (secret_trace.h): schedule words, working variables, chaining values, Keccak
// lanes of every round, key and message bytes. Only what the API hands back (digest, MAC, squeezed lanes) is
// public. The Hasher/Hmac objects themselves live in the dead frames, so their destructors' wiping is checked too.
#include <gtest/gtest.h>

#include "diff_support.h"
#include "internal/stack_burn.h"
#include "painted_stack.h"
#include "secret_trace.h"

// Sanitizer builds move locals to a heap "fake stack" and add redzones, so what a frame leaves is not on the thread's
// stack: the suite is registered only where frames are real (the default, clang and every cross build).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__has_feature)
#define SHAKEDOWN_DEAD_STACK_REAL_FRAMES 1
#elif defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(memory_sanitizer) && !__has_feature(thread_sanitizer)
#define SHAKEDOWN_DEAD_STACK_REAL_FRAMES 1
#endif
#endif

namespace shakedown::diff {
namespace {

using Bytes = std::vector<std::uint8_t>;

// What one run on the painted stack left behind.
struct Leftover {
  std::string what;
  Bytes dead;
};

class DeadStack : public ::testing::TestWithParam<test::AlgBackend> {
 protected:
  // Runs fn on the painted stack and keeps what it left. Secrets are traced only after every run: a thread starts
  // with its creator's vector registers, so nothing secret may be computed before one.
  void run(const char* what, const std::function<void()>& fn) {
    stack_.run(fn);
    const auto dead = stack_.dead();
    ASSERT_GT(dead.size(), 4096u) << "the painted stack's caller frame was not found";
    leftovers_.push_back({what, Bytes(dead.begin(), dead.end())});
  }

  // Fails naming the first secret found in what any run left.
  void expect_clean(const trace::Secrets& secrets) {
    for (const Leftover& l : leftovers_) {
      EXPECT_EQ(secrets.find_in(l.dead), "")
          << who(GetParam()) << ": " << l.what << " left a secret-derived value in dead stack "
          << "(offset counted from the lowest address of " << l.dead.size() << " dead bytes)";
      record(GetParam(), "DeadStack");
    }
    leftovers_.clear();
  }

  // A message of its own per (algorithm, backend), so that no earlier test's values can match.
  Bytes secret_bytes(std::size_t len, std::uint32_t salt) const {
    return test::pattern(len, salt ^ static_cast<std::uint32_t>(std::hash<std::string>{}(test::param_name(GetParam()))));
  }

  PaintedStack stack_;
  std::vector<Leftover> leftovers_;
};

// A secret message spanning several blocks and a partial one, hashed incrementally and one-shot.
class DeadStackDiff : public DeadStack {};
TEST_P(DeadStackDiff, HashLeavesNothingOfTheMessage) {
  const auto& p = GetParam();
  const std::size_t B = block_size(p.alg), outlen = out_size(p.alg) + (is_xof(p.alg) ? B + 3 : 0);
  const Bytes msg = secret_bytes(3 * B + 17, 71);
  Bytes incremental(outlen), oneshot(outlen);
  run("Hasher update/final", [&] {
    Hasher h(p.alg, p.backend);
    h.update(std::span(msg).first(37)).update(std::span(msg).subspan(37));
    if (is_xof(p.alg)) {
      h.squeeze(std::span(incremental).first(5));
      h.squeeze(std::span(incremental).subspan(5));
      h.final(std::span(incremental).last(0));
    } else {
      h.final(incremental);
    }
  });
  run("one-shot hash()", [&] { hash(p.alg, p.backend, msg, oneshot); });
  trace::Secrets secrets;
  const Bytes want = trace::hash(p.alg, msg, outlen, true, secrets);
  // The trace is only a scan list if it computes the real function: check it against the oracle first.
  ASSERT_EQ(want, test::openssl_digest(p.alg, msg, outlen)) << "the secret trace is wrong, so is its scan";
  EXPECT_EQ(incremental, want);
  EXPECT_EQ(oneshot, want);
  expect_clean(secrets);
}

// Secret messages through hash_many(): on the backend by name (its lanes and its own single-message code), by
// default (rows chosen by count), and from a secret prefix context. Lengths differ, so that lanes refill, idle lanes
// hold scratch states, and the longest messages finish as stragglers; every lane slot must be wiped. Each message
// is longer than a block: the first block of a shorter SHA-3 message leaves lanes of padding alone (0x06,
// 0x8000000000000000), values any stack holds by chance; the prefix run covers short messages. The scans are
// per run, each with its own messages' secrets only: with 32-bit words, the more secrets a scan holds, the likelier
// a stray match with a pointer's half.
TEST_P(DeadStackDiff, HashManyLeavesNothingOfTheMessages) {
  const auto& p = GetParam();
  const std::size_t B = block_size(p.alg), outlen = out_size(p.alg) + (is_xof(p.alg) ? B + 3 : 0);
  std::size_t lanes = 0;
  visit_family(family_of(p.alg), [&]<class T>(T) { lanes = shakedown::backend<T::kFamily>(p.backend).multi.lanes; });
  const std::size_t count = std::max<std::size_t>(lanes + 3, 5);
  std::vector<Bytes> msgs, shorts;
  for (std::size_t i = 0; i < count; ++i) {
    msgs.push_back(secret_bytes((1 + i % 4) * B + 3 * i + 17, 80 + static_cast<std::uint32_t>(i)));
    shorts.push_back(secret_bytes(3 * i + 1, 120 + static_cast<std::uint32_t>(i)));
  }
  const Bytes prefix = secret_bytes(B + 5, 79);
  const auto in = [](const std::vector<Bytes>& v) { return std::vector<std::span<const std::uint8_t>>(v.begin(), v.end()); };
  const auto out = [](std::vector<Bytes>& v) { return std::vector<std::span<std::uint8_t>>(v.begin(), v.end()); };
  std::vector<Bytes> named(count, Bytes(outlen)), deflt(count, Bytes(outlen)), prefixed(count, Bytes(outlen));

  run("hash_many() by name", [&] { hash_many(p.alg, p.backend, in(msgs), out(named)); });
  run("hash_many() by default", [&] { hash_many(p.alg, in(msgs), out(deflt)); });
  trace::Secrets secrets;
  for (std::size_t i = 0; i < count; ++i) {
    const Bytes want = trace::hash(p.alg, msgs[i], outlen, true, secrets);
    ASSERT_EQ(want, test::openssl_digest(p.alg, msgs[i], outlen)) << "the secret trace is wrong, so is its scan";
    EXPECT_EQ(named[i], want) << "message " << i;
    EXPECT_EQ(deflt[i], want) << "message " << i;
  }
  expect_clean(secrets);

  run("hash_many() from a prefix context", [&] {
    Hasher h(p.alg, p.backend);
    h.update(prefix);
    hash_many(h, in(shorts), out(prefixed));
  });
  trace::Secrets prefixed_secrets;
  for (std::size_t i = 0; i < count; ++i) {
    Bytes whole = prefix;
    whole.insert(whole.end(), shorts[i].begin(), shorts[i].end());
    EXPECT_EQ(prefixed[i], trace::hash(p.alg, whole, outlen, true, prefixed_secrets)) << "message " << i;
  }
  expect_clean(prefixed_secrets);
}

// HMAC under a secret key (shorter than a block, and longer so that it is hashed first), final and verify.
class DeadStackHmacDiff : public DeadStack {};
TEST_P(DeadStackHmacDiff, HmacLeavesNothingOfTheKey) {
  const auto& p = GetParam();
  for (std::size_t keylen : {std::size_t{20}, block_size(p.alg) + 13}) {
    SCOPED_TRACE("key of " + std::to_string(keylen) + " bytes");
    const Bytes key = secret_bytes(keylen, 72), msg = secret_bytes(2 * block_size(p.alg) + 5, 73);
    Bytes tag(digest_size(p.alg)), mac_for_verify;
    run("Hmac update/final", [&] {
      Hmac m(p.alg, key, p.backend);
      m.update(msg);
      m.final(tag);
    });
    mac_for_verify = tag;  // the MAC is public: handing it back in does not taint the next run
    bool verified = false;
    run("Hmac verify", [&] {
      Hmac m(p.alg, key, p.backend);
      m.update(msg);
      verified = m.verify(mac_for_verify);
    });
    trace::Secrets secrets;
    const Bytes want = trace::hmac(p.alg, key, msg, secrets);
    ASSERT_EQ(want, test::openssl_hmac(p.alg, key, msg)) << "the secret trace is wrong, so is its scan";
    EXPECT_EQ(tag, want);
    EXPECT_TRUE(verified);
    expect_clean(secrets);
  }
}

#if SHAKEDOWN_DEAD_STACK_REAL_FRAMES
// The scan can see what a returned function left: a function that writes a secret into its own frame and does not
// wipe it is found. Without this, a stack that something overwrote after the run (a thread's exit path, a signal
// frame) would make every DeadStack test pass.
[[gnu::noinline]] void leave_in_frame(std::uint64_t secret) {
  volatile std::uint64_t frame[64];
  for (auto& lane : frame) lane = secret;
}

TEST(DeadStackScan, FindsAValueAFunctionLeftInItsFrame) {
  constexpr std::uint64_t kSecret = 0x5ec7e75ec7e7a11full;
  PaintedStack stack;
  stack.run([] { leave_in_frame(kSecret); });
  trace::Secrets secrets;
  secrets.add_word64(kSecret, "planted");
  EXPECT_NE(secrets.find_in(stack.dead()), "") << "the dead-stack scan cannot see a value left in a dead frame";
}

// burn_stack's skip of a span that the finished function wiped itself (WipedSpan, lib/src/internal/stack_burn.h):
// every other byte of the frame is burnt. The span's ends are off the burn's 64-byte grid whatever the frame's
// 16-byte alignment (8 bytes past a multiple of 16 from the array's start), with secret words right beside them,
// so a burn that rounded the skip outward, or skipped a chunk more on either side, leaves one of them. The words at
// the top of the frame are secret too: they lie where burn_stack_area keeps its saved registers and any padding
// under them, which burn_stack_top must reach (with the top words zero, clang 19 with UBSan on riscv64 left the
// word between the saves and the array unburnt, and this test did not see it).
[[gnu::noinline]] internal::WipedSpan leave_in_frame_wiping_middle(std::uint64_t secret) {
  alignas(16) volatile std::uint64_t frame[128];
  for (int i = 0; i < 128; ++i) frame[i] = secret;
  for (int i = 25; i < 71; ++i) frame[i] = 0;
  return internal::wiped_span(const_cast<std::uint64_t*>(frame + 25), 46 * sizeof(std::uint64_t));
}

TEST(DeadStackScan, BurnSkipsOnlyWhatTheFunctionWiped) {
  constexpr std::uint64_t kSecret = 0x5ec7e75ec7e7b0b0ull;
  PaintedStack stack;
  // 2048 bytes: the 1024-byte array with room for any ABI's save areas and padding around it.
  stack.run([] { internal::burn_stack(2048, leave_in_frame_wiping_middle(kSecret)); });
  trace::Secrets secrets;
  secrets.add_word64(kSecret, "planted");
  EXPECT_EQ(secrets.find_in(stack.dead()), "") << "burn_stack left a word outside the span the function wiped";
}

// The very top of a finished frame, where burn_stack_area keeps its saved registers and any padding under them and
// only burn_stack_top reaches. Separate words, not an array: gcc 12 aligns a local array to 16, which on x86-64 would
// leave the word just under the return address unplanted. burn_stack_top lays out its words the same way, so a gap
// both shared would go unseen here; BurnSkipsOnlyWhatTheFunctionWiped plants with an array, a layout of its own.
[[gnu::noinline]] void leave_at_frame_top(std::uint64_t secret) {
  [[maybe_unused]] volatile std::uint64_t w0 = secret, w1 = secret, w2 = secret, w3 = secret, w4 = secret,
                                          w5 = secret, w6 = secret, w7 = secret, w8 = secret, w9 = secret, w10 = secret,
                                          w11 = secret, w12 = secret, w13 = secret, w14 = secret, w15 = secret;
}

TEST(DeadStackScan, BurnReachesTheTopOfTheFrame) {
  constexpr std::uint64_t kSecret = 0x5ec7e75ec7e7c0c0ull;
  trace::Secrets secrets;
  secrets.add_word64(kSecret, "planted");
  PaintedStack planted;
  planted.run([] { leave_at_frame_top(kSecret); });
  ASSERT_NE(secrets.find_in(planted.dead()), "") << "the words were not planted where the scan looks";
  PaintedStack burnt;
  burnt.run([] {
    leave_at_frame_top(kSecret);
    internal::burn_stack(256);
  });
  EXPECT_EQ(secrets.find_in(burnt.dead()), "") << "burn_stack left a word at the top of the finished frame";
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, DeadStackDiff, ::testing::ValuesIn(test::all_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });
INSTANTIATE_TEST_SUITE_P(EveryBackend, DeadStackHmacDiff, ::testing::ValuesIn(hmac_alg_backends()),
                         [](const auto& pi) { return test::param_name(pi.param); });
#else
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeadStackDiff);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeadStackHmacDiff);
#endif

}  // namespace
}  // namespace shakedown::diff
