// Statistical timing check of Hmac::verify (dudect-style Welch t-test): fixed tag vs random tags.
//
//   shakedown_ct_timing [--measurements N] [--backend NAME] [--self-test]
//
// Method (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", DATE 2017): each measurement
// times one verify of a fresh copy of the same keyed, fed context, presented either the right tag (class 0)
// or a uniformly random one (class 1), the class drawn at random per measurement so that machine noise
// falls on both classes alike. Welch's t statistic compares the two classes' cycle counts over all
// measurements, over the measurements below each of 100 percentiles (cropping the long tail of
// interrupts; the percentiles 1 - 0.5^(10 (i + 1) / 100) of the first, discarded batch, as dudect does),
// and as a second-order test on the squared distances from the class means. The run fails when the
// largest |t| of a test with at least 10^4 measurements exceeds 4.5, where an early-exit comparison of a
// 32-byte tag reaches far beyond it. --self-test times exactly such a comparison instead of verify (the same
// MAC, then a byte loop that stops at the first difference) and succeeds only if the test sees it: the
// check that this harness can fail on this machine.
//
// Timing is never asserted by ctest (tests must not depend on the load of the machine): ci/verify --deep
// runs this, and it runs standalone from any build tree with the tests enabled.
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "shakedown/error.h"
#include "shakedown/hmac.h"

namespace {

constexpr std::size_t kBatch = 10000;          // measurements prepared, then timed, at a time
constexpr std::size_t kPercentiles = 100;      // cropped tests
constexpr std::size_t kEnough = 10000;         // a test counts once it has this many measurements
constexpr double kThreshold = 4.5;             // |t| above this: the classes differ in timing
constexpr std::size_t kTagLen = 32;            // HMAC-SHA-256

// Welford's online mean and variance per class.
struct Welch {
  double n[2] = {0, 0}, mean[2] = {0, 0}, m2[2] = {0, 0};
  void push(double x, int cls) {
    n[cls] += 1;
    const double delta = x - mean[cls];
    mean[cls] += delta / n[cls];
    m2[cls] += delta * (x - mean[cls]);
  }
  std::size_t count() const { return static_cast<std::size_t>(n[0] + n[1]); }
  double t() const {
    if (n[0] < 2 || n[1] < 2) return 0;
    const double var0 = m2[0] / (n[0] - 1), var1 = m2[1] / (n[1] - 1);
    const double den = std::sqrt(var0 / n[0] + var1 / n[1]);
    return den > 0 ? (mean[0] - mean[1]) / den : 0;
  }
};

std::uint64_t g_rng = 0x2545f4914f6cdd1dull;
std::uint64_t next_random() {  // xorshift64*: inputs only, not security
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 0x2545f4914f6cdd1dull;
}

// Serialised time stamp counter reads on x86-64 (lfence keeps the measured instructions between the two
// reads), the steady clock in nanoseconds elsewhere: the test compares classes, so the unit does not matter.
inline std::uint64_t cycles() {
#if defined(__x86_64__)
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// dudect's cropping percentiles: from 6.7 % (only the fastest measurements) up to 99.9 %.
double percentile(std::size_t p) { return 1 - std::pow(0.5, 10.0 * static_cast<double>(p + 1) / kPercentiles); }

// The deliberately leaking comparison of --self-test: what verify must not be.
bool verify_early_exit(shakedown::Hmac& mac, const std::uint8_t* tag) {
  std::uint8_t computed[kTagLen];
  mac.final({computed, kTagLen});
  for (std::size_t i = 0; i < kTagLen; ++i)
    if (computed[i] != tag[i]) return false;
  return true;
}

// The test with the largest |t|: uncropped, cropped below a percentile, or second order.
struct Largest {
  double t = 0;
  const char* which = "no test had enough measurements";
  double percentile = 1;
};

}  // namespace

int main(int argc, char** argv) {
  std::size_t measurements = 1000000;
  std::string_view backend_name;  // empty: the selected backend
  bool self_test = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--self-test") == 0) {
      self_test = true;
    } else if (std::strcmp(argv[i], "--measurements") == 0 && i + 1 < argc) {
      measurements = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
      backend_name = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--measurements N] [--backend NAME] [--self-test]\n", argv[0]);
      return 2;
    }
  }
  if (measurements < 10 * kBatch) {
    std::fprintf(stderr, "ct_timing: --measurements must be at least %zu\n", 10 * kBatch);
    return 2;
  }

  std::uint8_t key[kTagLen], message[64];
  for (auto& b : key) b = static_cast<std::uint8_t>(next_random());
  for (auto& b : message) b = static_cast<std::uint8_t>(next_random());
  std::optional<shakedown::Hmac> keyed;
  try {
    keyed.emplace(shakedown::Algorithm::sha256, std::span<const std::uint8_t>(key, sizeof key), backend_name);
  } catch (const shakedown::Error& e) {
    std::fprintf(stderr, "ct_timing: %s\n", e.what());
    return 2;
  }
  shakedown::Hmac& fed = *keyed;
  fed.update({message, sizeof message});
  std::uint8_t right[kTagLen];
  shakedown::Hmac(fed).final({right, kTagLen});

  std::vector<std::uint8_t> tags(kBatch * kTagLen);
  std::vector<int> cls(kBatch);
  std::vector<double> times(kBatch);
  std::vector<double> crop_at(kPercentiles);
  std::vector<Welch> cropped(kPercentiles);
  Welch all, second_order;
  std::size_t accepted = 0, right_presented = 0;  // every right tag, and only those, must verify

  const std::size_t batches = measurements / kBatch + 1;  // +1: the first batch only sets the percentiles
  for (std::size_t batch = 0; batch < batches; ++batch) {
    for (std::size_t i = 0; i < kBatch; ++i) {  // inputs first, out of the timed region
      cls[i] = static_cast<int>(next_random() >> 63);
      std::uint8_t* tag = &tags[i * kTagLen];
      if (cls[i] == 0) {
        std::memcpy(tag, right, kTagLen);
      } else {
        for (std::size_t j = 0; j < kTagLen; ++j) tag[j] = static_cast<std::uint8_t>(next_random());
      }
    }
    for (std::size_t i = 0; i < kBatch; ++i) {
      shakedown::Hmac mac = fed;
      const std::uint8_t* tag = &tags[i * kTagLen];
      const std::uint64_t start = cycles();
      const bool ok = self_test ? verify_early_exit(mac, tag) : mac.verify({tag, kTagLen});
      const std::uint64_t end = cycles();
      accepted += ok;
      right_presented += cls[i] == 0;
      times[i] = static_cast<double>(end - start);
    }
    if (batch == 0) {
      std::vector<double> sorted = times;
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t p = 0; p < kPercentiles; ++p)
        crop_at[p] = sorted[static_cast<std::size_t>(percentile(p) * static_cast<double>(kBatch - 1))];
      continue;
    }
    for (std::size_t i = 0; i < kBatch; ++i) {
      all.push(times[i], cls[i]);
      for (std::size_t p = 0; p < kPercentiles; ++p)
        if (times[i] < crop_at[p]) cropped[p].push(times[i], cls[i]);
      const double centred = times[i] - all.mean[cls[i]];
      second_order.push(centred * centred, cls[i]);
    }
  }

  Largest largest;
  auto consider = [&](const Welch& w, const char* which, double q) {
    if (w.count() >= kEnough && std::fabs(w.t()) > std::fabs(largest.t)) largest = {w.t(), which, q};
  };
  consider(all, "uncropped", 1);
  for (std::size_t p = 0; p < kPercentiles; ++p) consider(cropped[p], "cropped", percentile(p));
  consider(second_order, "second order", 1);

  const bool leak = std::fabs(largest.t) > kThreshold;
  const std::string_view backend = fed.backend_name();
  std::printf("ct_timing: %s, HMAC-SHA-256 on %.*s, %zu measurements, fixed right tag vs random tags\n",
              self_test ? "SELF-TEST of an early-exit comparison" : "Hmac::verify", static_cast<int>(backend.size()),
              backend.data(), all.count());
  std::printf("ct_timing: class means %.1f / %.1f, uncropped t = %.2f\n", all.mean[0], all.mean[1], all.t());
  std::printf("ct_timing: max |t| = %.2f (%s, measurements below the %.1f %% percentile), threshold %.1f: %s\n",
              std::fabs(largest.t), largest.which, 100 * largest.percentile, kThreshold,
              leak ? "timing depends on the tag" : "no timing difference found");
  if (accepted != right_presented) {
    std::fprintf(stderr, "ct_timing: %zu tags verified but %zu right ones presented: the classes are wrong\n", accepted,
                 right_presented);
    return 2;
  }
  if (self_test) {
    std::printf("ct_timing: self-test %s\n", leak ? "passed: the leak was detected" : "FAILED: the leak went unseen");
    return leak ? 0 : 1;
  }
  return leak ? 1 : 0;
}
