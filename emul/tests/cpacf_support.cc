// What the CPACF tests ask QEMU: whether it implements a function itself (then nothing is emulated).
#include "cpacf_caller.h"

namespace shakedown::emul::test {

bool qemu_implements(std::uint32_t opcode, unsigned fc) {
  std::uint8_t vector[16] = {};
  if (opcode == kKimd)
    cpacf<kKimd>(0, vector, nullptr, 0);
  else
    cpacf<kKlmd>(0, vector, nullptr, 0);
  return (vector[fc >> 3] & (0x80u >> (fc & 7))) != 0;
}

}  // namespace shakedown::emul::test
