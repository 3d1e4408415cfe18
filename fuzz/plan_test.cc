// fuzz.plan_cutter.many: ManyPlan's byte cutting against its definition (README.md "Plan format": the pool taken
// cyclically, each pass adding its number), and messages() against message(i), across pool passes and byte wraps.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "many_plan.h"

namespace {

using shakedown::fuzz::ManyPlan;
using Bytes = std::vector<std::uint8_t>;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}

// Bytes [at, at + n) of the pool by the definition, one byte at a time.
Bytes defined(const Bytes& pool, std::size_t at, std::size_t n) {
  Bytes out(n);
  if (!pool.empty())
    for (std::size_t i = 0; i < n; ++i)
      out[i] = static_cast<std::uint8_t>(pool[(at + i) % pool.size()] + (at + i) / pool.size());
  return out;
}

void check(const ManyPlan& p, const std::string& name) {
  std::size_t at = 0;
  for (std::size_t c : p.prefix_chunks) at += c;  // the pool's start goes to the prefix chunks first
  expect(p.prefix_bytes() == defined(p.pool, 0, at), name + ": prefix_bytes()");
  const std::vector<Bytes> all = p.messages();
  expect(all.size() == p.lengths.size(), name + ": messages() count");
  for (std::size_t i = 0; i < p.lengths.size() && i < all.size(); ++i) {
    const Bytes want = defined(p.pool, at, p.lengths[i]);
    expect(p.message(i) == want, name + ": message(" + std::to_string(i) + ")");
    expect(all[i] == want, name + ": messages()[" + std::to_string(i) + "]");
    at += p.lengths[i];
  }
}

}  // namespace

int main() {
  std::mt19937_64 rng(1);
  // Pools of 0, 1, 2, 7 and 300 bytes; messages that stay in the first pass, cross one pass, and (with a 1-byte
  // pool) run past 256 passes, where the added pass number wraps to 0 again.
  for (std::size_t pool_size : {0u, 1u, 2u, 7u, 300u}) {
    for (bool prefix : {false, true}) {
      ManyPlan p;
      p.prefix = prefix;
      p.prefix_chunks = {0, 3, 5};
      for (std::size_t i = 0; i < pool_size; ++i) p.pool.push_back(static_cast<std::uint8_t>(rng()));
      p.lengths = {0, 1, pool_size, pool_size + 1, 5, 600, 0, 2 * pool_size + 3};
      p.outlens.assign(p.lengths.size(), 32);
      check(p, "pool " + std::to_string(pool_size) + (prefix ? " with prefix" : ""));
    }
  }
  // Decoded plans: whatever the decoder makes of random inputs.
  for (int n = 0; n < 2000; ++n) {
    Bytes input(rng() % 200);
    for (auto& b : input) b = static_cast<std::uint8_t>(rng());
    if (auto p = shakedown::fuzz::decode_many_plan(input, nullptr)) check(*p, "decoded input " + std::to_string(n));
  }
  if (failures) {
    std::fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  std::printf("many plan cutting: OK\n");
  return 0;
}
