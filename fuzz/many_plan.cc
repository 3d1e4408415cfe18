// Decoder and describe() for fuzz_many plans; shared by the fuzz targets and shakedown-repro.
#include "many_plan.h"

#include <algorithm>
#include <numeric>

#include "byte_reader.h"
#include "hash_plan.h"

namespace shakedown::fuzz {
namespace {

constexpr std::size_t kHeaderBytes = 3;
constexpr std::size_t kMaxMessages = 40;  // past two rounds of the widest lanes (16) and their refills
constexpr std::size_t kMaxPrefixChunks = 8;
constexpr std::size_t kMaxXofOutput = 1024;  // > 6 SHAKE128 blocks of squeezing per lane
constexpr std::size_t kLongBlocks = 64;      // one message this many blocks longer: its lane ends alone

// Flags in the high nibble of byte 0.
constexpr std::uint8_t kFlagPrefix = 0x10;
constexpr std::uint8_t kFlagOutlenEach = 0x20;  // SHAKE: an output length per message (else one for all)
constexpr std::uint8_t kFlagLong = 0x40;        // one message kLongBlocks blocks longer than its size class

// Bytes [at, at + n) of the pool taken cyclically, each pass adding its number so that a long message does not
// repeat the pool (zeros from an empty pool). A run of the pool at a time (a copy in the first pass), not a
// division and a remainder per byte.
std::vector<std::uint8_t> cut(const std::vector<std::uint8_t>& pool, std::size_t at, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  if (pool.empty()) return out;
  std::size_t pass = at / pool.size(), from = at % pool.size(), done = 0;
  while (done < n) {
    const std::size_t run = std::min(n - done, pool.size() - from);
    const auto add = static_cast<std::uint8_t>(pass);
    if (add == 0) {
      std::copy_n(pool.begin() + static_cast<std::ptrdiff_t>(from), run,
                  out.begin() + static_cast<std::ptrdiff_t>(done));
    } else {
      for (std::size_t i = 0; i < run; ++i) out[done + i] = static_cast<std::uint8_t>(pool[from + i] + add);
    }
    done += run;
    from = 0;
    ++pass;
  }
  return out;
}

std::size_t prefix_length(const ManyPlan& p) {
  return std::accumulate(p.prefix_chunks.begin(), p.prefix_chunks.end(), std::size_t{0});
}

}  // namespace

std::vector<std::uint8_t> ManyPlan::prefix_bytes() const { return cut(pool, 0, prefix_length(*this)); }

std::vector<std::uint8_t> ManyPlan::message(std::size_t i) const {
  const std::size_t at =
      prefix_length(*this) +
      std::accumulate(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(i), std::size_t{0});
  return cut(pool, at, lengths[i]);
}

std::vector<std::vector<std::uint8_t>> ManyPlan::messages() const {
  std::vector<std::vector<std::uint8_t>> out;
  out.reserve(lengths.size());
  std::size_t at = prefix_length(*this);
  for (std::size_t n : lengths) {
    out.push_back(cut(pool, at, n));
    at += n;
  }
  return out;
}

std::optional<ManyPlan> decode_many_plan(std::span<const std::uint8_t> input, std::string* why) {
  if (input.size() < kHeaderBytes) {
    if (why)
      *why = "input has " + std::to_string(input.size()) + " bytes; a many plan needs at least a " +
             std::to_string(kHeaderBytes) + "-byte header";
    return std::nullopt;
  }
  ByteReader in(input);
  ManyPlan p;
  const std::uint8_t head = in.u8();
  p.alg = kAllAlgorithms[(head & 0x0f) % kAllAlgorithms.size()];
  const std::size_t block = block_size(p.alg);
  const std::size_t count = in.u8() % (kMaxMessages + 1);
  p.out_align = in.u8() & 63u;
  p.prefix = (head & kFlagPrefix) != 0;
  if (p.prefix) {
    p.prefix_chunks.resize(in.u8() % (kMaxPrefixChunks + 1));
    for (auto& c : p.prefix_chunks) c = size_class(in.u8(), block);
  }
  const std::size_t long_one = (head & kFlagLong) && count ? in.u8() % count : SIZE_MAX;
  for (std::size_t i = 0; i < count; ++i)
    p.lengths.push_back(size_class(in.u8(), block) + (i == long_one ? kLongBlocks * block : 0));
  if (is_xof(p.alg)) {
    const bool each = (head & kFlagOutlenEach) != 0;
    const std::size_t one = std::min(size_class(in.u8(), block), kMaxXofOutput);
    for (std::size_t i = 0; i < count; ++i)
      p.outlens.push_back(each ? std::min(size_class(in.u8(), block), kMaxXofOutput) : one);
  } else {
    p.outlens.assign(count, digest_size(p.alg));
  }
  p.pool = in.rest();
  return p;
}

std::string describe(const ManyPlan& p) {
  std::string s;
  s += "  algorithm:  " + std::string(name(p.alg)) + "\n";
  if (p.prefix) s += "  prefix:     a context fed updates " + list(p.prefix_chunks) + " before the call\n";
  s += "  messages:   " + std::to_string(p.lengths.size()) + ", lengths " + list(p.lengths) + "\n";
  if (is_xof(p.alg)) s += "  outputs:    " + list(p.outlens) + "\n";
  s += "  outputs at buffer offset " + std::to_string(p.out_align) + "; bytes cut cyclically from a pool of " +
       std::to_string(p.pool.size()) + "\n";
  return s;
}

}  // namespace shakedown::fuzz
