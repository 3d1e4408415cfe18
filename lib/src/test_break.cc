// Test-only fault injection: wraps one backend so that it is subtly wrong, as a real SIMD bug would be.
//
// Compiled only into test-only builds where CMake sets SHAKEDOWN_TEST_BREAK="family/name" (tables.cc calls it). The fault
// is deliberately narrow so that only thorough suites find it:
//   sha256/sha512 blocks  - calls with nblocks >= 2 whose last block starts with a byte whose low
//                           nibble is 5 get bit 0 of H7 flipped (single-block calls stay right);
//   keccak absorb         - the same condition on multi-block absorbs flips bit 0 of lane 0;
//   keccak permute        - a state whose lane 0 low byte is 0x5a gets bit 63 of lane 24 flipped;
//   multi-lane entry      - lane 1 (never the first) under the blocks/absorb condition on its own data: bit 0 of
//                           H7 (SHA-2) or of lane 0 (Keccak) flipped.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "internal/test_break.h"

namespace shakedown::internal::test_break {
namespace {

constexpr std::string_view kVictim = SHAKEDOWN_TEST_BREAK;

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

template <class Word>
void (*g_sha2_multi_real)(Word* const[], const std::uint8_t* const[], std::size_t);
template <class Word>
void sha2_multi_broken(Word* const h[], const std::uint8_t* const data[], std::size_t nblocks) {
  g_sha2_multi_real<Word>(h, data, nblocks);
  if (trigger(data[1], nblocks, 16 * sizeof(Word))) h[1][7] ^= 1;
}

KeccakMultiFn g_keccak_multi_real;
void keccak_multi_broken(std::uint64_t* const st[], const std::uint8_t* const data[], std::size_t nblocks,
                         std::size_t rate) {
  g_keccak_multi_real(st, data, nblocks, rate);
  if (trigger(data[1], nblocks, rate)) st[1][0] ^= 1;
}

// Patches the victim row of the family in place, if it names one; a victim that names no compiled row of the
// family it addresses would make a "caught the bug" claim vacuous.
template <class B, class Patch>
void patch_victim(std::span<B> rows, std::string_view family, Patch patch) {
  if (!(kVictim.starts_with(family) && kVictim.size() > family.size() && kVictim[family.size()] == '/')) return;
  for (B& row : rows)
    if (is_victim(family, row.info.name)) return patch(row);
  std::fprintf(stderr, "shakedown: SHAKEDOWN_TEST_BREAK='%.*s' names no compiled backend\n",
               static_cast<int>(kVictim.size()), kVictim.data());
  std::abort();
}

}  // namespace

template <>
void patch<Family::sha256>(std::span<Sha256Backend> rows) {
  patch_victim(rows, "sha256", [](Sha256Backend& b) {
    g_sha256_real = b.blocks;
    b.blocks = sha256_broken;
    if (b.multi.fn) {
      g_sha2_multi_real<std::uint32_t> = b.multi.fn;
      b.multi.fn = sha2_multi_broken<std::uint32_t>;
    }
  });
}

template <>
void patch<Family::sha512>(std::span<Sha512Backend> rows) {
  patch_victim(rows, "sha512", [](Sha512Backend& b) {
    g_sha512_real = b.blocks;
    b.blocks = sha512_broken;
    if (b.multi.fn) {
      g_sha2_multi_real<std::uint64_t> = b.multi.fn;
      b.multi.fn = sha2_multi_broken<std::uint64_t>;
    }
  });
}

template <>
void patch<Family::keccak>(std::span<KeccakBackend> rows) {
  patch_victim(rows, "keccak", [](KeccakBackend& b) {
    g_permute_real = b.permute;
    b.permute = permute_broken;
    if (b.absorb) {
      g_absorb_real = b.absorb;
      b.absorb = absorb_broken;
    }
    if (b.multi.fn) {
      g_keccak_multi_real = b.multi.fn;
      b.multi.fn = keccak_multi_broken;
    }
  });
}

}  // namespace shakedown::internal::test_break
