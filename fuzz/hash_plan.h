// fuzz_hash's plan: how one message is fed to a hashing context (chunks, alignment, clone, handoff, squeezes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

struct HashPlan {
  Algorithm alg = Algorithm::sha256;
  bool hmac = false;                  // HMAC over alg (never for SHAKE)
  std::vector<std::uint8_t> key;      // HMAC key, 0..300 bytes (crosses every block size: FIPS 198-1 §4 step 2)
  std::size_t tag_len = 0;            // HMAC output length (1..digest size; truncation per FIPS 198-1 §5)
  std::size_t data_align = 0;         // offset of the message in its buffer (0..63)
  std::size_t out_align = 0;          // offset of the output in its buffer (0..63)
  std::vector<std::size_t> chunks;    // update() sizes, summing to message.size(); zero-length allowed
  std::optional<std::size_t> clone_before;    // copy the context before this chunk; both copies continue
  std::optional<std::size_t> handoff_before;  // rebind to another backend before this chunk
  std::size_t handoff_step = 1;       // target = available[(own index + step) % count]
  std::vector<std::size_t> squeezes;  // SHAKE: squeeze() sizes, zero-length allowed
  std::optional<std::size_t> final_len;  // SHAKE: a final(len) after the squeezes
  std::vector<std::uint8_t> message;

  // Total output bytes the plan produces (what the reference must compute).
  std::size_t output_size() const;
};

// Input layout (README.md "Plan format"): byte 0 = algorithm (low nibble) and flags (high nibble),
// bytes 1-2 = alignments, optional clone/handoff/key/tag bytes, chunk count and size classes,
// SHAKE squeeze count and size classes, and the message is the rest. Returns nullopt (with the
// reason in *why) only for inputs shorter than the 3-byte header.
std::optional<HashPlan> decode_hash_plan(std::span<const std::uint8_t> input, std::string* why = nullptr);

std::string describe(const HashPlan& plan);

// One byte -> a length biased towards the sizes that break framing code (README.md "Plan format"): 0,
// block-boundary neighbours, exact multi-block runs, small and medium sizes. Also fuzz_many's.
std::size_t size_class(std::uint8_t b, std::size_t block);

// "[3, 0, 64]" for plan descriptions.
std::string list(const std::vector<std::size_t>& values);

}  // namespace shakedown::fuzz
