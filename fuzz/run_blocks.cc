// fuzz_blocks executor: each backend's block function (whole, and split across two backends) vs generic.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "run_context.h"
#include "runners.h"
#include "shakedown/backend.h"

namespace shakedown::fuzz {
namespace {

// Room for the largest state (25 Keccak lanes), aligned for any vector load a backend may use.
struct alignas(64) StateBuf {
  std::uint8_t bytes[200];
};

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

// Keccak absorb for a backend without the optional absorb hook: XOR each block into the lanes in
// FIPS 202 §B.1 byte order (lane i = bytes 8i..8i+7, least significant first) and permute.
void absorb_with_permute(const KeccakBackend& be, std::uint64_t st[25], const std::uint8_t* data, std::size_t nblocks,
                         std::size_t rate) {
  for (std::size_t b = 0; b < nblocks; ++b, data += rate) {
    for (std::size_t i = 0; i < rate / 8; ++i) st[i] ^= load_le64(data + 8 * i);
    be.permute(st);
  }
}

// Applies units [first, first+count) of the plan with one backend to the state bytes.
void apply(const BlocksPlan& p, const std::string& backend, StateBuf& state, const std::uint8_t* data,
           std::size_t first, std::size_t count) {
  // Keccak permute plans carry no data (the pointer may be null then; no arithmetic on it).
  const std::uint8_t* at = p.data.empty() ? data : data + first * p.block_bytes();
  switch (p.family) {
    case Family::sha256: {
      alignas(64) std::uint32_t h[8];
      std::memcpy(h, state.bytes, sizeof h);
      shakedown::backend<Family::sha256>(backend).blocks(h, at, count);
      std::memcpy(state.bytes, h, sizeof h);
      return;
    }
    case Family::sha512: {
      alignas(64) std::uint64_t h[8];
      std::memcpy(h, state.bytes, sizeof h);
      shakedown::backend<Family::sha512>(backend).blocks(h, at, count);
      std::memcpy(state.bytes, h, sizeof h);
      return;
    }
    case Family::keccak: {
      const KeccakBackend& be = shakedown::backend<Family::keccak>(backend);
      alignas(64) std::uint64_t st[25];
      std::memcpy(st, state.bytes, sizeof st);
      if (p.keccak_op == BlocksPlan::KeccakOp::permute) {
        for (std::size_t i = 0; i < count; ++i) be.permute(st);
      } else if (be.absorb) {
        be.absorb(st, at, count, p.rate);
      } else {
        absorb_with_permute(be, st, at, count, p.rate);
      }
      std::memcpy(state.bytes, st, sizeof st);
      return;
    }
  }
}

std::vector<std::uint8_t> run(const BlocksPlan& p, const std::uint8_t* data, const std::string& first_backend,
                              const std::string* second_backend) {
  StateBuf state{};
  std::memcpy(state.bytes, p.state.data(), p.state.size());
  if (second_backend) {
    apply(p, first_backend, state, data, 0, p.split);
    apply(p, *second_backend, state, data, p.split, p.units() - p.split);
  } else {
    apply(p, first_backend, state, data, 0, p.units());
  }
  return {state.bytes, state.bytes + p.state.size()};
}

}  // namespace

Verdict run_blocks_plan(const BlocksPlan& p) {
  Verdict v;
  v.subject = std::string(name(p.family)) +
              (p.family != Family::keccak                            ? " block function"
               : p.keccak_op == BlocksPlan::KeccakOp::permute ? " permutation"
                                                                     : " absorb");
  v.reference = "generic, one call";
  v.family = p.family;
  // Data at data_align in a buffer that ends with it: over-reads are caught by ASan.
  std::vector<std::uint8_t> buf(p.data_align + p.data.size());
  std::copy(p.data.begin(), p.data.end(), buf.begin() + static_cast<std::ptrdiff_t>(p.data_align));
  const std::uint8_t* data = buf.data() + p.data_align;

  const std::vector<std::uint8_t> want = run(p, data, "generic", nullptr);
  const auto& names = backends_of(p.family);
  for (std::size_t i = 0; i < names.size(); ++i) {
    count_run(p.family, i);
    // A single backend splits with itself: still two calls with a block-count boundary between them.
    const std::string& second =
        names.size() > 1 ? names[(i + 1 + p.handoff_step % (names.size() - 1)) % names.size()] : names[i];
    struct Variant {
      std::string label;
      const std::string* second;
    };
    for (const Variant& variant :
         {Variant{names[i], nullptr},
          Variant{names[i] + " then " + second + " at " + std::to_string(p.split), &second}}) {
      std::vector<std::uint8_t> got = run(p, data, names[i], variant.second);
      if (got == want) {
        v.agreeing.push_back(variant.label);
        continue;
      }
      // Who is wrong: each backend of a split run makes the same two calls alone (the plain run makes one
      // call, which a fault in one of the two may not show); when each alone is right, both are charged.
      std::vector<std::string> culprits{names[i]};
      if (variant.second && *variant.second != names[i]) {
        culprits.clear();
        for (const std::string* b : {&names[i], variant.second})
          if (run(p, data, *b, b) != want) culprits.push_back(*b);
        if (culprits.empty()) culprits = {names[i], *variant.second};
      }
      v.divergences.push_back({variant.label, "state differs from generic", std::move(got), want, culprits});
    }
  }
  return v;
}

}  // namespace shakedown::fuzz
