// Decoder and describe() for fuzz_blocks plans; shared by the fuzz targets and shakedown-repro.
#include "blocks_plan.h"

#include <array>

#include "byte_reader.h"
#include "verdict.h"

namespace shakedown::fuzz {
namespace {

constexpr std::size_t kHeaderBytes = 4;
// Rates of SHAKE128, SHA3-224, SHA3-256/SHAKE256, SHA3-384, SHA3-512 in bytes (FIPS 202 §6.1, §6.2).
constexpr std::array<std::size_t, 5> kRates = {168, 144, 136, 104, 72};

std::size_t state_bytes(Family f) {
  switch (f) {
    case Family::sha256: return 8 * 4;
    case Family::sha512: return 8 * 8;
    case Family::keccak: return 25 * 8;
  }
  return 0;
}

}  // namespace

std::size_t BlocksPlan::block_bytes() const {
  switch (family) {
    case Family::sha256: return 64;
    case Family::sha512: return 128;
    case Family::keccak: return rate;
  }
  return 64;
}

std::optional<BlocksPlan> decode_blocks_plan(std::span<const std::uint8_t> input, std::string* why) {
  if (input.size() < kHeaderBytes) {
    if (why) *why = "input has " + std::to_string(input.size()) + " bytes; a blocks plan needs at least a " +
                    std::to_string(kHeaderBytes) + "-byte header";
    return std::nullopt;
  }
  ByteReader in(input);
  BlocksPlan p;
  const std::uint8_t head = in.u8();
  p.family = kAllFamilies[head % kAllFamilies.size()];
  p.keccak_op = (head & 0x04) ? BlocksPlan::KeccakOp::absorb : BlocksPlan::KeccakOp::permute;
  p.rate = kRates[((head >> 3) & 7) % kRates.size()];
  p.permutations = 1 + (head >> 6);
  p.data_align = in.u8() & 63u;
  const std::uint8_t split_raw = in.u8();
  p.handoff_step = 1 + in.u8();
  p.state = in.bytes(state_bytes(p.family));
  p.state.resize(state_bytes(p.family), 0);  // short inputs: the rest of the state is zero
  p.data = in.rest();
  if (p.family == Family::keccak && p.keccak_op == BlocksPlan::KeccakOp::permute) p.data.clear();
  p.data.resize(p.nblocks() * p.block_bytes());
  p.split = split_raw % (p.units() + 1);
  return p;
}

std::string describe(const BlocksPlan& p) {
  std::string s = "  function:   " + std::string(name(p.family));
  if (p.family != Family::keccak)
    s += " blocks(), " + std::to_string(p.nblocks()) + " block(s) of " + std::to_string(p.block_bytes()) + " bytes\n";
  else if (p.keccak_op == BlocksPlan::KeccakOp::permute)
    s += " permute() x" + std::to_string(p.permutations) + "\n";
  else
    s += " absorb(), rate " + std::to_string(p.rate) + ", " + std::to_string(p.nblocks()) + " block(s)\n";
  s += "  state:      " + to_hex(p.state, 64) + "\n";
  s += "  data:       at buffer offset " + std::to_string(p.data_align) + "\n";
  s += "  handoff:    " + std::string(p.family == Family::keccak && p.keccak_op == BlocksPlan::KeccakOp::permute
                                        ? "permutations"
                                        : "blocks") +
       " [0," + std::to_string(p.split) + ") on the backend, the rest on the one " +
       std::to_string(p.handoff_step) + " mod (count-1) + 1 places after it\n";
  return s;
}

}  // namespace shakedown::fuzz
