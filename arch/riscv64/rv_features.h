// Feature combinations the riscv64 vector backends' predicates share.
#pragma once

#include "shakedown/cpu.h"

namespace shakedown::internal::rv {

// V itself, Zvkb for vrev8, and VLEN >= 128, the minimum the element groups fit in (SHA-256 LMUL 1, SHA-512
// LMUL 2; docs/isa/riscv-crypto.md §3.2.1) and the bound Linux lib/crypto/riscv uses. Under QEMU 7.2 only the test
// override supplies Zvk* (riscv_hwprobe is ENOSYS there, docs/isa/riscv-crypto.md §3.4).
inline bool vector_crypto_base(const CpuFeatures& f) {
  return f.has(CpuFeature::rv_v) && f.vector_bytes >= 16 && f.has(CpuFeature::rv_zvkb);
}

}  // namespace shakedown::internal::rv
