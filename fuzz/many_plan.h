// fuzz_many's plan: N messages of unequal lengths for one hash_many() call, optionally after a prefix context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

struct ManyPlan {
  Algorithm alg = Algorithm::sha256;
  bool prefix = false;                     // a context fed `prefix_chunks` first; each output hashes prefix || msg
  std::vector<std::size_t> prefix_chunks;  // its update() sizes (zero-length allowed)
  std::size_t out_align = 0;               // offset of every output in its buffer (0..63)
  std::vector<std::size_t> lengths;        // the messages' lengths
  std::vector<std::size_t> outlens;        // their output lengths (SHAKE: any; otherwise the digest size)
  std::vector<std::uint8_t> pool;          // the bytes the prefix and the messages are cut from, in order, cyclically

  // The prefix's bytes, then message i's, as the plan defines them.
  std::vector<std::uint8_t> prefix_bytes() const;
  std::vector<std::uint8_t> message(std::size_t i) const;
  // Every message(i) in order, cut in one pass.
  std::vector<std::vector<std::uint8_t>> messages() const;
};

// Input layout (README.md "Plan format"). Returns nullopt (with the reason in *why) only for inputs shorter than
// the 3-byte header.
std::optional<ManyPlan> decode_many_plan(std::span<const std::uint8_t> input, std::string* why = nullptr);

std::string describe(const ManyPlan& plan);

}  // namespace shakedown::fuzz
