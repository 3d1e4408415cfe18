// HMAC (FIPS 198-1 §4): keyed inner/outer contexts, truncation, constant-time verification.
#include "shakedown/hmac.h"

#include <string>

#include "internal/api_checks.h"
#include "internal/bytes.h"
#include "internal/constant_time.h"
#include "shakedown/error.h"

namespace shakedown {
namespace {

Algorithm hmac_algorithm(Algorithm alg) {
  if (is_xof(alg)) throw Error(Errc::not_hmac_capable, "HMAC is not defined over the XOF " + std::string(name(alg)));
  return alg;
}

// K0 per FIPS 198-1 §4 steps 1-3: keys longer than B are hashed, then zero-padded to B bytes.
// B is the block size for SHA-2 and the rate for SHA-3 (FIPS 202 is silent; SP 800-224 / RFC-style usage).
// inner and outer hold the empty message of the right algorithm and backend on entry.
void keyed_pair(Algorithm alg, const std::uint8_t* key, std::size_t keylen, Hasher& inner, Hasher& outer) {
  const std::size_t B = block_size(alg);
  std::uint8_t k0[kMaxBlockSize] = {};
  if (keylen > B) {
    Hasher kh = inner;  // same algorithm and backend, still the empty message
    kh.update(key, keylen);
    kh.final(k0, digest_size(alg));
  } else if (keylen) {
    std::memcpy(k0, key, keylen);
  }
  std::uint8_t pad[kMaxBlockSize];
  for (std::size_t i = 0; i < B; ++i) pad[i] = k0[i] ^ 0x36;  // ipad
  inner.update(pad, B);
  for (std::size_t i = 0; i < B; ++i) pad[i] = k0[i] ^ 0x5c;  // opad
  outer.update(pad, B);
  internal::secure_zero(k0, sizeof k0);
  internal::secure_zero(pad, sizeof pad);
}

// Errc::finalized for a context that cannot MAC: after final() until reset(), or for good once moved from (its
// keyed start states are finalized too, so reset() cannot help and must not be suggested).
[[noreturn]] void throw_finalized(bool moved_from) {
  if (moved_from)
    throw Error(Errc::finalized, "HMAC context was moved from: it holds no key (assign a new Hmac to it)");
  throw Error(Errc::finalized, "HMAC context used after final(); call reset() first");
}

}  // namespace

Hmac::Hmac(Hasher prototype, std::span<const std::uint8_t> key)
    : inner_(prototype), outer_(prototype), inner_start_(prototype), outer_start_(prototype) {
  if (key.data() == nullptr && !key.empty()) throw Error(Errc::null_pointer, "HMAC key is null with non-zero length");
  keyed_pair(prototype.algorithm(), key.data(), key.size(), inner_start_, outer_start_);
  inner_ = inner_start_;
  outer_ = outer_start_;
}

// A named backend goes to Hasher(alg, name), which rejects "" like any unknown name.
Hmac::Hmac(Algorithm alg, std::span<const std::uint8_t> key, std::string_view backend)
    : Hmac(Hasher(hmac_algorithm(alg), backend), key) {}

Hmac::Hmac(Algorithm alg, std::span<const std::uint8_t> key) : Hmac(Hasher(hmac_algorithm(alg)), key) {}

Hmac::Hmac(Algorithm alg, const void* key, std::size_t keylen)
    : Hmac(alg, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(key), keylen)) {}

Hmac::Hmac(const Hmac&) noexcept = default;
Hmac& Hmac::operator=(const Hmac&) noexcept = default;
// Each Hasher's move wipes its source and leaves it finalized, so the moved-from Hmac keeps no key and
// its reset() copies finalized start states: it can never MAC again.
Hmac::Hmac(Hmac&& other) noexcept = default;
Hmac& Hmac::operator=(Hmac&& other) noexcept = default;
Hmac::~Hmac() = default;  // each Hasher zeroizes itself

Hmac& Hmac::update(const void* data, std::size_t len) {
  if (inner_.finalized()) throw_finalized(inner_start_.finalized());
  inner_.update(data, len);
  return *this;
}

void Hmac::final(std::span<std::uint8_t> out) {
  // The context's state first, then the arguments, as Hasher::final checks them.
  if (inner_.finalized()) throw_finalized(inner_start_.finalized());
  const std::size_t L = digest_size(algorithm());
  if (out.empty() || out.size() > L)
    throw Error(Errc::bad_output_length, "HMAC-" + std::string(name(algorithm())) + " output must be 1.." +
                                             std::to_string(L) + " bytes; " + std::to_string(out.size()) +
                                             " requested");
  if (out.data() == nullptr) throw Error(Errc::null_pointer, "HMAC output is null");
  std::uint8_t mac[kMaxDigestSize];
  inner_.final(mac, L);
  outer_.update(mac, L);
  outer_.final(mac, L);
  std::memcpy(out.data(), mac, out.size());  // FIPS 198-1 §5: leftmost bytes
  internal::secure_zero(mac, sizeof mac);
}

std::vector<std::uint8_t> Hmac::final() {
  std::vector<std::uint8_t> out = internal::output_buffer(algorithm(), digest_size(algorithm()));
  final(out);
  return out;
}

std::size_t Hmac::min_truncated_length(Algorithm alg) {
  const std::size_t half = (digest_size(hmac_algorithm(alg)) + 1) / 2;
  return half > 10 ? half : 10;  // RFC 2104 §5: not less than half the output and not less than 80 bits
}

// The length check depends only on public sizes; the comparison covers all `len` bytes whatever they hold.
bool Hmac::verify_truncated(std::span<const std::uint8_t> tag, std::size_t expected_len) {
  const std::size_t L = digest_size(algorithm());
  const std::size_t min = min_truncated_length(algorithm());
  if (expected_len < min || expected_len > L)
    throw Error(Errc::bad_output_length, "HMAC-" + std::string(name(algorithm())) + " tags are verified at " +
                                             std::to_string(min) + ".." + std::to_string(L) +
                                             " bytes (RFC 2104 §5); expected length " + std::to_string(expected_len) +
                                             " refused");
  std::uint8_t mac[kMaxDigestSize];
  final(std::span<std::uint8_t>(mac, L));  // throws Errc::finalized before anything changes
  bool ok = tag.size() == expected_len && tag.data() != nullptr &&
            internal::equal_constant_time(mac, tag.data(), expected_len);
  SHAKEDOWN_CT_DECLASSIFY(&ok, sizeof ok);
  internal::secure_zero(mac, sizeof mac);
  return ok;
}

bool Hmac::verify(std::span<const std::uint8_t> tag) {
  const std::size_t L = digest_size(algorithm());
  std::uint8_t mac[kMaxDigestSize];
  final(std::span<std::uint8_t>(mac, L));
  bool ok = tag.size() == L && tag.data() != nullptr && internal::equal_constant_time(mac, tag.data(), L);
  SHAKEDOWN_CT_DECLASSIFY(&ok, sizeof ok);  // the verdict is public: the caller branches on it
  internal::secure_zero(mac, sizeof mac);
  return ok;
}

void Hmac::reset() noexcept {
  inner_ = inner_start_;
  outer_ = outer_start_;
}

std::vector<std::uint8_t> hmac(Algorithm alg, std::span<const std::uint8_t> key, std::span<const std::uint8_t> data) {
  Hmac h(alg, key);
  h.update(data);
  return h.final();
}

}  // namespace shakedown
