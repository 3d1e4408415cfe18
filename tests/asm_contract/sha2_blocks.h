// The block-function fixture shared by the SHA-2 wrappers' contract tests (PadLock, Zvk): message, state, expectation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sha_reference.h"

namespace shakedown::asm_contract {

// nblocks blocks of a message, a starting state, and the state FIPS 180-4 §6.2.2 / §6.4.2 gives after them as
// computed by the emulator's own compression functions (emul/src/sha_reference.h, not the library's). The caller's
// data pointer and block count travel through volatile fields, before and after the statement.
template <class Word>
struct Sha2Blocks {
  static constexpr std::size_t kBlockBytes = 16 * sizeof(Word);
  static constexpr std::size_t kMaxBlocks = 5;
  alignas(16) std::uint8_t message[kMaxBlocks * kBlockBytes];
  Word h[8];
  Word want[8];
  const std::uint8_t* volatile data;
  volatile std::size_t nblocks;
  const std::uint8_t* volatile data_after;
  volatile std::size_t nblocks_after;

  void prepare(std::size_t blocks, std::uint64_t seed) {
    for (std::size_t i = 0; i < sizeof message; ++i) message[i] = static_cast<std::uint8_t>(i * seed + blocks);
    for (int i = 0; i < 8; ++i) h[i] = want[i] = static_cast<Word>(0x0123456789abcdefu * (i + seed) + blocks);
    for (std::size_t b = 0; b < blocks; ++b) compress(want, message + b * kBlockBytes);
    data = message;
    nblocks = blocks;
  }

 private:
  static void compress(std::uint32_t state[8], const std::uint8_t* block) {
    emul::detail::sha256_compress(state, block);
  }
  static void compress(std::uint64_t state[8], const std::uint8_t* block) {
    emul::detail::sha512_compress(state, block);
  }
};

}  // namespace shakedown::asm_contract
