// The CAVP Monte Carlo procedures (SHAVS §6.4, SHA3VS §6.2.3 and §6.3.3) over a bound Hasher.
#pragma once

#include <cstddef>
#include <vector>

#include "rsp_reader.h"
#include "shakedown/hash.h"

namespace shakedown::vectors {

// Each returns the first `checkpoints` checkpoint outputs. `ctx` is a Hasher bound to the backend
// under test; it is reset before every inner hash, so every one of the 1000 inner iterations
// per checkpoint runs on that backend.

// SHAVS §6.4 (SHA-2): per checkpoint MD0 = MD1 = MD2 = Seed; for i = 3..1002
// MDi = H(MDi-3 || MDi-2 || MDi-1); the checkpoint is MD1002, which is the next Seed.
std::vector<Bytes> sha2_monte(Hasher& ctx, const Bytes& seed, std::size_t checkpoints);

// SHA3VS §6.2.3 (SHA-3): MD0 = Seed; MDi = H(MDi-1); every 1000th MD is a checkpoint.
std::vector<Bytes> sha3_monte(Hasher& ctx, const Bytes& seed, std::size_t checkpoints);

// SHA3VS §6.3.3 (SHAKE): Output0 = Msg and Outputlen = max; each iteration hashes the leftmost
// 128 bits of the previous output (zero-padded when it is shorter, as SHAKE256's 2-byte minimum
// allows) to Outputlen bytes, then Outputlen = min + (rightmost 16 bits of the output, big-endian)
// mod (max - min + 1). Every 1000th output is a checkpoint (with its own length).
std::vector<Bytes> shake_monte(Hasher& ctx, const Bytes& seed, std::size_t min_out_bytes,
                               std::size_t max_out_bytes, std::size_t checkpoints);

}  // namespace shakedown::vectors
