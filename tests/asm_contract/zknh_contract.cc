// Contract of the scalar Zknh wrappers (arch/riscv64/zknh.h): each instruction reads rs1 and writes rd, nothing else.
//
// The caller keeps its input and 32 unrelated values live across each statement and checks the result against
// FIPS 180-4 §4.1.2 (4.4)-(4.7) and §4.1.3 (4.10)-(4.13) computed here; on RV64 the SHA-256 instructions read the
// low 32 bits and sign-extend their 32-bit result (docs/isa/riscv-crypto.md §3.6). Needs Zknh: qemu-riscv64 7.2
// executes it with zknh=true or zk=true in the CPU string (a CPU without it dies of SIGILL, never passes).
#include "contract.h"
#include "zknh.h"

namespace shakedown::asm_contract {
namespace {

Pressure g_pressure;
volatile std::uint64_t g_x, g_x_after, g_result;

template <std::uint64_t (*Insn)(std::uint64_t)>
[[gnu::noinline, gnu::flatten]] void call_insn() {
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  const std::uint64_t x = opaque(g_x);
  sink(g_result, Insn(x));
  sink(g_x_after, x);
  SHAKEDOWN_LIVE_STORE()
}

std::uint32_t rotr32(std::uint32_t x, int n) { return x >> n | x << (32 - n); }
std::uint64_t rotr64(std::uint64_t x, int n) { return x >> n | x << (64 - n); }
// Sign extension of a 32-bit result, as RV64 writes it.
std::uint64_t sext32(std::uint32_t v) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)));
}

std::uint64_t ref_sha256sum0(std::uint64_t x) {
  const auto w = static_cast<std::uint32_t>(x);
  return sext32(rotr32(w, 2) ^ rotr32(w, 13) ^ rotr32(w, 22));
}
std::uint64_t ref_sha256sum1(std::uint64_t x) {
  const auto w = static_cast<std::uint32_t>(x);
  return sext32(rotr32(w, 6) ^ rotr32(w, 11) ^ rotr32(w, 25));
}
std::uint64_t ref_sha256sig0(std::uint64_t x) {
  const auto w = static_cast<std::uint32_t>(x);
  return sext32(rotr32(w, 7) ^ rotr32(w, 18) ^ (w >> 3));
}
std::uint64_t ref_sha256sig1(std::uint64_t x) {
  const auto w = static_cast<std::uint32_t>(x);
  return sext32(rotr32(w, 17) ^ rotr32(w, 19) ^ (w >> 10));
}
std::uint64_t ref_sha512sum0(std::uint64_t x) { return rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39); }
std::uint64_t ref_sha512sum1(std::uint64_t x) { return rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41); }
std::uint64_t ref_sha512sig0(std::uint64_t x) { return rotr64(x, 1) ^ rotr64(x, 8) ^ (x >> 7); }
std::uint64_t ref_sha512sig1(std::uint64_t x) { return rotr64(x, 19) ^ rotr64(x, 61) ^ (x >> 6); }

template <std::uint64_t (*Insn)(std::uint64_t)>
void check(Report& report, const char* wrapper, std::uint64_t (*reference)(std::uint64_t)) {
  Report::running(wrapper);
  for (std::uint64_t seed : {1, 2}) {
    const std::uint64_t x = 0x9e3779b97f4a7c15u * (seed + 40) ^ 0x8000000080000000u;  // both sign bits set
    g_x = x;
    g_pressure.reset(seed);
    call_insn<Insn>();
    report.expect(wrapper, "result (rd)", g_result, reference(x));
    report.expect(wrapper, "caller's input (rs1)", g_x_after, x);
    g_pressure.check(report, wrapper);
  }
}

}  // namespace

void run_contracts(Report& report, std::span<char* const>) {
  using namespace internal;
  check<zknh_sha256sum0>(report, "zknh_sha256sum0", ref_sha256sum0);
  check<zknh_sha256sum1>(report, "zknh_sha256sum1", ref_sha256sum1);
  check<zknh_sha256sig0>(report, "zknh_sha256sig0", ref_sha256sig0);
  check<zknh_sha256sig1>(report, "zknh_sha256sig1", ref_sha256sig1);
  check<zknh_sha512sum0>(report, "zknh_sha512sum0", ref_sha512sum0);
  check<zknh_sha512sum1>(report, "zknh_sha512sum1", ref_sha512sum1);
  check<zknh_sha512sig0>(report, "zknh_sha512sig0", ref_sha512sig0);
  check<zknh_sha512sig1>(report, "zknh_sha512sig1", ref_sha512sig1);
}

}  // namespace shakedown::asm_contract
