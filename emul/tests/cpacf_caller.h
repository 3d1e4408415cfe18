// Hand-written KIMD/KLMD callers for the CPACF model tests: a correct one (CC3 loop) and deliberately wrong ones.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::emul::test {

inline constexpr std::uint32_t kKimd = 0xb93e;
inline constexpr std::uint32_t kKlmd = 0xb93f;

// Registers after the call. executions counts how often the instruction ran (1 + the CC3 re-executions).
struct CpacfRegs {
  std::uint64_t gr0 = 0;
  std::uint64_t src = 0, src_len = 0;  // R2, R2+1
  std::uint64_t dst = 0, dst_len = 0;  // R1, R1+1
  unsigned cc = 0;                     // of the last execution
  std::uint64_t executions = 0;
};

// Executes `.insn rre,Opcode<<16,R1,R2` with GR0 = gr0, GR1 = param, R2/R2+1 = src/src_len, R1/R1+1 = dst/dst_len.
// R2 = 2 and R1 = 4 are what the library uses; other field values exist to provoke specification exceptions.
// Loop = true re-executes on CC3 (`brc 1,0b`); Loop = false is the caller that forgot the loop.
template <std::uint32_t Opcode, bool Loop = true, unsigned R1 = 4, unsigned R2 = 2>
CpacfRegs cpacf(std::uint64_t gr0, void* param, const void* src, std::size_t src_len, void* dst = nullptr,
                std::size_t dst_len = 0) {
  static_assert((R1 == 4 || R1 == 5) && (R2 == 0 || R2 == 2 || R2 == 3), "registers bound below");
  register std::uint64_t r0 asm("0") = gr0;
  register void* r1 asm("1") = param;
  register const void* r2 asm("2") = src;
  register std::size_t r3 asm("3") = src_len;
  register void* r4 asm("4") = dst;
  register std::size_t r5 asm("5") = dst_len;
  std::uint64_t executions = 0, cc = 0;
  if constexpr (Loop) {
    // LA advances the counter without touching the condition code that BRC tests.
    asm volatile("0: .insn rre,%[opc] << 16,%[f1],%[f2]\n"
                 "   la %[n],1(%[n])\n"
                 "   brc 1,0b\n"
                 "   ipm %[cc]\n"
                 "   srl %[cc],28\n"
                 : "+d"(r0), "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), [n] "+a"(executions), [cc] "=&d"(cc)
                 : "d"(r1), [opc] "i"(Opcode), [f1] "i"(R1), [f2] "i"(R2)
                 : "cc", "memory");
  } else {
    asm volatile(".insn rre,%[opc] << 16,%[f1],%[f2]\n"
                 "ipm %[cc]\n"
                 "srl %[cc],28\n"
                 : "+d"(r0), "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), [cc] "=&d"(cc)
                 : "d"(r1), [opc] "i"(Opcode), [f1] "i"(R1), [f2] "i"(R2)
                 : "cc", "memory");
    executions = 1;
  }
  CpacfRegs out;
  out.gr0 = r0;
  out.src = reinterpret_cast<std::uintptr_t>(r2);
  out.src_len = r3;
  out.dst = reinterpret_cast<std::uintptr_t>(r4);
  out.dst_len = r5;
  out.cc = static_cast<unsigned>(cc & 3);
  out.executions = executions;
  return out;
}

// Whether QEMU itself implements a function code (the query never traps, docs/isa/cpacf.md §2.2): then no emulation happens.
bool qemu_implements(std::uint32_t opcode, unsigned fc);

}  // namespace shakedown::emul::test
