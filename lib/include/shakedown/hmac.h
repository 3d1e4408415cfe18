// HMAC (FIPS 198-1) over every SHA-2 and SHA-3 digest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "shakedown/export.h"
#include "shakedown/hash.h"

namespace shakedown {

// Copyable mid-stream. final() zeroizes the running inner/outer states; the keyed start
// states (needed by reset()) are zeroized on destruction. A moved-from Hmac is wiped whole (keyed
// states included) and stays finalized: every later update/final/verify throws Errc::finalized, and
// reset() cannot bring the key back.
class Hmac {
 public:
  // Errc::not_hmac_capable for SHAKE; Errc::null_pointer for a null key with non-zero length.
  SHAKEDOWN_API Hmac(Algorithm alg, std::span<const std::uint8_t> key);
  // Bound to a named backend, as Hasher(alg, backend): an empty name is Errc::unknown_backend (use the
  // constructor without a name for the selected backend).
  SHAKEDOWN_API Hmac(Algorithm alg, std::span<const std::uint8_t> key, std::string_view backend);
  SHAKEDOWN_API Hmac(Algorithm alg, const void* key, std::size_t keylen);
  SHAKEDOWN_API Hmac(const Hmac&) noexcept;
  SHAKEDOWN_API Hmac& operator=(const Hmac&) noexcept;
  SHAKEDOWN_API Hmac(Hmac&& other) noexcept;
  SHAKEDOWN_API Hmac& operator=(Hmac&& other) noexcept;
  SHAKEDOWN_API ~Hmac();

  Algorithm algorithm() const noexcept { return inner_.algorithm(); }
  std::string_view backend_name() const noexcept { return inner_.backend_name(); }
  // After final()/verify*() (until reset()), or for good after being moved from.
  bool finalized() const noexcept { return inner_.finalized(); }

  SHAKEDOWN_API Hmac& update(const void* data, std::size_t len);
  Hmac& update(std::span<const std::uint8_t> data) { return update(data.data(), data.size()); }
  Hmac& update(std::string_view text) { return update(text.data(), text.size()); }

  // The MAC, or its leftmost out.size() bytes (FIPS 198-1 §5 truncation): 1..digest_size. Truncation is
  // the sender's choice; a verifier that accepts truncated tags must say how long they are
  // (verify_truncated).
  SHAKEDOWN_API void final(std::span<std::uint8_t> out);
  SHAKEDOWN_API std::vector<std::uint8_t> final();

  // True only for the full digest_size(alg)-byte tag: a tag of any other length (empty, truncated, too
  // long) is false, so an attacker who chooses the tag's length gains nothing. The comparison is constant
  // time in the tag's contents. Finalizes the context (Errc::finalized if it already was).
  SHAKEDOWN_API bool verify(std::span<const std::uint8_t> tag);
  // For protocols that truncate: the verifier states the length it expects. expected_len must be at
  // least max(10 bytes, digest_size / 2) (RFC 2104 §5) and at most digest_size, else Errc::bad_output_length
  // is thrown and the context is left as it was. A tag whose size differs from expected_len is false;
  // otherwise the leftmost expected_len bytes of the MAC are compared in constant time. Finalizes the context.
  SHAKEDOWN_API bool verify_truncated(std::span<const std::uint8_t> tag, std::size_t expected_len);
  // The shortest expected_len verify_truncated accepts for alg (RFC 2104 §5).
  static SHAKEDOWN_API std::size_t min_truncated_length(Algorithm alg);

  // Restart with the same key.
  SHAKEDOWN_API void reset() noexcept;

 private:
  Hmac(Hasher prototype, std::span<const std::uint8_t> key);  // prototype: algorithm and backend, empty message

  Hasher inner_;
  Hasher outer_;
  Hasher inner_start_;  // the keyed inner/outer states, kept for reset()
  Hasher outer_start_;
};

SHAKEDOWN_API std::vector<std::uint8_t> hmac(Algorithm alg, std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> data);

}  // namespace shakedown
