// Known-answer self-tests, one per family, run once per process for the rows flagged kBackendSelfTest.
//
// Expected values are the FIPS 180-2 Appendix B.1 / C.1 "abc" digests and the SHA3-256("") digest of the NIST
// SHA-3 examples, not output of this code. The initial values come from the algorithm table.
#include "internal/self_test.h"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "internal/algorithm_spec.h"
#include "internal/generic.h"
#include "internal/tables.h"

namespace shakedown::internal {
namespace {

// "abc" as one padded block (FIPS 180-4 §5.1): 0x80 after the message, its bit length (24) in the last byte.
template <std::size_t Block>
std::array<std::uint8_t, Block> abc_block() {
  std::array<std::uint8_t, Block> block{'a', 'b', 'c', 0x80};
  block[Block - 1] = 24;
  return block;
}

bool run(const Sha256Backend& b) {
  const auto block = abc_block<64>();
  alignas(16) std::uint32_t state[8];
  std::memcpy(state, spec(Algorithm::sha256).iv32, sizeof state);
  b.blocks(state, block.data(), 1);
  constexpr std::uint32_t want[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                     0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  return std::memcmp(state, want, sizeof want) == 0;
}

bool run(const Sha512Backend& b) {
  const auto block = abc_block<128>();
  alignas(16) std::uint64_t state[8];
  std::memcpy(state, spec(Algorithm::sha512).iv64, sizeof state);
  b.blocks(state, block.data(), 1);
  constexpr std::uint64_t want[8] = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                     0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                     0x454d4423643ce80e, 0x2a9ac94fa54ca49f};
  return std::memcmp(state, want, sizeof want) == 0;
}

bool run(const KeccakBackend& b) {
  // SHA3-256 of "": domain bits 01 and pad10*1 give 0x06 at byte 0, 0x80 at byte rate-1 (FIPS 202 §B.2).
  const AlgorithmSpec& s = spec(Algorithm::sha3_256);
  std::uint64_t st[25] = {};
  const std::uint8_t first = s.domain, last = 0x80;
  keccak_xor_bytes(st, 0, &first, 1);
  keccak_xor_bytes(st, s.block - 1, &last, 1);
  b.permute(st);
  std::uint8_t out[32];
  keccak_extract_bytes(st, 0, out, 32);
  constexpr std::uint8_t want[32] = {0xa7, 0xff, 0xc6, 0xf8, 0xbf, 0x1e, 0xd7, 0x66, 0x51, 0xc1, 0x47,
                                     0x56, 0xa0, 0x61, 0xd6, 0x62, 0xf5, 0x80, 0xff, 0x4d, 0xe4, 0x3b,
                                     0x49, 0xfa, 0x82, 0xd8, 0x0a, 0x4b, 0x80, 0xf8, 0x43, 0x4a};
  return std::memcmp(out, want, sizeof want) == 0;
}

// One result per table row, per family.
std::array<std::array<std::atomic<SelfTest>, kMaxRowsPerFamily>, kAllFamilies.size()> g_results{};
std::mutex g_mutex;

template <Family F>
std::atomic<SelfTest>& slot(const BackendOf<F>& row) noexcept {
  return g_results[static_cast<std::size_t>(F)][row_index<F>(row)];
}

}  // namespace

template <Family F>
bool self_test_passes(const BackendOf<F>& row) {
  auto& result = slot<F>(row);
  SelfTest r = result.load(std::memory_order_acquire);
  if (r == SelfTest::not_run) {
    std::lock_guard<std::mutex> lock(g_mutex);
    r = result.load(std::memory_order_relaxed);
    if (r == SelfTest::not_run) {
      r = run(row) ? SelfTest::passed : SelfTest::failed;
      result.store(r, std::memory_order_release);
    }
  }
  return r == SelfTest::passed;
}

template <Family F>
SelfTest self_test_result(const BackendOf<F>& row) noexcept {
  return slot<F>(row).load(std::memory_order_acquire);
}

template bool self_test_passes<Family::sha256>(const Sha256Backend&);
template bool self_test_passes<Family::sha512>(const Sha512Backend&);
template bool self_test_passes<Family::keccak>(const KeccakBackend&);
template SelfTest self_test_result<Family::sha256>(const Sha256Backend&) noexcept;
template SelfTest self_test_result<Family::sha512>(const Sha512Backend&) noexcept;
template SelfTest self_test_result<Family::keccak>(const KeccakBackend&) noexcept;

}  // namespace shakedown::internal
