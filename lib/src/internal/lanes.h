// The framing of hash_many(): N messages through a row's L-lane function, each lane refilled as its message ends.
//
// Every message becomes a stream of whole blocks in three runs (docs/design.md "Many messages"):
//   head    one block copied into the lane: the bytes a prefix context had buffered and the message's first
//           bytes (only when the prefix left a partial block and the message completes it);
//   memory  the message's whole blocks, read where the caller keeps them;
//   tail    1 or 2 blocks copied into the lane: the last bytes and the padding (FIPS 180-4 §5.1: 0x80, zeros,
//           the bit length; FIPS 202 §5.1 and B.2: the domain byte and pad10*1),
// and, for SHAKE, one permutation per further rate block of output (a zero block absorbed: XOR of zeros is the
// identity). A lane whose run ends moves to its next run; a lane whose stream ends writes its output and takes
// the next message. Each call advances every lane by the shortest run left among the busy ones. An idle lane
// (no message left for it) gets its own slot's state as scratch and a busy lane's data, so the multi-lane
// function never sees a short lane. When fewer than the row's min_busy lanes are busy (the last, longest
// messages), their streams finish through a single-message row instead (the same row when it was named).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "internal/bytes.h"
#include "internal/framing.h"
#include "shakedown/backend.h"
#include "shakedown/hash.h"

namespace shakedown::internal {

// One message's input and output.
struct ManyJob {
  const std::uint8_t* data;
  std::size_t len;
  std::uint8_t* out;
  std::size_t outlen;
};

// A lane's current message: its state and where its stream stands.
template <Family F>
struct Lane {
  using Word = typename FamilyTraits<F>::Word;
  // The largest block: the SHA-2 block, or the largest Keccak rate (SHAKE128, FIPS 202 §6.2).
  static constexpr std::size_t kBlock = F == Family::keccak ? kMaxBlockSize : FamilyTraits<F>::kBlockBytes;
  enum Stage : std::uint8_t { head, memory, tail, squeeze, done };

  Word st[FamilyTraits<F>::kStateWords];
  const std::uint8_t* at;  // the current run
  std::size_t left;        // its blocks
  Stage stage;             // the run in progress
  bool busy;
  const std::uint8_t* mem;
  std::size_t mem_blocks;
  std::size_t tail_blocks;
  std::uint8_t* out;
  std::size_t outlen;
  std::size_t produced;  // SHAKE output written so far
  alignas(8) std::uint8_t buf[3 * kBlock];  // the head block at 0, the tail blocks after it
};

// Where every lane starts: the algorithm's empty message or a prefix context's state, as the family's state.
template <Family F>
struct ManyStart {
  detail::StateOf<F> state;
  std::size_t block;  // block size or rate
};

inline constexpr std::uint8_t kZeroBlock[kMaxBlockSize] = {};

// ---- The family-specific parts: a message's runs, and its output ----

template <Family F>
void lane_begin(Lane<F>& l, const ManyStart<F>& start, const ManyJob& job) noexcept {
  const std::size_t B = start.block;
  const auto& s = start.state;
  const std::uint8_t* p = job.data;
  std::size_t len = job.len;
  l.busy = true;
  l.out = job.out;
  l.outlen = job.outlen;
  l.produced = 0;
  // The bytes the prefix left in its partial block, which the message continues: a SHA-2 context buffers them (less
  // than a block: hash_many() hashed the whole ones, md_flush_whole_blocks); a sponge has XORed them into its
  // lanes already, so its message continues at byte pos of a block of zeros.
  std::size_t carry;
  const std::uint8_t* carried;
  if constexpr (F == Family::keccak) {
    std::memcpy(l.st, s.lanes, sizeof l.st);
    carry = s.pos;
    carried = kZeroBlock;
  } else {
    std::memcpy(l.st, s.h, sizeof l.st);
    carry = s.buflen;
    carried = s.buf;
  }
  bool has_head = false;
  if (carry > 0 && carry + len >= B) {
    std::memcpy(l.buf, carried, carry);
    std::memcpy(l.buf + carry, p, B - carry);
    p += B - carry;
    len -= B - carry;
    carry = 0;
    has_head = true;
  }
  l.mem = p;
  l.mem_blocks = len / B;
  p += l.mem_blocks * B;
  len %= B;
  std::uint8_t* tail = l.buf + B;
  std::memcpy(tail, carried, carry);
  if (len) std::memcpy(tail + carry, p, len);  // an empty message's data may be null
  std::size_t r = carry + len;  // < B
  if constexpr (F == Family::keccak) {
    std::memset(tail + r, 0, B - r);
    tail[r] ^= s.domain;  // FIPS 202 §B.2: the suffix bits and the first pad bit in one byte
    tail[B - 1] ^= 0x80;  // the last pad bit (the same byte when r = B - 1)
    l.tail_blocks = 1;
  } else {
    using T = MdTraits<detail::StateOf<F>>;
    tail[r++] = 0x80;
    l.tail_blocks = r > B - T::kLengthBytes ? 2 : 1;
    std::uint8_t* end = tail + l.tail_blocks * B;
    std::memset(tail + r, 0, static_cast<std::size_t>(end - (tail + r)));
    // The message length in bits over the 64- or 128-bit field (the caller checked the limit).
    const std::uint64_t lo = s.bytes_lo + job.len;
    const std::uint64_t hi = s.bytes_hi + (lo < s.bytes_lo);
    if constexpr (T::kLengthBytes == 16) store_be64(end - 16, (hi << 3) | (lo >> 61));
    store_be64(end - 8, lo << 3);
  }
  // The first run: the head block, else the memory blocks (possibly none: lane_next moves on to the tail).
  l.stage = has_head ? Lane<F>::head : Lane<F>::memory;
  l.at = has_head ? l.buf : l.mem;
  l.left = has_head ? 1 : l.mem_blocks;
}

// Writes what the state gives after the tail (SHA-2 digest, or the first rate block of SHAKE output); for SHAKE
// arranges the next squeeze run if more output is due. False when the lane's message is complete.
template <Family F>
bool lane_output(Lane<F>& l, std::size_t block) noexcept {
  if constexpr (F == Family::keccak) {
    const std::size_t take = std::min(block, l.outlen - l.produced);
    if (take) keccak_extract_bytes(l.st, 0, l.out + l.produced, take);  // an empty output may be null
    l.produced += take;
    if (l.produced == l.outlen) return false;
    l.stage = Lane<F>::squeeze;
    l.at = kZeroBlock;
    l.left = 1;
    return true;
  } else {
    using T = MdTraits<detail::StateOf<F>>;
    std::uint8_t full[8 * sizeof(typename T::Word)];
    for (int i = 0; i < 8; ++i) T::store(full + i * sizeof(typename T::Word), l.st[i]);
    std::memcpy(l.out, full, l.outlen);
    secure_zero(full, sizeof full);
    return false;
  }
}

// The lane's current run is used up: moves to the next non-empty one, or writes the output and frees the lane.
template <Family F>
void lane_next(Lane<F>& l, std::size_t block) noexcept {
  while (l.left == 0) {
    switch (l.stage) {
      case Lane<F>::head:
        l.stage = Lane<F>::memory;
        l.at = l.mem;
        l.left = l.mem_blocks;
        break;
      case Lane<F>::memory:
        l.stage = Lane<F>::tail;
        l.at = l.buf + block;
        l.left = l.tail_blocks;
        break;
      case Lane<F>::tail:
      case Lane<F>::squeeze:
        if (!lane_output(l, block)) {
          l.stage = Lane<F>::done;
          l.busy = false;
          return;
        }
        break;
      case Lane<F>::done:
        return;
    }
  }
}

// The rest of a lane's stream through the row's single-stream functions.
template <Family F>
void lane_finish_single(Lane<F>& l, const BackendOf<F>& be, std::size_t block) noexcept {
  lane_next(l, block);
  while (l.busy) {
    if constexpr (F == Family::keccak) {
      if (l.stage == Lane<F>::squeeze) {
        be.permute(l.st);  // absorbing the zero block is the permutation alone
      } else if (be.absorb) {
        be.absorb(l.st, l.at, l.left, block);
      } else {
        for (std::size_t i = 0; i < l.left; ++i) {
          keccak_xor_bytes(l.st, 0, l.at + i * block, block);
          be.permute(l.st);
        }
      }
    } else {
      be.blocks(l.st, l.at, l.left);
    }
    l.left = 0;
    lane_next(l, block);
  }
}

template <Family F>
void call_multi(const BackendOf<F>& be, typename FamilyTraits<F>::Word* const* states,
                const std::uint8_t* const* data, std::size_t nblocks, std::size_t block) noexcept {
  if constexpr (F == Family::keccak) be.multi.fn(states, data, nblocks, block);
  else be.multi.fn(states, data, nblocks);
}

// All jobs through the row's multi-lane function (be.multi.lanes >= 2), the stragglers through `single`. Leaves
// nothing of the messages behind except in the outputs: every lane slot is zeroized.
template <Family F>
void run_lanes(const BackendOf<F>& be, const BackendOf<F>& single, const ManyStart<F>& start, std::size_t count,
               auto&& job_at) noexcept {
  using Word = typename FamilyTraits<F>::Word;
  constexpr std::size_t kMax = FamilyTraits<F>::kMaxLanes;
  const std::size_t L = be.multi.lanes, block = start.block;
  std::array<Lane<F>, kMax> lanes;
  for (std::size_t i = 0; i < L; ++i) lanes[i].busy = false;
  // Slot i takes message i first (each message keeps its slot for at least its padding block), so only the slots
  // past the count never hold a state; the lane function still reads theirs as scratch, which must not be
  // indeterminate.
  for (std::size_t i = count; i < L; ++i) std::memset(lanes[i].st, 0, sizeof lanes[i].st);
  Word* states[kMax];
  const std::uint8_t* data[kMax];
  std::size_t next = 0;
  for (;;) {
    std::size_t busy = 0, first = 0;
    for (std::size_t i = 0; i < L; ++i) {
      Lane<F>& l = lanes[i];
      while (!l.busy && next < count) {
        lane_begin(l, start, job_at(next++));
        lane_next(l, block);  // an empty memory run moves straight on to the tail
      }
      if (l.busy && busy++ == 0) first = i;
    }
    if (busy == 0) break;
    if (busy < be.multi.min_busy) {  // the queue is empty: the stragglers go one at a time
      for (std::size_t i = 0; i < L; ++i)
        if (lanes[i].busy) lane_finish_single(lanes[i], single, block);
      break;
    }
    std::size_t n = SIZE_MAX;
    for (std::size_t i = 0; i < L; ++i)
      if (lanes[i].busy) n = std::min(n, lanes[i].left);
    for (std::size_t i = 0; i < L; ++i) {
      states[i] = lanes[i].st;  // an idle slot's state is its scratch
      data[i] = lanes[lanes[i].busy ? i : first].at;
    }
    call_multi<F>(be, states, data, n, block);
    for (std::size_t i = 0; i < L; ++i) {
      Lane<F>& l = lanes[i];
      if (!l.busy) continue;
      l.at += n * block;
      l.left -= n;
      lane_next(l, block);
    }
  }
  secure_zero(lanes.data(), L * sizeof(Lane<F>));
}

}  // namespace shakedown::internal
