// Test-only fault injection into the models (CMake -DSHAKEDOWN_EMUL_TEST_BREAK=<kind>, e.g. vsha2cl): proves that
// the conformance suites, which judge the models against QEMU, catch a model that gets one instruction wrong.
#pragma once

#include <string_view>

#include "emul/emul.h"

namespace shakedown::emul::detail {

// Whether this build deliberately corrupts the result of instructions of this kind (one bit of the first value
// the model writes). Always false unless CMake sets the definition; never set in a release.
inline bool broken_by_test(Insn kind) noexcept {
#ifdef SHAKEDOWN_EMUL_TEST_BREAK
  return insn_name(kind) == std::string_view(SHAKEDOWN_EMUL_TEST_BREAK);
#else
  static_cast<void>(kind);
  return false;
#endif
}

}  // namespace shakedown::emul::detail
