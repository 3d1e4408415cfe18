// The CAVP Monte Carlo procedures (SHAVS §6.4, SHA3VS §6.2.3 and §6.3.3) over a bound Hasher.
#include "monte.h"

#include <algorithm>

#include "cavp.h"

namespace shakedown::vectors {

namespace {
Bytes digest_of(Hasher& ctx, const Bytes& message, std::size_t outlen) {
  ctx.reset();
  ctx.update(message);
  Bytes out(outlen);
  ctx.final(out);
  return out;
}
}  // namespace

std::vector<Bytes> sha2_monte(Hasher& ctx, const Bytes& seed, std::size_t checkpoints) {
  const std::size_t n = seed.size();
  std::vector<Bytes> out;
  Bytes next_seed = seed;
  Bytes window(3 * n);  // MDi-3 || MDi-2 || MDi-1
  auto slot = [&](std::size_t k) { return window.begin() + static_cast<std::ptrdiff_t>(k * n); };
  for (std::size_t j = 0; j < checkpoints; ++j) {
    for (std::size_t k = 0; k < 3; ++k) std::copy(next_seed.begin(), next_seed.end(), slot(k));
    Bytes md;
    for (std::size_t i = 3; i < 3 + kMonteInnerIterations; ++i) {
      md = digest_of(ctx, window, n);
      // Slide the window: drop MDi-3, append MDi.
      std::copy(slot(1), window.end(), slot(0));
      std::copy(md.begin(), md.end(), slot(2));
    }
    next_seed = md;
    out.push_back(std::move(md));
  }
  return out;
}

std::vector<Bytes> sha3_monte(Hasher& ctx, const Bytes& seed, std::size_t checkpoints) {
  std::vector<Bytes> out;
  Bytes md = seed;
  for (std::size_t j = 0; j < checkpoints; ++j) {
    for (std::size_t i = 0; i < kMonteInnerIterations; ++i) md = digest_of(ctx, md, seed.size());
    out.push_back(md);
  }
  return out;
}

std::vector<Bytes> shake_monte(Hasher& ctx, const Bytes& seed, std::size_t min_out_bytes,
                               std::size_t max_out_bytes, std::size_t checkpoints) {
  constexpr std::size_t kMsgBytes = 16;  // "the 128 leftmost bits" (SHA3VS §6.3.3)
  const std::size_t range = max_out_bytes - min_out_bytes + 1;
  std::vector<Bytes> out;
  Bytes output = seed;
  std::size_t outlen = max_out_bytes;
  for (std::size_t j = 0; j < checkpoints; ++j) {
    for (std::size_t i = 0; i < kMonteInnerIterations; ++i) {
      Bytes msg(kMsgBytes, 0);
      std::copy_n(output.begin(), std::min(kMsgBytes, output.size()), msg.begin());
      output = digest_of(ctx, msg, outlen);
      // parse_monte_file guarantees min_out_bytes >= 2, so the last two bytes exist.
      std::size_t rightmost16 = static_cast<std::size_t>(output[outlen - 2]) << 8 | output[outlen - 1];
      outlen = min_out_bytes + rightmost16 % range;
    }
    out.push_back(output);
  }
  return out;
}

}  // namespace shakedown::vectors
