// Test-only fault injection: wraps one backend so that it is subtly wrong, as a real SIMD bug would be.
//
// Built into every library, inert unless CMake sets SHAKEDOWN_TEST_BREAK="family/name". The fault
// is deliberately narrow so that only thorough suites find it:
//   sha256/sha512 blocks  - calls with nblocks >= 2 whose last block starts with a byte whose low
//                           nibble is 5 get bit 0 of H7 flipped (single-block calls stay right);
//   keccak absorb         - the same condition on multi-block absorbs flips bit 0 of lane 0;
//   keccak permute        - a state whose lane 0 low byte is 0x5a gets bit 63 of lane 24 flipped.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "internal/arch.h"
#include "internal/test_break.h"

namespace shakedown::internal {
namespace {

#ifdef SHAKEDOWN_TEST_BREAK
constexpr std::string_view kVictim = SHAKEDOWN_TEST_BREAK;
#else
constexpr std::string_view kVictim = "";
#endif

bool is_victim(std::string_view family, std::string_view name) {
  return kVictim.size() == family.size() + 1 + name.size() && kVictim.starts_with(family) &&
         kVictim[family.size()] == '/' && kVictim.ends_with(name);
}

bool trigger(const std::uint8_t* data, std::size_t nblocks, std::size_t block) {
  return nblocks >= 2 && (data[(nblocks - 1) * block] & 0x0f) == 0x05;
}

Sha256BlocksFn g_sha256_real;
void sha256_broken(std::uint32_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  g_sha256_real(h, data, nblocks);
  if (trigger(data, nblocks, 64)) h[7] ^= 1;
}

Sha512BlocksFn g_sha512_real;
void sha512_broken(std::uint64_t h[8], const std::uint8_t* data, std::size_t nblocks) {
  g_sha512_real(h, data, nblocks);
  if (trigger(data, nblocks, 128)) h[7] ^= 1;
}

KeccakPermuteFn g_permute_real;
void permute_broken(std::uint64_t st[25]) {
  if ((st[0] & 0xff) == 0x5a) st[24] ^= 1ull << 63;
  g_permute_real(st);
}

KeccakAbsorbFn g_absorb_real;
void absorb_broken(std::uint64_t st[25], const std::uint8_t* data, std::size_t nblocks, std::size_t rate) {
  g_absorb_real(st, data, nblocks, rate);
  if (trigger(data, nblocks, rate)) st[0] ^= 1;
}

// Copies a table (small, fixed upper bound) and patches the victim row.
template <class B, std::size_t N = 16>
struct Patched {
  std::array<B, N> rows{};
  std::size_t size = 0;
};

template <class B, class Patch>
std::span<const B> patched(std::span<const B> table, std::string_view family, Patch patch) {
  if (kVictim.empty()) return table;
  static Patched<B> p = [&] {
    Patched<B> out;
    bool hit = false;
    for (const B& b : table) {
      out.rows[out.size] = b;
      if (is_victim(family, b.info.name)) {
        patch(out.rows[out.size]);
        hit = true;
      }
      ++out.size;
    }
    // A victim that names no compiled backend would make a "caught the bug" claim vacuous.
    if (!hit && kVictim.starts_with(family) && kVictim.size() > family.size() && kVictim[family.size()] == '/') {
      std::fprintf(stderr, "shakedown: SHAKEDOWN_TEST_BREAK='%.*s' names no compiled backend\n",
                   static_cast<int>(kVictim.size()), kVictim.data());
      std::abort();
    }
    return out;
  }();
  return {p.rows.data(), p.size};
}

}  // namespace

std::span<const Sha256Backend> sha256_table() noexcept {
  return patched(arch_sha256_table(), "sha256", [](Sha256Backend& b) {
    g_sha256_real = b.blocks;
    b.blocks = sha256_broken;
  });
}

std::span<const Sha512Backend> sha512_table() noexcept {
  return patched(arch_sha512_table(), "sha512", [](Sha512Backend& b) {
    g_sha512_real = b.blocks;
    b.blocks = sha512_broken;
  });
}

std::span<const KeccakBackend> keccak_table() noexcept {
  return patched(arch_keccak_table(), "keccak", [](KeccakBackend& b) {
    g_permute_real = b.permute;
    b.permute = permute_broken;
    if (b.absorb) {
      g_absorb_real = b.absorb;
      b.absorb = absorb_broken;
    }
  });
}

}  // namespace shakedown::internal
