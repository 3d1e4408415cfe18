// shakedown_limits: the x86-64 instruction limits under the speed targets, measured on this core, against OpenSSL.
//
// shakedown_bench says how fast each backend is; this says how fast it could be. Each probe times one instruction
// pattern in cycles (a dependent IMUL chain gives the clock, measured again before every probe because turbo
// moves it), and each bound turns those cycles into the fewest cycles per byte any code built on that pattern
// can reach, and so the best ratio to OpenSSL's speed measured in the same run. A backend below its target where
// that best ratio is below the target too is held by the instructions (for the SHA-512 line: by our round code),
// not by the rest of its code (bench/README.md "Limits").
#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <vector>

#include "openssl_ref.h"
#include "shakedown/cpu.h"

namespace shakedown::internal::x86 {
// arch/x86_64/round_probe.cc: the library's own SHA-512 rounds, `blocks` x 80 rounds (inline asm; no ISA flags).
void sha512_rounds_probe(std::uint64_t h[8], long blocks);
}  // namespace shakedown::internal::x86

namespace shakedown::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds for the fastest of `repeats` runs of body().
template <class Body>
double best_seconds(int repeats, Body&& body) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

// Cycles a second, from a chain of dependent IMUL r64, r64: 3 cycles each on Intel cores since Nehalem and AMD
// cores since Zen (Agner Fog's instruction tables); on older cores every figure below is off by that factor.
double clock_hz() {
  constexpr long kImuls = 40'000'000;
  std::uint64_t x = 3;
  const double s = best_seconds(3, [&] {
    for (long i = 0; i < kImuls / 8; ++i)
      __asm__ volatile(
          "imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"
          "imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0"
          : "+r"(x));
  });
  return 3.0 * kImuls / s;
}

// Cycles per unit of body(): the clock is measured right before, the body at its fastest of three runs.
template <class Body>
double cycles_per(long units, Body&& body) {
  const double hz = clock_hz();
  return best_seconds(3, body) * hz / static_cast<double>(units);
}

constexpr long kShaUnits = 8'000'000;

// SHA256RNDS2 xmm1, xmm2/m128, <XMM0> (Intel SDM Vol. 2B) takes the state's C, D, G, H in xmm1 and A, B, E, F
// in xmm2 and leaves the new A, B, E, F in xmm1; the next one takes it as its xmm2, as in every SHA-NI block loop.
double sha256rnds2_latency() {
  return cycles_per(kShaUnits, [] {
    for (long i = 0; i < kShaUnits / 4; ++i)
      __asm__ volatile(
          "sha256rnds2 %%xmm1, %%xmm2\n\tsha256rnds2 %%xmm2, %%xmm1\n\t"
          "sha256rnds2 %%xmm1, %%xmm2\n\tsha256rnds2 %%xmm2, %%xmm1" ::
              : "xmm0", "xmm1", "xmm2");
  });
}

// Eight chains at once: as many independent rounds as eight interleaved messages would give.
#define SHAKEDOWN_LIMITS_EIGHT(op)                                                                       \
  op " %%xmm9, %%xmm1\n\t" op " %%xmm9, %%xmm2\n\t" op " %%xmm9, %%xmm3\n\t" op " %%xmm9, %%xmm4\n\t" op \
     " %%xmm9, %%xmm5\n\t" op " %%xmm9, %%xmm6\n\t" op " %%xmm9, %%xmm7\n\t" op " %%xmm9, %%xmm8\n\t"
#define SHAKEDOWN_LIMITS_XMM1_9 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"
double sha256rnds2_throughput() {
  return cycles_per(kShaUnits, [] {
    for (long i = 0; i < kShaUnits / 8; ++i)
      __asm__ volatile(SHAKEDOWN_LIMITS_EIGHT("sha256rnds2")::: SHAKEDOWN_LIMITS_XMM1_9);
  });
}
double sha256msg1_throughput() {
  return cycles_per(kShaUnits, [] {
    for (long i = 0; i < kShaUnits / 8; ++i)
      __asm__ volatile(SHAKEDOWN_LIMITS_EIGHT("sha256msg1")::: SHAKEDOWN_LIMITS_XMM1_9);
  });
}
double sha256msg2_throughput() {
  return cycles_per(kShaUnits, [] {
    for (long i = 0; i < kShaUnits / 8; ++i)
      __asm__ volatile(SHAKEDOWN_LIMITS_EIGHT("sha256msg2")::: SHAKEDOWN_LIMITS_XMM1_9);
  });
}
#undef SHAKEDOWN_LIMITS_EIGHT
#undef SHAKEDOWN_LIMITS_XMM1_9

// The library's SHA-512 rounds (sha2_rounds8, what x86_64/avx2 and x86_64/avx512 run for one message): cycles per
// round with nothing else to do (arch/x86_64/round_probe.cc says how the loop is kept honest).
double sha512_round() {
  constexpr long kBlocks = 200'000;
  std::uint64_t h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const double cycles = cycles_per(kBlocks * 80, [&] { internal::x86::sha512_rounds_probe(h, kBlocks); });
  __asm__ volatile("" ::"r"(h[0]));
  return cycles;
}

// 256-bit integer operations in the proportions of a Keccak round without 64-bit rotates or three-input XOR
// (AVX2): per 23, 9 VPXOR, 3 VPANDN, 4 VPSLLQ, 3 VPSRLQ, 4 VPOR, over 12 independent registers. Cycles per
// operation.
double ymm_keccak_mix() {
  constexpr long kGroups = 4'000'000;
  return cycles_per(kGroups * 23, [] {
    for (long i = 0; i < kGroups; ++i)
      __asm__ volatile(
          "vpxor %%ymm12, %%ymm0, %%ymm0\n\tvpxor %%ymm12, %%ymm1, %%ymm1\n\tvpxor %%ymm12, %%ymm2, %%ymm2\n\t"
          "vpandn %%ymm12, %%ymm3, %%ymm3\n\tvpsllq $1, %%ymm4, %%ymm4\n\tvpsrlq $3, %%ymm5, %%ymm5\n\t"
          "vpor %%ymm12, %%ymm6, %%ymm6\n\tvpxor %%ymm12, %%ymm7, %%ymm7\n\tvpxor %%ymm12, %%ymm8, %%ymm8\n\t"
          "vpandn %%ymm12, %%ymm9, %%ymm9\n\tvpsllq $1, %%ymm10, %%ymm10\n\tvpsrlq $3, %%ymm11, %%ymm11\n\t"
          "vpor %%ymm12, %%ymm0, %%ymm0\n\tvpxor %%ymm12, %%ymm1, %%ymm1\n\tvpxor %%ymm12, %%ymm2, %%ymm2\n\t"
          "vpandn %%ymm12, %%ymm3, %%ymm3\n\tvpsllq $1, %%ymm4, %%ymm4\n\tvpsrlq $3, %%ymm5, %%ymm5\n\t"
          "vpor %%ymm12, %%ymm6, %%ymm6\n\tvpxor %%ymm12, %%ymm7, %%ymm7\n\tvpxor %%ymm12, %%ymm8, %%ymm8\n\t"
          "vpsllq $1, %%ymm9, %%ymm9\n\tvpor %%ymm12, %%ymm10, %%ymm10" ::
              : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                "xmm12");
    __asm__ volatile("vzeroupper");  // no SSE code runs with the upper halves dirty
  });
}

// OpenSSL's cycles per byte for one message of 16 KiB (EVP, as shakedown_bench calls it).
double openssl_cycles_per_byte(Algorithm alg) {
  constexpr std::size_t kLength = 16384;
  constexpr int kMessages = 400;
  std::vector<std::uint8_t> data(kLength, 0x5a);
  std::uint8_t out[64];
  const EVP_MD* md = openssl_md(alg);
  return cycles_per(static_cast<long>(kLength) * kMessages, [&] {
    for (int i = 0; i < kMessages; ++i) openssl_oneshot(alg, md, data.data(), kLength, out, 32);
  });
}

bool g_sane = true;

// One figure measured once a pass. The least is the one the host disturbed least: another guest on the same
// physical core can slow a probe by 40% or more for seconds at a time (a 2-vCPU Zen 4 guest, 2026-12), so the
// passes are spread over the whole run rather than repeated back to back, and the spread says how busy it was.
struct Figure {
  double least = 1e30, most = 0;
  void add(double v) {
    if (!(v > 0 && std::isfinite(v))) g_sane = false;
    least = std::min(least, v);
    most = std::max(most, v);
  }
  double spread_percent() const { return 100.0 * (most / least - 1.0); }
};

double g_worst_spread = 0;

void probe_line(const char* name, const Figure& cycles, const char* note) {
  g_worst_spread = std::max(g_worst_spread, cycles.spread_percent());
  std::printf("  %-44s %7.2f %6.0f%%   %s\n", name, cycles.least, cycles.spread_percent(), note);
}

// One target: the fewest cycles per byte the pattern allows, OpenSSL's in the same run, their ratio (the best
// any code limited by that pattern can show in shakedown_bench), the target, and what sets the floor.
void bound_line(const char* name, double floor_cpb, const Figure& openssl_cpb, double target, const char* set_by) {
  g_worst_spread = std::max(g_worst_spread, openssl_cpb.spread_percent());
  const double best = openssl_cpb.least / floor_cpb;
  if (!(best > 0 && std::isfinite(best))) g_sane = false;
  std::printf("  %-36s %9.2f %11.2f %9.2fx %6.1fx  %-5s %s\n", name, floor_cpb, openssl_cpb.least, best, target,
              best < target ? "below" : "above", set_by);
}

// Every figure, each the least of kPasses passes over all of them.
constexpr int kPasses = 5;
struct Figures {
  Figure clock_ghz, rnds2_latency, rnds2_throughput, msg1, msg2, round1, ymm_op;
  Figure openssl_sha256, openssl_sha512, openssl_shake128, openssl_sha3_256;
};

int run() {
  const CpuFeatures& cpu = cpu_features();
  const bool sha_ni = cpu.has(CpuFeature::x86_sha_ni) && cpu.has(CpuFeature::x86_sse41);
  const bool bmi2 = cpu.has(CpuFeature::x86_bmi2);
  const bool avx2 = cpu.has(CpuFeature::x86_avx2) && cpu.has(CpuFeature::x86_os_ymm);
  std::printf("shakedown_limits: instruction limits on this core (CPU family %u model %u, %s)\n", cpu.family, cpu.model,
              cpu.vendor.c_str());

  Figures f;
  for (int pass = 0; pass < kPasses; ++pass) {
    f.clock_ghz.add(clock_hz() / 1e9);
    if (sha_ni) {
      f.rnds2_latency.add(sha256rnds2_latency());
      f.rnds2_throughput.add(sha256rnds2_throughput());
      f.msg1.add(sha256msg1_throughput());
      f.msg2.add(sha256msg2_throughput());
      f.openssl_sha256.add(openssl_cycles_per_byte(Algorithm::sha256));
    }
    if (bmi2) {
      f.round1.add(sha512_round());
      f.openssl_sha512.add(openssl_cycles_per_byte(Algorithm::sha512));
    }
    if (avx2) {
      f.ymm_op.add(ymm_keccak_mix());
      f.openssl_shake128.add(openssl_cycles_per_byte(Algorithm::shake128));
      f.openssl_sha3_256.add(openssl_cycles_per_byte(Algorithm::sha3_256));
    }
  }

  // The clock's spread is turbo as much as a busy host: it is shown, not counted in the warning below.
  std::printf("clock %.2f-%.2f GHz (dependent IMUL chain, 3 cycles an instruction; measured before every probe)\n\n",
              f.clock_ghz.least, f.clock_ghz.most);
  std::printf("  %-44s %7s %7s\n", "probe", "cycles", "spread");
  if (sha_ni) {
    probe_line("SHA256RNDS2 latency", f.rnds2_latency, "two rounds of one message");
    probe_line("SHA256RNDS2 reciprocal throughput", f.rnds2_throughput, "two rounds, eight messages in flight");
    probe_line("SHA256MSG1 reciprocal throughput", f.msg1, "");
    probe_line("SHA256MSG2 reciprocal throughput", f.msg2, "");
  } else {
    std::printf("  SHA-NI probes: not run, this CPU has no SHA-NI\n");
  }
  if (bmi2) {
    probe_line("SHA-512 round, sha2_rounds8", f.round1, "the rorx rounds of x86_64/avx2 and avx512");
  } else {
    std::printf("  SHA-512 round probe: not run, this CPU has no BMI2\n");
  }
  if (avx2) {
    probe_line("256-bit ALU operation, Keccak's mix", f.ymm_op, "XOR, ANDN, shifts, OR; 12 chains");
  } else {
    std::printf("  256-bit probe: not run, this CPU has no AVX2\n");
  }

  std::printf("\n  %-36s %9s %11s %10s %7s  %-5s %s\n", "case", "floor c/B", "OpenSSL c/B", "best ratio", "target",
              "best", "floor set by");
  if (sha_ni) {
    // A 64-byte block is 32 SHA256RNDS2 (FIPS 180-4 §6.2.2: 64 rounds, two an instruction), each waiting for
    // the last in one message and sharing the unit across messages; the schedule's MSG1/MSG2 are left out, so
    // the floors are optimistic.
    bound_line("SHA-256, 1 message, SHA-NI", 32 * f.rnds2_latency.least / 64, f.openssl_sha256, 1.0,
               "SHA256RNDS2 latency (core)");
    bound_line("SHA-256, 2+ messages, SHA-NI", 32 * f.rnds2_throughput.least / 64, f.openssl_sha256, 1.8,
               "SHA256RNDS2 throughput (core)");
  }
  if (bmi2) {
    // 80 rounds a 128-byte block (§6.4.2), the schedule left out (it runs on the vector units alongside).
    bound_line("SHA-512, 1 message, rorx rounds", 80 * f.round1.least / 128, f.openssl_sha512, 1.1,
               "sha2_rounds8 alone (this code)");
  }
  if (avx2) {
    // A Keccak-f[1600] round (FIPS 202 §3.2) on four states with AVX2: θ 20 XOR for the column parities, 5
    // rotates by 1 (3 operations each) and 5 XOR for D, 25 XOR to apply it; ρ 22 rotates by 3 operations and 2
    // by whole bytes (one VPSHUFB each); χ 25 ANDN and 25 XOR; ι 1 XOR: 184 operations, 24 rounds a block.
    constexpr double kOpsPerPermutation = 184.0 * 24;
    const double ymm_op = f.ymm_op.least;
    bound_line("SHAKE128, 4 messages, AVX2", kOpsPerPermutation * ymm_op / (4.0 * 168), f.openssl_shake128, 3.0,
               "184 operations a round (core)");
    bound_line("SHA3-256, 4 messages, AVX2", kOpsPerPermutation * ymm_op / (4.0 * 136), f.openssl_sha3_256, 3.0,
               "184 operations a round (core)");
  }
  // Past this, even the least of the passes may have been disturbed: say so rather than let a ratio mislead.
  constexpr double kBusySpreadPercent = 10;
  const char* busy = g_worst_spread > kBusySpreadPercent
                         ? ": the host was busy, run again on a quiet one before trusting a ratio"
                         : "";
  std::printf("\nEach figure is the least of %d passes spread over the run; the widest spread was %.0f%%%s\n", kPasses,
              g_worst_spread, busy);
  if (!g_sane) {
    std::fprintf(stderr, "shakedown_limits: a probe measured no time (clock or timer broken)\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace shakedown::bench

int main() { return shakedown::bench::run(); }
