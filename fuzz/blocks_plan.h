// fuzz_blocks's plan: one block-function call sequence from an arbitrary starting state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

struct BlocksPlan {
  enum class KeccakOp { permute, absorb };
  Family family = Family::sha256;
  KeccakOp keccak_op = KeccakOp::permute;
  std::size_t rate = 136;                 // keccak absorb: one of the FIPS 202 rates (§6.1, §6.2)
  std::size_t permutations = 1;           // keccak permute: calls in a row (1..4)
  std::vector<std::uint8_t> state;        // starting state bytes in native word order (32, 64 or 200)
  std::size_t data_align = 0;             // offset of the data in its buffer (0..63)
  std::size_t split = 0;                  // units [0, split) on one backend, the rest on another
  std::size_t handoff_step = 1;           // second backend = available[(own + step mod (n-1) + 1) % n]
  std::vector<std::uint8_t> data;         // whole blocks only

  std::size_t block_bytes() const;        // 64, 128 or the rate
  std::size_t nblocks() const { return data.size() / block_bytes(); }
  // What the split counts: permutations for keccak permute, blocks otherwise.
  std::size_t units() const {
    return family == Family::keccak && keccak_op == KeccakOp::permute ? permutations : nblocks();
  }
};

// Byte 0: family (mod 3), keccak op (bit 2), rate index (bits 3-5), permutation count (bits 6-7);
// bytes 1-3: data alignment, split, handoff step; then the state; the rest is data, cut to
// whole blocks. Returns nullopt (reason in *why) only for inputs shorter than the 4-byte header.
std::optional<BlocksPlan> decode_blocks_plan(std::span<const std::uint8_t> input, std::string* why = nullptr);

std::string describe(const BlocksPlan& plan);

}  // namespace shakedown::fuzz
