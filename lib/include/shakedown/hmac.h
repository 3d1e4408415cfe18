// HMAC (FIPS 198-1) over every SHA-2 and SHA-3 digest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "shakedown/hash.h"

namespace shakedown {

// Copyable mid-stream. final() zeroizes the running inner/outer states; the keyed start
// states (needed by reset()) are zeroized on destruction.
class Hmac {
 public:
  // Errc::not_hmac_capable for SHAKE; Errc::null_pointer for a null key with non-zero length.
  Hmac(Algorithm alg, std::span<const std::uint8_t> key);
  Hmac(Algorithm alg, std::span<const std::uint8_t> key, std::string_view backend);
  Hmac(Algorithm alg, const void* key, std::size_t keylen);
  Hmac(const Hmac&) noexcept;
  Hmac& operator=(const Hmac&) noexcept;
  ~Hmac();

  Algorithm algorithm() const noexcept { return inner_.algorithm(); }
  std::string_view backend_name() const noexcept { return inner_.backend_name(); }

  Hmac& update(const void* data, std::size_t len);
  Hmac& update(std::span<const std::uint8_t> data) { return update(data.data(), data.size()); }
  Hmac& update(std::string_view text) { return update(text.data(), text.size()); }

  // The MAC, or its leftmost out.size() bytes (FIPS 198-1 §5 truncation): 1..digest_size.
  void final(std::span<std::uint8_t> out);
  std::vector<std::uint8_t> final();
  // Constant-time comparison of the (possibly truncated) tag; false for an empty or
  // over-long tag. Finalizes the context.
  bool verify(std::span<const std::uint8_t> tag);

  // Restart with the same key.
  void reset() noexcept;

 private:
  Hasher inner_;
  Hasher outer_;
  Hasher inner_start_;  // the keyed inner/outer states, kept for reset()
  Hasher outer_start_;
};

std::vector<std::uint8_t> hmac(Algorithm alg, std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> data);

}  // namespace shakedown
