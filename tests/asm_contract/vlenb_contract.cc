// Contract of the vlenb read (arch/riscv64/vlenb.h): csrr writes one register, rd, and reads no other.
//
// The caller keeps 32 unrelated values live across the statement and compares vlenb with VLEN / 8 of the CPU model
// the ctest entry runs (its vlen= is the command-line argument; RVV 1.0 §3.6).
#include <cstdlib>

#include "contract.h"
#include "vlenb.h"

namespace shakedown::asm_contract {
namespace {

Pressure g_pressure;
volatile std::uint64_t g_vlenb;

[[gnu::noinline, gnu::flatten]] void call_read_vlenb() {
  SHAKEDOWN_LIVE_LOAD(g_pressure)
  sink(g_vlenb, static_cast<std::uint64_t>(internal::read_vlenb()));
  SHAKEDOWN_LIVE_STORE()
}

}  // namespace

void run_contracts(Report& report, std::span<char* const> args) {
  if (args.size() != 1) return report.fail("read_vlenb", "give the CPU model's VLEN in bits as the argument");
  const std::uint64_t vlen = std::strtoull(args[0], nullptr, 10);
  Report::running("read_vlenb");
  for (std::uint64_t seed : {1, 2}) {
    g_pressure.reset(seed);
    call_read_vlenb();
    report.expect("read_vlenb", "vlenb (rd)", g_vlenb, vlen / 8);
    g_pressure.check(report, "read_vlenb");
  }
}

}  // namespace shakedown::asm_contract
