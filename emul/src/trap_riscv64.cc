// riscv64 signal-context adapter for the Zvk model: vector state from the RISCV_V_MAGIC frame record or the
// live registers, resume at pc + 4 with vstart = 0 (docs/isa/riscv-crypto.md §3.5, §3.3).
//
// Compiled WITHOUT V (checked below; emul/riscv64.cmake adds no -march): the handler runs while the
// interrupted code's vector registers are live (QEMU <= 10.1 linux-user saves no vector state), so any
// compiler-generated vector instruction here would corrupt them (docs/isa/trap-and-emulate.md §0.3).
#if defined(__riscv_vector)
#error "the SIGILL handler must be compiled without the V extension"
#endif
#include <cstddef>
#include <cstring>

#include "trap.h"
#include "zvk_model.h"

namespace shakedown::emul::detail {
namespace {

// ---- The kernel's vector record (linux arch/riscv/include/uapi/asm/sigcontext.h, Linux >= 6.5) ----
// sc_extdesc overlays the FP state union: __u32 __padding[129] (aligned 16), __u32 reserved (always written 0),
// then the first record header {magic, size}. Linux's setup_sigcontext writes the V record first when the
// task has V state, then END_MAGIC (0). Spelled out here because Debian 12's kernel headers (6.1) predate it.
constexpr std::uint32_t kRiscvVMagic = 0x53465457;
constexpr std::size_t kReservedOffset = 129 * 4;  // from the start of the FP state union
constexpr std::size_t kFirstHeaderOffset = 129 * 4 + 4;
struct CtxHeader {
  std::uint32_t magic;
  std::uint32_t size;
};
struct alignas(16) VExtState {  // struct __sc_riscv_v_state { struct __riscv_v_ext_state v_state; } aligned(16)
  unsigned long vstart, vl, vtype, vcsr, vlenb;
  void* datap;
};
static_assert(sizeof(CtxHeader) == 8 && sizeof(VExtState) == 48, "uapi sigcontext.h layout");
static_assert(offsetof(mcontext_t, __fpregs) == 32 * 8, "gregs: pc, x1..x31");
static_assert(sizeof(mcontext_t::__fpregs) == 528, "FP union: 64 x u64 (Q) + fcsr, aligned 16");

// vsha2* and Zvkb groups read at most 8 * 3 registers; VLEN up to 2048 is supported (QEMU 7.2 goes to 1024).
constexpr std::size_t kMaxVlenb = 256;

unsigned long read_vlenb() {
  unsigned long v;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(v));
  return v;
}

// The V record of the frame when the kernel saved one: where its state struct lies (nullptr if none) and a
// copy of it. Only the first record is examined and every field must match exactly: under QEMU 7.2 these
// bytes lie past QEMU's smaller frame (its sigcontext ends after fcsr), on the interrupted stack, so they
// are arbitrary and must never be followed as a chain of records (an early version did and crashed).
struct FrameVector {
  std::uint8_t* at = nullptr;
  VExtState state{};
};
FrameVector find_frame_vector_state(ucontext_t& uc) {
  auto* fp = reinterpret_cast<std::uint8_t*>(&uc.uc_mcontext.__fpregs);
  std::uint32_t reserved;
  CtxHeader hdr;
  std::memcpy(&reserved, fp + kReservedOffset, sizeof reserved);
  std::memcpy(&hdr, fp + kFirstHeaderOffset, sizeof hdr);
  const unsigned long vlenb = read_vlenb();
  if (reserved != 0 || hdr.magic != kRiscvVMagic || hdr.size != sizeof hdr + sizeof(VExtState) + 32 * vlenb) return {};
  FrameVector found{fp + kFirstHeaderOffset + sizeof hdr, {}};
  std::memcpy(&found.state, found.at, sizeof found.state);
  if (found.state.vlenb != vlenb || found.state.datap != static_cast<void*>(found.at + sizeof(VExtState))) return {};
  return found;
}

// ---- Live vector state (no V record: QEMU linux-user) ----
// CSR numbers (RVV 1.0 §3): vstart 0x008, vl 0xC20, vtype 0xC21, vlenb 0xC22. Whole-register moves ignore
// vl/vtype but honour vstart, so vstart is zeroed before the dump and the reload.
void read_live_csrs(VectorState& s) {
  unsigned long vtype, vl, vstart;
  __asm__ volatile("csrr %0, 0xc21\n csrr %1, 0xc20\n csrr %2, 0x008" : "=r"(vtype), "=r"(vl), "=r"(vstart));
  s.vtype = vtype;
  s.vl = vl;
  s.vstart = vstart;
  s.vlenb = read_vlenb();
}
void write_live_vstart(unsigned long vstart) { __asm__ volatile("csrw 0x008, %0" : : "r"(vstart)); }
// One register per move: a whole-register store/load (vs1r.v / vl1re8.v) names its register in the encoding, so
// each of the 32 gets its own case. Moving only the registers the instruction uses (zvk_register_use) keeps a
// trap's cost independent of VLEN; dumping all 32 cost 4 x 8 KiB of copies per trap at VLEN 1024 under QEMU.
// clang-format off
#define SHAKEDOWN_EACH_VREG(X)                                                                                   \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) \
  X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
void store_live_register(unsigned reg, std::uint8_t* out) {
  switch (reg) {
#define SHAKEDOWN_STORE_CASE(n) \
  case n: __asm__ volatile(".option push\n.option arch, +v\nvs1r.v v" #n ", (%0)\n.option pop" : : "r"(out) : "memory"); break;
    SHAKEDOWN_EACH_VREG(SHAKEDOWN_STORE_CASE)
#undef SHAKEDOWN_STORE_CASE
  }
}
void load_live_register(unsigned reg, const std::uint8_t* in) {
  switch (reg) {
#define SHAKEDOWN_LOAD_CASE(n) \
  case n: __asm__ volatile(".option push\n.option arch, +v\nvl1re8.v v" #n ", (%0)\n.option pop" : : "r"(in) : "memory"); break;
    SHAKEDOWN_EACH_VREG(SHAKEDOWN_LOAD_CASE)
#undef SHAKEDOWN_LOAD_CASE
  }
}
#undef SHAKEDOWN_EACH_VREG
// clang-format on
void store_live_registers(std::uint32_t which, std::uint8_t* file, std::size_t vlenb) {
  for (unsigned r = 0; r < 32; ++r)
    if ((which >> r) & 1) store_live_register(r, file + r * vlenb);
}
void load_live_registers(std::uint32_t which, const std::uint8_t* file, std::size_t vlenb) {
  for (unsigned r = 0; r < 32; ++r)
    if ((which >> r) & 1) load_live_register(r, file + r * vlenb);
}

}  // namespace

TrapResult emulate_trap(ucontext_t& uc, const Options& options) noexcept {
  unsigned long* g = uc.uc_mcontext.__gregs;  // [0] = pc, [i] = x_i
  TrapResult result;
  result.pc = g[0];
  // A 32-bit instruction has low bits 11; read it as two parcels (pc may be only 2-byte aligned with C).
  std::uint16_t parcel[2];
  std::memcpy(&parcel[0], reinterpret_cast<const void*>(result.pc), 2);
  if ((parcel[0] & 3) != 3) return result;
  std::memcpy(&parcel[1], reinterpret_cast<const void*>(result.pc + 2), 2);
  const std::uint32_t word = parcel[0] | static_cast<std::uint32_t>(parcel[1]) << 16;
  result.insn = decode_zvk(word);
  if (result.insn == Insn::count_) return result;

  VectorState state;
  for (int i = 1; i < 32; ++i) state.x[i] = g[i];
  const FrameVector frame = find_frame_vector_state(uc);
  alignas(16) std::uint8_t live[32 * kMaxVlenb];  // register r at r * vlenb; only `use.read` ones filled
  ZvkRegisterUse use;
  if (frame.at != nullptr) {
    state.regs = static_cast<std::uint8_t*>(frame.state.datap);
    state.vlenb = frame.state.vlenb;
    state.vtype = frame.state.vtype;
    state.vl = frame.state.vl;
    state.vstart = frame.state.vstart;
  } else {
    read_live_csrs(state);
    if (state.vlenb > kMaxVlenb) return result;  // not emulated here: stays an illegal instruction
    state.regs = live;
    use = zvk_register_use(word, state.vtype);  // nothing under vtype.vill: every Zvk* instruction is illegal
    if (use.read != 0) {
      write_live_vstart(0);
      store_live_registers(use.read, live, state.vlenb);
    }
  }
  const unsigned long vstart_before = state.vstart;
  // "vd=v4, vs2=v8, vs1/rs1=12 (e32, vlmul 0, vl 4)": the register fields and the vector state it ran under.
  result.operands.put("vd=v").dec((word >> 7) & 31).put(", vs2=v").dec((word >> 20) & 31).put(", vs1/rs1=");
  result.operands.dec((word >> 15) & 31).put(" (e").dec(8u << ((state.vtype >> 3) & 7)).put(", vlmul ");
  result.operands.dec(state.vtype & 7).put(", vl ").dec(state.vl).put(")");
  const ZvkStep step = run_zvk(word, state, options);
  if (step.outcome != ZvkOutcome::completed) {
    if (frame.at == nullptr) write_live_vstart(vstart_before);  // registers untouched; vstart as it was
    if (step.outcome == ZvkOutcome::reserved) note_illegal(step.insn, result.pc, "reserved encoding", step.reason);
    result.outcome = TrapOutcome::not_ours;  // chain: the process dies by SIGILL unless someone handles it
    return result;
  }
  if (frame.at != nullptr) {
    const unsigned long zero = 0;  // the frame's vstart, restored by sigreturn
    std::memcpy(frame.at + offsetof(VExtState, vstart), &zero, sizeof zero);
  } else {
    load_live_registers(use.written, live, state.vlenb);  // vstart is 0 already
  }
  g[0] += 4;
  result.outcome = TrapOutcome::completed;
  result.blocks = step.groups;
  return result;
}

void rewind_to_instruction(ucontext_t&) noexcept {}  // pc still points at the instruction

const char* arch_name() noexcept { return "riscv64"; }

}  // namespace shakedown::emul::detail
