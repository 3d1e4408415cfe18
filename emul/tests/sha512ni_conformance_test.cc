// Emulator conformance, x86-64: the Intel SHA512 model (src/sha512ni_model.cc) judged by an executor we did not
// write.
//
// Under Bochs' arrow_lake CPU model (ci/bochs/run: the instructions execute in Bochs' decoder and handlers, no trap,
// no model installed), VSHA512RNDS2, VSHA512MSG1 and VSHA512MSG2 run for real on a random register file, on
// register combinations that alias every operand pair and reach ymm8-15 (VEX.R, VEX.B and vvvv's high bit), and the
// model runs on the same values; every register afterwards must agree. A difference fails naming the instruction,
// its registers and the operands. A CPU without the instructions is a failure, not a skip: this suite exists to run
// them. docs/bochs.md.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "sha512ni_caller.h"
#include "sha512ni_model.h"
#include "shakedown/shakedown.h"

namespace shakedown::emul::test {
namespace {

using detail::Ymm;

std::string hex(const Ymm& y) {
  char text[4 * 17 + 8];
  std::snprintf(text, sizeof text, "{%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "}", y[0], y[1], y[2],
                y[3]);
  return text;
}

YmmFile random_file(std::mt19937_64& rng) {
  YmmFile f;
  for (auto& reg : f.r)
    for (auto& q : reg) q = rng();
  return f;
}

// Every register after the real instruction against the model on the same file: the destination gets the model's
// result from copies of the sources (so an aliased source reads the old value), the rest must be unchanged.
template <Insn K, int D, int S1, int S2>
void compare(std::mt19937_64& rng, std::size_t cases) {
  for (std::size_t c = 0; c < cases; ++c) {
    const YmmFile in = random_file(rng);
    YmmFile real{};
    run_on_file<K, D, S1, S2>(in, real);
    YmmFile model = in;
    detail::execute_sha512ni(K, model.r[D], in.r[S1], in.r[S2]);
    for (int r = 0; r < 16; ++r) {
      if (real.r[r] == model.r[r]) continue;
      std::ostringstream why;
      why << insn_name(K) << " ymm" << D << ", ymm" << S1 << ", ymm" << S2 << " (case " << c << "): ymm" << r << " is "
          << hex(real.r[r]) << " in Bochs, " << hex(model.r[r]) << " in the model; operands dst " << hex(in.r[D])
          << " src1 " << hex(in.r[S1]) << " src2 " << hex(in.r[S2]);
      FAIL() << why.str();
    }
  }
}

// The executor must have the instructions: CPUID.(EAX=7,ECX=1):EAX[0] (and the AVX state they need).
class Sha512niConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cpu_features().has(CpuFeature::x86_sha512) && cpu_features().has(CpuFeature::x86_os_ymm))
        << "this CPU does not execute the Intel SHA512 instructions: run this suite under Bochs' arrow_lake model "
           "(ci/bochs/run), the executor it exists to compare the model with";
  }
  std::mt19937_64 rng{0x5348413531324e49u};
  const std::size_t cases = 1500;
};

TEST_F(Sha512niConformance, Rnds2) {
  compare<Insn::vsha512rnds2, 0, 1, 2>(rng, cases);
  compare<Insn::vsha512rnds2, 9, 12, 15>(rng, cases / 4);  // VEX.R, vvvv bit 3, VEX.B
  compare<Insn::vsha512rnds2, 3, 3, 7>(rng, cases / 4);    // destination is also the {A,B,E,F} source
  compare<Insn::vsha512rnds2, 5, 11, 5>(rng, cases / 4);   // destination is also the K + W source
  compare<Insn::vsha512rnds2, 14, 6, 6>(rng, cases / 4);   // one register for both sources
  compare<Insn::vsha512rnds2, 8, 8, 8>(rng, cases / 4);
}

TEST_F(Sha512niConformance, Msg1) {
  compare<Insn::vsha512msg1, 0, 0, 1>(rng, cases);
  compare<Insn::vsha512msg1, 13, 0, 10>(rng, cases / 4);
  compare<Insn::vsha512msg1, 4, 0, 4>(rng, cases / 4);  // W[t-12] from the destination's own old qword 0
}

TEST_F(Sha512niConformance, Msg2) {
  compare<Insn::vsha512msg2, 0, 0, 1>(rng, cases);
  compare<Insn::vsha512msg2, 15, 0, 8>(rng, cases / 4);
  compare<Insn::vsha512msg2, 6, 0, 6>(rng, cases / 4);  // W[t-2], W[t-1] from the destination itself
}

}  // namespace
}  // namespace shakedown::emul::test
