// Decoder and describe() for fuzz_hash plans; shared by the fuzz targets and shakedown-repro.
#include "hash_plan.h"

#include <algorithm>
#include <numeric>

#include "byte_reader.h"

namespace shakedown::fuzz {
namespace {

constexpr std::size_t kHeaderBytes = 3;
constexpr std::size_t kMaxChunks = 16;
constexpr std::size_t kMaxSqueezes = 8;
constexpr std::size_t kMaxKey = 300;         // > 2 x the largest block (168): hashed-key path and all pads
constexpr std::size_t kMaxXofOutput = 2048;  // > 12 SHAKE128 blocks, yet one execution stays cheap

// Flags in the high nibble of byte 0.
constexpr std::uint8_t kFlagHmac = 0x10;
constexpr std::uint8_t kFlagClone = 0x20;
constexpr std::uint8_t kFlagHandoff = 0x40;
constexpr std::uint8_t kFlagFinalOrTruncate = 0x80;  // SHAKE: final(len) after squeezes; HMAC: truncated tag

}  // namespace

std::size_t size_class(std::uint8_t b, std::size_t block) {
  const std::size_t low = b & 31u;
  switch (b >> 5) {
    case 0: return 0;
    case 1: return low;
    case 2: return block + low % 8 - 4;
    case 3: return 2 * block + low % 8 - 4;
    case 4: return 8 * low;
    case 5: return block * (1 + low % 8);
    case 6: return 1 + low;
    default: return 32 * low;
  }
}

std::string list(const std::vector<std::size_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::size_t HashPlan::output_size() const {
  if (hmac) return tag_len;
  if (!is_xof(alg)) return digest_size(alg);
  return std::accumulate(squeezes.begin(), squeezes.end(), std::size_t{0}) + final_len.value_or(0);
}

std::optional<HashPlan> decode_hash_plan(std::span<const std::uint8_t> input, std::string* why) {
  if (input.size() < kHeaderBytes) {
    if (why) *why = "input has " + std::to_string(input.size()) + " bytes; a hash plan needs at least a " +
                    std::to_string(kHeaderBytes) + "-byte header";
    return std::nullopt;
  }
  ByteReader in(input);
  HashPlan p;
  const std::uint8_t head = in.u8();
  p.alg = kAllAlgorithms[(head & 0x0f) % kAllAlgorithms.size()];
  const bool xof = is_xof(p.alg);
  p.hmac = (head & kFlagHmac) && !xof;
  p.data_align = in.u8() & 63u;
  p.out_align = in.u8() & 63u;
  const std::uint8_t clone_raw = (head & kFlagClone) ? in.u8() : 0;
  std::uint8_t handoff_raw = 0;
  if (head & kFlagHandoff) {
    handoff_raw = in.u8();
    p.handoff_step = 1 + in.u8();
  }
  if (p.hmac) {
    p.key = in.bytes(in.u16() % (kMaxKey + 1));
    const std::size_t full = digest_size(p.alg);
    p.tag_len = (head & kFlagFinalOrTruncate) ? 1 + in.u8() % full : full;
  }
  const std::size_t block = block_size(p.alg);
  std::vector<std::size_t> requested(in.u8() % (kMaxChunks + 1));
  for (auto& c : requested) c = size_class(in.u8(), block);
  if (xof) {
    std::size_t total = 0;
    p.squeezes.resize(in.u8() % (kMaxSqueezes + 1));
    for (auto& s : p.squeezes) {
      s = std::min(size_class(in.u8(), block), kMaxXofOutput - total);
      total += s;
    }
    if (head & kFlagFinalOrTruncate) p.final_len = std::min(size_class(in.u8(), block), kMaxXofOutput - total);
    if (p.squeezes.empty() && !p.final_len) p.final_len = digest_size(p.alg);  // always some output to compare
  }
  p.message = in.rest();
  // Chunks are clamped to the message actually present; whatever is left is one last update.
  std::size_t left = p.message.size();
  for (std::size_t c : requested) {
    p.chunks.push_back(std::min(c, left));
    left -= p.chunks.back();
  }
  if (left) p.chunks.push_back(left);
  if (head & kFlagClone) p.clone_before = clone_raw % (p.chunks.size() + 1);
  if (head & kFlagHandoff) p.handoff_before = handoff_raw % (p.chunks.size() + 1);
  return p;
}

std::string describe(const HashPlan& p) {
  std::string s;
  s += "  algorithm:  " + std::string(p.hmac ? "HMAC-" : "") + std::string(name(p.alg)) + "\n";
  if (p.hmac) {
    s += "  key:        " + std::to_string(p.key.size()) + " bytes\n";
    s += "  tag length: " + std::to_string(p.tag_len) + " of " + std::to_string(digest_size(p.alg)) + "\n";
  }
  s += "  message:    " + std::to_string(p.message.size()) + " bytes at buffer offset " +
       std::to_string(p.data_align) + "; output at offset " + std::to_string(p.out_align) + "\n";
  s += "  updates:    " + list(p.chunks) + "\n";
  if (p.clone_before) s += "  clone:      before update #" + std::to_string(*p.clone_before) + " (both continue)\n";
  if (p.handoff_before)
    s += "  handoff:    before update #" + std::to_string(*p.handoff_before) + " to the backend " +
         std::to_string(p.handoff_step) + " mod (count-1) + 1 places after the starting one (HMAC: none)\n";
  if (is_xof(p.alg)) {
    s += "  squeezes:   " + list(p.squeezes) + "\n";
    if (p.final_len) s += "  final:      " + std::to_string(*p.final_len) + " bytes\n";
  }
  s += "  output:     " + std::to_string(p.output_size()) + " bytes\n";
  return s;
}

}  // namespace shakedown::fuzz
