// A gtest fixture that installs the emulator with one Options value per parameter and removes it afterwards.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "emul/emul.h"

namespace shakedown::emul {
// gtest prints parameters with this (found by ADL) instead of a byte dump.
inline void PrintTo(const Options& o, std::ostream* os) { *os << describe(o); }
}  // namespace shakedown::emul

namespace shakedown::emul::test {

class EmulatedTest : public ::testing::TestWithParam<Options> {
 protected:
  void SetUp() override {
    install(GetParam());
    before_ = counters();
  }
  void TearDown() override { uninstall(); }
  std::uint64_t completed_since(Insn kind) const {
    return counters().completed[static_cast<std::size_t>(kind)] - before_.completed[static_cast<std::size_t>(kind)];
  }
  std::uint64_t traps_since() const { return counters().traps - before_.traps; }
  Options options() const { return GetParam(); }
  bool strict() const { return GetParam().strict; }
  bool via() const { return GetParam().profile == PheProfile::via; }

 private:
  Counters before_;
};

// "zhaoxin_strict_interrupt3"
inline std::string options_name(const ::testing::TestParamInfo<Options>& info) {
  std::string s = info.param.profile == PheProfile::via ? "via" : "zhaoxin";
  if (info.param.strict) s += "_strict";
  if (info.param.interrupt_blocks != 0) s += "_interrupt" + std::to_string(info.param.interrupt_blocks);
  return s;
}

inline Options make_options(PheProfile profile, bool strict = false, std::uint64_t interrupt = 0) {
  Options o;
  o.profile = profile;
  o.strict = strict;
  o.interrupt_blocks = interrupt;
  return o;
}

}  // namespace shakedown::emul::test
