// Hashing API: one-shot functions and the incremental, copyable Hasher context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "shakedown/algorithm.h"
#include "shakedown/backend.h"
#include "shakedown/export.h"

namespace shakedown {

namespace detail {
// Blocks a SHA-2 context buffers before it calls the block function: small updates then reach it two blocks at a
// time, which the two-block message schedules of the x86-64 SHA-2 backends need to run at their long-message
// speed (bench/: the *-upd100 cases), and a padded tail of two blocks goes in one call.
inline constexpr std::size_t kMdBufferBlocks = 2;

// Merkle-Damgard state shared by the SHA-2 families (FIPS 180-4 §5, §6).
template <class Word, std::size_t Block>
struct MdState {
  Word h[8];
  std::uint64_t bytes_lo;  // message length in bytes, low 64 bits
  std::uint64_t bytes_hi;  // high bits (SHA-512 counts 2^128 bits; always 0 for SHA-256)
  std::uint8_t buf[kMdBufferBlocks * Block];
  std::uint32_t buflen;  // < kMdBufferBlocks * Block between calls
};
template <Family F>
using MdStateOf = MdState<typename FamilyTraits<F>::Word, FamilyTraits<F>::kBlockBytes>;
using Sha256State = MdStateOf<Family::sha256>;
using Sha512State = MdStateOf<Family::sha512>;

// Sponge state (FIPS 202 §4). pos is the byte offset within the current rate block:
// absorb position while absorbing, next unread output byte while squeezing.
struct KeccakState {
  std::uint64_t lanes[25];
  std::uint32_t rate;
  std::uint32_t pos;
  std::uint8_t domain;  // the padding byte: 0x06 SHA-3, 0x1F SHAKE (FIPS 202 §6.1, §6.2; B.2)
};

// The state type of each family.
template <Family F>
struct FamilyState;
template <>
struct FamilyState<Family::sha256> {
  using type = Sha256State;
};
template <>
struct FamilyState<Family::sha512> {
  using type = Sha512State;
};
template <>
struct FamilyState<Family::keccak> {
  using type = KeccakState;
};
template <Family F>
using StateOf = typename FamilyState<F>::type;
}  // namespace detail

// Incremental hashing. Copying a Hasher clones it mid-stream. The state is zeroized by
// final(), by the destructor, and in the source of a move (which is left finalized: reset() makes it
// usable again). Errors throw shakedown::Error and leave the context as it was.
class Hasher;
using Messages = std::span<const std::span<const std::uint8_t>>;
using Outputs = std::span<const std::span<std::uint8_t>>;
SHAKEDOWN_API void hash_many(const Hasher& prefix, Messages msgs, Outputs outs);

class Hasher {
 public:
  // Bound to the selected backend of the algorithm's family.
  explicit SHAKEDOWN_API Hasher(Algorithm alg);
  // Bound to a named backend ("generic", "x86_64/shani", ...); an empty or unknown name is
  // Errc::unknown_backend, an unavailable one Errc::backend_unavailable.
  SHAKEDOWN_API Hasher(Algorithm alg, std::string_view backend);
  SHAKEDOWN_API Hasher(const Hasher& other) noexcept;
  SHAKEDOWN_API Hasher& operator=(const Hasher& other) noexcept;
  SHAKEDOWN_API Hasher(Hasher&& other) noexcept;
  SHAKEDOWN_API Hasher& operator=(Hasher&& other) noexcept;
  SHAKEDOWN_API ~Hasher();

  Algorithm algorithm() const noexcept { return alg_; }
  SHAKEDOWN_API std::string_view backend_name() const noexcept;
  bool finalized() const noexcept { return phase_ == Phase::finalized; }

  // Any length, including 0 (then data may be null). Errc::finalized after final;
  // Errc::wrong_phase on an XOF that has started squeezing; Errc::null_pointer.
  SHAKEDOWN_API Hasher& update(const void* data, std::size_t len);
  Hasher& update(std::span<const std::uint8_t> data) { return update(data.data(), data.size()); }
  Hasher& update(std::string_view text) { return update(text.data(), text.size()); }

  // Fixed-length digests: out.size() must equal digest_size(alg) (Errc::bad_output_length).
  // SHAKE: any length, including 0; equivalent to one squeeze followed by finishing.
  // Afterwards the context is finalized and zeroized; reset() makes it usable again.
  SHAKEDOWN_API void final(std::span<std::uint8_t> out);
  SHAKEDOWN_API void final(void* out, std::size_t len);
  SHAKEDOWN_API std::vector<std::uint8_t> final();  // digest_size(alg) bytes

  // SHAKE only (Errc::not_xof otherwise): the next len bytes of output; any length including 0,
  // any number of times. The first call pads the input.
  SHAKEDOWN_API void squeeze(std::span<std::uint8_t> out);
  SHAKEDOWN_API void squeeze(void* out, std::size_t len);

  // Back to the empty message, same algorithm and backend.
  SHAKEDOWN_API void reset() noexcept;

 private:
  enum class Phase : std::uint8_t { absorbing, squeezing, finalized };
  friend struct HasherAccess;  // the test hooks of lib/testing/ (never installed: docs/abi.md)
  friend void hash_many(const Hasher& prefix, Messages msgs, Outputs outs);
  void init_state() noexcept;
  void wipe() noexcept;
  // Throws unless the context may absorb (for_update) or give output: the check inline, the throw not.
  void check_usable(bool for_update) const {
    if (phase_ != Phase::absorbing && (for_update || phase_ == Phase::finalized)) [[unlikely]]
      throw_unusable();
  }
  [[noreturn]] void throw_unusable() const;
  // fn(FamilyTraits<F>, state, backend row) with this context's family F: the one family dispatch (hash.cc).
  template <class Fn>
  decltype(auto) with_family(Fn&& fn);

  Algorithm alg_;
  Phase phase_;
  bool named_;     // bound by name (or rebound): hash_many(*this, ...) keeps to that backend
  Family family_;  // family_of(alg_), kept: every update() dispatches on it
  // The bound row, by the BackendInfo every row starts with (outside the union: survives zeroization).
  const BackendInfo* backend_;
  // Everything secret lives here and is zeroized as a whole.
  union {
    detail::Sha256State s256;
    detail::Sha512State s512;
    detail::KeccakState keccak;
  } u_;
};

// One-shot: out.size() must equal digest_size(alg) for fixed digests; any length for SHAKE.
// Uses the selected backend, or the named one.
SHAKEDOWN_API void hash(Algorithm alg, std::span<const std::uint8_t> data, std::span<std::uint8_t> out);
SHAKEDOWN_API void hash(Algorithm alg, const void* data, std::size_t len, void* out, std::size_t outlen);
SHAKEDOWN_API void hash(Algorithm alg, std::string_view backend, std::span<const std::uint8_t> data,
                        std::span<std::uint8_t> out);
// digest_size(alg) bytes, or outlen bytes for SHAKE when given.
SHAKEDOWN_API std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> data);
SHAKEDOWN_API std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen);

// ---- Many messages in one call (docs/design.md "Many messages") ----
//
// outs[i] receives the hash of msgs[i], as hash(alg, msgs[i], outs[i]) would write it, for any number of messages
// of any lengths; the backend hashes several at once where it has a multi-lane function (selected_many_backend).
// Each outs[i].size() must be digest_size(alg) for fixed digests; for SHAKE each output may have its own length.
// Errors, thrown before anything is written: msgs.size() != outs.size(), a wrong output size and an output that
// overlaps the arrays msgs or outs themselves (Errc::bad_output_length), a null span with a non-zero length
// (Errc::null_pointer), a message over the length limit (Errc::message_too_long), and the errors of hash().
// Nothing of the messages is left behind but the outputs. outs[i] may overlap msgs[i]. An output that overlaps
// another message or output leaves those results unspecified (each output is written as soon as its own message
// is hashed); nothing outside the output spans is written.
SHAKEDOWN_API void hash_many(Algorithm alg, Messages msgs, Outputs outs);
SHAKEDOWN_API void hash_many(Algorithm alg, std::string_view backend, Messages msgs, Outputs outs);
// Continues a context: outs[i] receives the hash of everything prefix absorbed followed by msgs[i] (a salt or
// key shared by many messages, hashed once). prefix is unchanged. It runs on prefix's backend if prefix was bound
// by name, else on selected_many_backend(). Errc::finalized / Errc::wrong_phase for a finalized or squeezing prefix.
SHAKEDOWN_API void hash_many(const Hasher& prefix, Messages msgs, Outputs outs);
// digest_size(alg) bytes per message, or outlen bytes each (SHAKE; a fixed digest accepts only its size).
// Outputs that cannot be allocated are Errc::bad_output_length, before anything is hashed.
SHAKEDOWN_API std::vector<std::vector<std::uint8_t>> hash_many(Algorithm alg, Messages msgs);
SHAKEDOWN_API std::vector<std::vector<std::uint8_t>> hash_many(Algorithm alg, Messages msgs, std::size_t outlen);

}  // namespace shakedown
