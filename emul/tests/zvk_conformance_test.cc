// Emulator conformance, riscv64: the Zvk model (src/zvk_model.cc) judged by an executor we did not write.
//
// Under QEMU 10's qemu-riscv64 with V, Zvknhb and Zvkb, every instruction form the model implements runs for real
// and through detail::run_zvk (called as a function, no trap) on the same random state: register file, vtype
// (every SEW and LMUL, both tail and mask policies), vl, vstart, v0 mask, scalar and immediate operands, register
// numbers. The legal/reserved verdict, every register, and vl/vtype/vstart afterwards must agree; a difference
// fails with the instruction word, vtype/vl/vstart and the operands. SHAKEDOWN_ZVK_TAIL_ONES=1 states that the
// executor fills agnostic tails and masked-off elements with ones (-cpu ...,rvv_ta_all_1s=true,rvv_ma_all_1s=true);
// the model then runs with tail-ones, otherwise with tails kept (QEMU's default). docs/qemu10.md.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "sigill_probe.h"
#include "zvk_model.h"
#include "zvk_words.h"

namespace shakedown::emul::test {
namespace {

using detail::VectorState;
using detail::ZvkOutcome;

std::size_t vlenb() {
  unsigned long v;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(v));
  return v;
}

bool executor_fills_ones() {
  const char* v = std::getenv("SHAKEDOWN_ZVK_TAIL_ONES");
  return v != nullptr && std::string(v) == "1";
}

// ---- The forms the model implements (RISC-V vector cryptography specification; src/zvk_model.cc) ----
enum class Operand : std::uint8_t { sha2, none, vv, vx, vi };
struct Form {
  const char* name;
  Operand operand;
  std::uint32_t funct6;
  unsigned field;  // vrev8 / vbrev8: the vs1 field that selects them
};
constexpr Form kForms[] = {
    {"vsha2ms_vv", Operand::sha2, 0x2d, 0}, {"vsha2ch_vv", Operand::sha2, 0x2e, 0},
    {"vsha2cl_vv", Operand::sha2, 0x2f, 0}, {"vrev8_v", Operand::none, 0x12, 9},
    {"vbrev8_v", Operand::none, 0x12, 8},   {"vror_vv", Operand::vv, 0x14, 0},
    {"vror_vx", Operand::vx, 0x14, 0},      {"vror_vi", Operand::vi, 0x14, 0},
    {"vrol_vv", Operand::vv, 0x15, 0},      {"vrol_vx", Operand::vx, 0x15, 0},
    {"vandn_vv", Operand::vv, 0x01, 0},     {"vandn_vx", Operand::vx, 0x01, 0},
};

// GoogleTest prints a parameter with this (the default would be the struct's bytes).
void PrintTo(const Form& f, std::ostream* out) { *out << f.name; }

// The .vx forms read one of x28..x31 (t3..t6), which the harness loads with random values.
constexpr unsigned kFirstScalar = 28;

// What one case executes: the word and the state it starts from.
struct Case {
  std::uint32_t word = 0;
  unsigned vd = 0, vs2 = 0, vs1 = 0, vm = 1;  // vs1 is rs1 for .vx, imm[4:0] for .vi
  std::uint64_t avl = 0, vtype = 0, vstart = 0;
  std::array<std::uint64_t, 4> x{};  // x28..x31
  std::vector<std::uint8_t> regs;    // 32 * vlenb, register r at r * vlenb
};

std::uint32_t encode(const Form& f, unsigned vd, unsigned vs2, unsigned vs1, unsigned vm) {
  switch (f.operand) {
    case Operand::sha2: return opp(f.funct6, vd, vs2, vs1, vm);
    case Operand::none: return opv(f.funct6, vd, vs2, f.field, 2, vm);
    case Operand::vv: return opv(f.funct6, vd, vs2, vs1, 0, vm);
    case Operand::vx: return opv(f.funct6, vd, vs2, vs1, 4, vm);
    case Operand::vi: return opv(f.funct6 | (vs1 >> 5), vd, vs2, vs1 & 31, 3, vm);
  }
  return 0;
}

// ---- The executor: the word runs from a stub page, between whole-register loads and stores ----
struct Csrs {
  std::uint64_t vl = 0, vtype = 0, vstart = 0;
};
static_assert(sizeof(Csrs) == 24, "the asm stores vl, vtype, vstart at offsets 0, 8, 16");

// The word under test and `ret` (jalr x0, 0(ra)) on a page of their own; the word changes every case.
class Stub {
 public:
  Stub() {
    page_ = mmap(nullptr, kPage, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page_ == MAP_FAILED) page_ = nullptr;
  }
  ~Stub() {
    if (page_ != nullptr) munmap(page_, kPage);
  }
  Stub(const Stub&) = delete;
  Stub& operator=(const Stub&) = delete;
  bool ok() const { return page_ != nullptr; }
  const void* load(std::uint32_t word) {
    const std::uint32_t code[2] = {word, 0x00008067};
    std::memcpy(page_, code, sizeof code);
    __builtin___clear_cache(static_cast<char*>(page_), static_cast<char*>(page_) + sizeof code);
    return page_;
  }

 private:
  static constexpr std::size_t kPage = 4096;
  void* page_ = nullptr;
};

// Whole-register moves (vl8re8.v / vs8r.v) ignore vtype and vl, so the same code loads and stores the register
// file for every configuration, a reserved one included. They do honour vstart, which an illegal instruction of
// the previous case leaves set: it is cleared first. vsetvl resets vstart, so the case's vstart is written after.
// The compiler never emits vector code here (no V in -march), so no vector register needs declaring.
void execute(const std::uint8_t* in, std::uint8_t* out, std::size_t eight_regs, std::uint64_t avl,
             std::uint64_t vtype, std::uint64_t vstart, const std::uint64_t* x, const void* stub, Csrs* before,
             Csrs* after) {
  __asm__ volatile(
      ".option push\n.option arch, +v\n"
      "csrw vstart, zero\n mv t0, %[in]\n"
      "vl8re8.v v0, (t0)\n add t0, t0, %[g]\n vl8re8.v v8, (t0)\n add t0, t0, %[g]\n"
      "vl8re8.v v16, (t0)\n add t0, t0, %[g]\n vl8re8.v v24, (t0)\n"
      "vsetvl t1, %[avl], %[vtype]\n"
      "sd t1, 0(%[before])\n csrr t1, vtype\n sd t1, 8(%[before])\n"
      "csrw vstart, %[vstart]\n csrr t1, vstart\n sd t1, 16(%[before])\n"
      "ld t3, 0(%[x])\n ld t4, 8(%[x])\n ld t5, 16(%[x])\n ld t6, 24(%[x])\n"
      "jalr ra, 0(%[stub])\n"
      "csrr t1, vl\n sd t1, 0(%[after])\n csrr t1, vtype\n sd t1, 8(%[after])\n"
      "csrr t1, vstart\n sd t1, 16(%[after])\n"
      "mv t0, %[out]\n"
      "vs8r.v v0, (t0)\n add t0, t0, %[g]\n vs8r.v v8, (t0)\n add t0, t0, %[g]\n"
      "vs8r.v v16, (t0)\n add t0, t0, %[g]\n vs8r.v v24, (t0)\n"
      ".option pop\n"
      :
      : [in] "r"(in), [out] "r"(out), [g] "r"(eight_regs), [avl] "r"(avl), [vtype] "r"(vtype),
        [vstart] "r"(vstart), [x] "r"(x), [stub] "r"(stub), [before] "r"(before), [after] "r"(after)
      : "t0", "t1", "t3", "t4", "t5", "t6", "ra", "memory");
}

struct Executed {
  bool illegal = false;
  Csrs before, after;
  std::vector<std::uint8_t> regs;
};

// A reserved encoding raises SIGILL at the stub's first word; a SIGILL anywhere else is a fault of the harness.
Executed run_on_executor(Stub& stub, const Case& c) {
  Executed e;
  e.regs.assign(c.regs.size(), 0);
  const void* pc = stub.load(c.word);
  e.illegal = raises_sigill(
      [&] {
        execute(c.regs.data(), e.regs.data(), 8 * vlenb(), c.avl, c.vtype, c.vstart, c.x.data(), pc, &e.before,
                &e.after);
      },
      pc);
  return e;
}

// ---- The model on the same state: the CSRs the instruction saw, the same register file and scalars ----
struct Modelled {
  detail::ZvkStep step;
  VectorState after;
  std::vector<std::uint8_t> regs;
};

Modelled run_on_model(const Case& c, const Csrs& seen) {
  Modelled m;
  m.regs = c.regs;
  VectorState& s = m.after;
  s.regs = m.regs.data();
  s.vlenb = vlenb();
  s.vtype = seen.vtype;
  s.vl = seen.vl;
  s.vstart = seen.vstart;
  for (unsigned i = 0; i < c.x.size(); ++i) s.x[kFirstScalar + i] = c.x[i];
  Options o;
  o.model = Model::zvk;
  o.zvk_profile = ZvkProfile::zvknhb;
  o.tail_ones = executor_fills_ones();
  m.step = detail::run_zvk(c.word, s, o);
  return m;
}

// ---- Reports ----
std::string vtype_text(std::uint64_t vt) {
  if (vt >> 63) return "vill";
  static const char* const kLmul[8] = {"m1", "m2", "m4", "m8", "reserved", "mf8", "mf4", "mf2"};
  std::ostringstream out;
  out << "e" << (8u << ((vt >> 3) & 7)) << "," << kLmul[vt & 7] << "," << ((vt >> 6) & 1 ? "ta" : "tu") << ","
      << ((vt >> 7) & 1 ? "ma" : "mu");
  return out.str();
}

// The elements of register group base .. base + count - 1 at this SEW (element 0 first), at most 16 of them.
std::string group_text(const std::vector<std::uint8_t>& regs, unsigned base, unsigned count, unsigned sew_bytes) {
  std::ostringstream out;
  const std::size_t begin = base * vlenb(), end = std::min(regs.size(), (base + count) * vlenb());
  std::size_t shown = 0;
  for (std::size_t at = begin; at + sew_bytes <= end && shown < 16; at += sew_bytes, ++shown) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < sew_bytes; ++i) v |= std::uint64_t{regs[at + i]} << (8 * i);
    out << (shown ? " " : "") << std::hex << v;
  }
  if (begin + shown * sew_bytes < end) out << " ...";
  return out.str();
}

std::string describe_case(const Form& f, const Case& c, const Csrs& seen) {
  const unsigned sew_bytes = seen.vtype >> 63 ? 8 : 1u << ((seen.vtype >> 3) & 7);
  const unsigned lmul = seen.vtype >> 63 || (seen.vtype & 4) ? 1 : 1u << (seen.vtype & 3);
  std::ostringstream out;
  out << f.name << " word 0x" << std::hex << c.word << std::dec << " (vd v" << c.vd << ", vs2 v" << c.vs2;
  if (f.operand == Operand::sha2 || f.operand == Operand::vv) out << ", vs1 v" << c.vs1;
  if (f.operand == Operand::vx)
    out << ", rs1 x" << c.vs1 << " = 0x" << std::hex << c.x[c.vs1 - kFirstScalar] << std::dec;
  if (f.operand == Operand::vi) out << ", imm " << c.vs1;
  out << ", vm " << c.vm << ") at VLEN " << 8 * vlenb() << "; vtype 0x" << std::hex << seen.vtype << std::dec << " ("
      << vtype_text(seen.vtype) << "), vl " << seen.vl << " (avl " << c.avl << "), vstart " << seen.vstart
      << "\n  vs2: " << group_text(c.regs, c.vs2, lmul, sew_bytes);
  if (f.operand == Operand::sha2 || f.operand == Operand::vv)
    out << "\n  vs1: " << group_text(c.regs, c.vs1, lmul, sew_bytes);
  out << "\n  vd before: " << group_text(c.regs, c.vd, lmul, sew_bytes);
  if (c.vm == 0) out << "\n  v0: " << group_text(c.regs, 0, 1, 8);
  return out.str();
}

// The first register whose bytes differ, with both versions, or "" when the files agree.
std::string first_difference(const std::vector<std::uint8_t>& model, const std::vector<std::uint8_t>& qemu,
                             unsigned sew_bytes) {
  for (unsigned r = 0; r < 32; ++r) {
    if (std::memcmp(model.data() + r * vlenb(), qemu.data() + r * vlenb(), vlenb()) != 0) {
      return "v" + std::to_string(r) + " differs\n    model: " + group_text(model, r, 1, sew_bytes) +
             "\n    QEMU:  " + group_text(qemu, r, 1, sew_bytes);
    }
  }
  return "";
}

// ---- Random cases ----
// Register groups of `regs` registers: mostly aligned and non-overlapping (legal), sometimes any number, so that
// the reserved-encoding rules are judged too.
struct Generator {
  // SplitMix64 (Steele, Lea, Flood 2014): cheap under QEMU, where filling a 4 KiB register file per case with
  // std::mt19937_64 cost more than executing the case.
  std::uint64_t state;
  explicit Generator(std::uint64_t seed) : state(seed) {}
  std::uint64_t rng() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return static_cast<unsigned>(rng() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

  Case make(const Form& f, unsigned sew, int lmul_log2) {
    Case c;
    const unsigned group = lmul_log2 > 0 ? 1u << lmul_log2 : 1;
    const std::size_t vlmax =
        lmul_log2 >= 0 ? (vlenb() * 8 / sew) << lmul_log2 : (vlenb() * 8 / sew) >> -lmul_log2;
    const bool sha2 = f.operand == Operand::sha2;
    c.vtype = vtype(sew, lmul_log2, chance(50), chance(50));
    // vl: a multiple of the element-group size 4 for vsha2* in most cases, anything up to VLMAX + 3 otherwise.
    c.avl = below(static_cast<unsigned>(vlmax) + 4);
    if (sha2 && chance(85)) c.avl = c.avl / 4 * 4;
    const std::uint64_t vl = std::min<std::uint64_t>(c.avl, vlmax);
    if (chance(25)) {
      c.vstart = vl == 0 ? 0 : below(static_cast<unsigned>(vl) + 1);
      if (sha2 && chance(70)) c.vstart = c.vstart / 4 * 4;
    }
    c.vm = sha2 ? (chance(5) ? 0 : 1) : below(2);
    if (chance(85)) {
      // Legal operands: distinct aligned groups, and for masked forms a destination other than v0.
      const unsigned groups = 32 / group;
      unsigned pick[3];
      for (unsigned i = 0; i < 3; ++i) {
        do pick[i] = below(groups);
        while ((i > 0 && pick[i] == pick[0]) || (pick[i] == 0 && c.vm == 0 && i == 0));
      }
      c.vd = pick[0] * group, c.vs2 = pick[1] * group, c.vs1 = pick[2] * group;
    } else {
      c.vd = below(32), c.vs2 = below(32), c.vs1 = below(32);
    }
    if (f.operand == Operand::vx) c.vs1 = kFirstScalar + below(4);
    if (f.operand == Operand::vi) c.vs1 = below(64);
    for (auto& v : c.x) v = rng();
    c.regs.resize(32 * vlenb());  // a multiple of 8 bytes (VLEN >= 128)
    for (std::size_t at = 0; at < c.regs.size(); at += 8) {
      const std::uint64_t r = rng();
      std::memcpy(c.regs.data() + at, &r, 8);
    }
    c.word = encode(f, c.vd, c.vs2, c.vs1, c.vm);
    return c;
  }
};

// Whether the model accepts a (form, SEW, LMUL) with well-formed operands at this VLEN (its reserved rules),
// so that the test can insist some of its cases really executed.
bool accepted(const Form& f, unsigned sew, int lmul_log2) {
  if (lmul_log2 < 0 && sew > (64u >> -lmul_log2)) return false;  // vtype itself is illegal: SEW > LMUL * ELEN
  if (f.operand != Operand::sha2) return true;
  if (sew != 32 && sew != 64) return false;
  return lmul_log2 >= 0 && (vlenb() << lmul_log2) >= 4 * sew / 8;
}

class ZvkConformance : public ::testing::TestWithParam<Form> {};

TEST_P(ZvkConformance, ModelAgreesWithTheExecutorOnRandomCases) {
  const Form& f = GetParam();
  Stub stub;
  ASSERT_TRUE(stub.ok()) << "mmap of an executable page failed";
  // Configurations the model accepts get most cases; the others still get enough to judge the reserved verdicts.
  constexpr int kCasesAccepted = 40, kCasesRejected = 8;
  constexpr int kReportsMax = 5;
  Generator gen(0x5eed0000 + f.funct6 * 131 + f.field * 7 + static_cast<unsigned>(f.operand));
  int reports = 0;
  std::uint64_t executed = 0, reserved = 0;
  for (unsigned sew : {8u, 16u, 32u, 64u}) {
    for (int lmul_log2 = -3; lmul_log2 <= 3; ++lmul_log2) {
      int executed_here = 0;
      const int cases = accepted(f, sew, lmul_log2) ? kCasesAccepted : kCasesRejected;
      for (int i = 0; i < cases; ++i) {
        const Case c = gen.make(f, sew, lmul_log2);
        const Executed q = run_on_executor(stub, c);
        const Modelled m = run_on_model(c, q.before);
        const bool model_ran = m.step.outcome == ZvkOutcome::completed;
        ASSERT_NE(m.step.outcome, ZvkOutcome::not_ours) << describe_case(f, c, q.before);
        std::string problem;
        if (model_ran != !q.illegal) {
          problem = model_ran ? "the model executed it, QEMU raised an illegal-instruction exception"
                              : std::string("the model calls it reserved (") + m.step.reason + "), QEMU executed it";
        } else if (model_ran) {
          const unsigned sew_bytes = 1u << ((q.before.vtype >> 3) & 7);
          problem = first_difference(m.regs, q.regs, sew_bytes);
          if (problem.empty() && (q.after.vstart != 0 || m.after.vstart != 0))
            problem = "vstart after: model " + std::to_string(m.after.vstart) + ", QEMU " +
                      std::to_string(q.after.vstart);
          if (problem.empty() && (q.after.vl != q.before.vl || q.after.vtype != q.before.vtype))
            problem = "QEMU changed vl or vtype";
        }
        model_ran ? ++executed : ++reserved;
        executed_here += model_ran;
        if (!problem.empty()) {
          ADD_FAILURE() << describe_case(f, c, q.before) << "\n  " << problem;
          if (++reports == kReportsMax) GTEST_FAIL() << "stopping after " << kReportsMax << " differences";
        }
      }
      if (accepted(f, sew, lmul_log2)) {
        EXPECT_GT(executed_here, 0) << f.name << " e" << sew << " lmul_log2 " << lmul_log2
                                    << ": no case executed, so nothing was compared";
      }
    }
  }
  std::printf("%s at VLEN %zu: %llu cases executed and equal, %llu reserved on both\n", f.name, 8 * vlenb(),
              static_cast<unsigned long long>(executed), static_cast<unsigned long long>(reserved));
}

INSTANTIATE_TEST_SUITE_P(Forms, ZvkConformance, ::testing::ValuesIn(kForms),
                         [](const ::testing::TestParamInfo<Form>& p) { return std::string(p.param.name); });

// The run states the executor's tail policy; a wrong statement would compare the model in the other mode. vadd.vv
// (RVV 1.0, not ours) with vl = 1 under ta shows what the executor does with the tail.
TEST(ZvkConformanceSetup, ExecutorTailPolicyIsAsStated) {
  std::vector<std::uint8_t> reg(vlenb(), 0);
  __asm__ volatile(
      ".option push\n.option arch, +v\n"
      "vsetvli t0, zero, e8, m1, tu, mu\n vmv.v.i v8, 0\n"
      "li t0, 1\n vsetvli t0, t0, e8, m1, ta, ma\n vadd.vv v8, v8, v8\n"
      "vs1r.v v8, (%0)\n"
      ".option pop\n"
      :
      : "r"(reg.data())
      : "t0", "memory");
  const bool ones = reg.back() == 0xff;
  EXPECT_EQ(ones, executor_fills_ones())
      << "SHAKEDOWN_ZVK_TAIL_ONES=" << (executor_fills_ones() ? "1" : "0 or unset")
      << " but the executor " << (ones ? "fills" : "keeps") << " agnostic tails (-cpu ...,rvv_ta_all_1s=)";
}

}  // namespace
}  // namespace shakedown::emul::test
