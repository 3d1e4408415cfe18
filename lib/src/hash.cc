// Hasher and the one-shot functions: argument checks, dispatch per family, zeroization.
#include "shakedown/hash.h"

#include <string>

#include "internal/framing.h"
#include "internal/registry.h"
#include "internal/test_leak.h"
#include "shakedown/error.h"
#include "shakedown/testing.h"

namespace shakedown {
namespace {

using internal::secure_zero;

// FIPS 180-4 §5.3.2 - §5.3.6 initial hash values.
constexpr std::uint32_t kIv224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                     0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};
constexpr std::uint32_t kIv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
constexpr std::uint64_t kIv384[8] = {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17,
                                     0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511,
                                     0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4};
constexpr std::uint64_t kIv512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                     0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                     0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr std::uint64_t kIv512_224[8] = {0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82,
                                         0x679dd514582f9fcf, 0x0f6d2b697bd44da8, 0x77e36f7304c48942,
                                         0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1};
constexpr std::uint64_t kIv512_256[8] = {0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151,
                                         0x963877195940eabd, 0x96283ee2a88effe3, 0xbe5e1e2553863992,
                                         0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2};

// FIPS 202 §6.1 (SHA-3: suffix 01) and §6.2 (SHAKE: suffix 1111), with the first pad bit.
constexpr std::uint8_t kSha3Domain = 0x06;
constexpr std::uint8_t kShakeDomain = 0x1f;

const void* default_backend(Family f) {
  switch (f) {
    case Family::sha256: return &internal::default_sha256_backend();
    case Family::sha512: return &internal::default_sha512_backend();
    case Family::keccak: return &internal::default_keccak_backend();
  }
  return nullptr;
}

const void* named_backend(Family f, std::string_view name) {
  switch (f) {
    case Family::sha256: return &sha256_backend(name);
    case Family::sha512: return &sha512_backend(name);
    case Family::keccak: return &keccak_backend(name);
  }
  return nullptr;
}

void check_pointer(const void* p, std::size_t len, const char* what) {
  if (p == nullptr && len != 0) throw Error(Errc::null_pointer, std::string(what) + " is null with length " + std::to_string(len));
}

void check_output_length(Algorithm alg, std::size_t len) {
  if (!is_xof(alg) && len != digest_size(alg))
    throw Error(Errc::bad_output_length, std::string(name(alg)) + " produces " + std::to_string(digest_size(alg)) +
                                             " bytes; " + std::to_string(len) + " requested");
}

// The std::vector conveniences: an output that cannot be allocated (SIZE_MAX from SHAKE, say) is an
// Error with a code like every other refusal, not std::length_error or std::bad_alloc.
std::vector<std::uint8_t> output_buffer(Algorithm alg, std::size_t len) {
  check_output_length(alg, len);
  try {
    return std::vector<std::uint8_t>(len);
  } catch (const std::exception&) {  // std::length_error, std::bad_alloc
    throw Error(Errc::bad_output_length, "cannot allocate " + std::to_string(len) + " bytes of " +
                                             std::string(name(alg)) + " output; squeeze it in parts");
  }
}

[[noreturn]] void throw_too_long(Algorithm alg) {
  throw Error(Errc::message_too_long, "message exceeds the " + std::string(name(alg)) + " length limit (FIPS 180-4 §1)");
}

// State for one algorithm in a local variable: the one-shot path builds no Hasher.
template <class State, class Word>
void oneshot_md(Algorithm alg, const void* backend, const Word (&iv)[8], const std::uint8_t* data, std::size_t len,
                std::uint8_t* out) {
  using Backend = typename internal::MdTraits<State>::Backend;
  const auto& be = *static_cast<const Backend*>(backend);
  State s;
  internal::md_init(s, iv);
  if (!internal::md_count(s, len)) throw_too_long(alg);
  internal::md_update(s, be, data, len);
  internal::md_final(s, be, out, digest_size(alg));
  secure_zero(&s, sizeof s);
}

void oneshot(Algorithm alg, const void* backend, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
             std::size_t outlen) {
  switch (alg) {
    case Algorithm::sha224: return oneshot_md<detail::Sha256State>(alg, backend, kIv224, data, len, out);
    case Algorithm::sha256: return oneshot_md<detail::Sha256State>(alg, backend, kIv256, data, len, out);
    case Algorithm::sha384: return oneshot_md<detail::Sha512State>(alg, backend, kIv384, data, len, out);
    case Algorithm::sha512: return oneshot_md<detail::Sha512State>(alg, backend, kIv512, data, len, out);
    case Algorithm::sha512_224: return oneshot_md<detail::Sha512State>(alg, backend, kIv512_224, data, len, out);
    case Algorithm::sha512_256: return oneshot_md<detail::Sha512State>(alg, backend, kIv512_256, data, len, out);
    default: break;
  }
  const auto& be = *static_cast<const KeccakBackend*>(backend);
  if (be.digest && be.digest(alg, data, len, out, outlen)) return;
  detail::KeccakState s;
  internal::keccak_init(s, block_size(alg), is_xof(alg) ? kShakeDomain : kSha3Domain);
  internal::keccak_absorb(s, be, data, len);
  internal::keccak_pad(s, be);
  internal::keccak_squeeze(s, be, out, outlen);
  secure_zero(&s, sizeof s);
}

}  // namespace

// ---- Hasher ----

Hasher::Hasher(Algorithm alg) : alg_(alg), phase_(Phase::absorbing), backend_(default_backend(family_of(alg))) {
  init_state();
}

Hasher::Hasher(Algorithm alg, std::string_view backend)
    : alg_(alg), phase_(Phase::absorbing), backend_(named_backend(family_of(alg), backend)) {
  init_state();
}

Hasher::Hasher(const Hasher& other) noexcept : alg_(other.alg_), phase_(other.phase_), backend_(other.backend_) {
  std::memcpy(&u_, &other.u_, sizeof u_);
}

Hasher& Hasher::operator=(const Hasher& other) noexcept {
  if (this != &other) {
    alg_ = other.alg_;
    phase_ = other.phase_;
    backend_ = other.backend_;
    std::memcpy(&u_, &other.u_, sizeof u_);
  }
  return *this;
}

// A move leaves no copy of the state behind: the source is wiped and finalized.
Hasher::Hasher(Hasher&& other) noexcept : Hasher(static_cast<const Hasher&>(other)) {
  other.wipe();
  other.phase_ = Phase::finalized;
}

Hasher& Hasher::operator=(Hasher&& other) noexcept {
  if (this != &other) {
    *this = static_cast<const Hasher&>(other);
    other.wipe();
    other.phase_ = Phase::finalized;
  }
  return *this;
}

Hasher::~Hasher() { wipe(); }

void Hasher::wipe() noexcept { secure_zero(&u_, sizeof u_); }

std::string_view Hasher::backend_name() const noexcept {
  switch (family_of(alg_)) {
    case Family::sha256: return static_cast<const Sha256Backend*>(backend_)->info.name;
    case Family::sha512: return static_cast<const Sha512Backend*>(backend_)->info.name;
    case Family::keccak: return static_cast<const KeccakBackend*>(backend_)->info.name;
  }
  return {};
}

void Hasher::init_state() noexcept {
  wipe();
  phase_ = Phase::absorbing;
  switch (alg_) {
    case Algorithm::sha224: return internal::md_init(u_.s256, kIv224);
    case Algorithm::sha256: return internal::md_init(u_.s256, kIv256);
    case Algorithm::sha384: return internal::md_init(u_.s512, kIv384);
    case Algorithm::sha512: return internal::md_init(u_.s512, kIv512);
    case Algorithm::sha512_224: return internal::md_init(u_.s512, kIv512_224);
    case Algorithm::sha512_256: return internal::md_init(u_.s512, kIv512_256);
    default: internal::keccak_init(u_.keccak, block_size(alg_), is_xof(alg_) ? kShakeDomain : kSha3Domain);
  }
}

void Hasher::reset() noexcept { init_state(); }

void Hasher::check_usable(bool for_update) const {
  if (phase_ == Phase::finalized)
    throw Error(Errc::finalized, std::string(name(alg_)) + " context used after final(); call reset() first");
  if (for_update && phase_ == Phase::squeezing)
    throw Error(Errc::wrong_phase, std::string(name(alg_)) + " context cannot absorb after squeezing started");
}

Hasher& Hasher::update(const void* data, std::size_t len) {
  check_usable(true);
  check_pointer(data, len, "update data");
  if (len == 0) return *this;
  const auto* p = static_cast<const std::uint8_t*>(data);
  switch (family_of(alg_)) {
    case Family::sha256:
      if (!internal::md_count(u_.s256, len)) throw_too_long(alg_);
      internal::md_update(u_.s256, *static_cast<const Sha256Backend*>(backend_), p, len);
      internal::test_leak::on_sha256_update(p, len);  // empty unless SHAKEDOWN_TEST_LEAK
      break;
    case Family::sha512:
      if (!internal::md_count(u_.s512, len)) throw_too_long(alg_);
      internal::md_update(u_.s512, *static_cast<const Sha512Backend*>(backend_), p, len);
      break;
    case Family::keccak:
      internal::keccak_absorb(u_.keccak, *static_cast<const KeccakBackend*>(backend_), p, len);
      break;
  }
  return *this;
}

void Hasher::final(void* out, std::size_t len) {
  check_usable(false);
  check_output_length(alg_, len);
  check_pointer(out, len, "output");
  auto* o = static_cast<std::uint8_t*>(out);
  // Compute into a local buffer first: out may overlap the caller's input or even this context.
  switch (family_of(alg_)) {
    case Family::sha256: {
      std::uint8_t digest[32];
      internal::md_final(u_.s256, *static_cast<const Sha256Backend*>(backend_), digest, len);
      wipe();
      std::memcpy(o, digest, len);
      secure_zero(digest, sizeof digest);
      break;
    }
    case Family::sha512: {
      std::uint8_t digest[64];
      internal::md_final(u_.s512, *static_cast<const Sha512Backend*>(backend_), digest, len);
      wipe();
      std::memcpy(o, digest, len);
      secure_zero(digest, sizeof digest);
      break;
    }
    case Family::keccak:
      if (is_xof(alg_)) {
        squeeze(o, len);  // output may be long: squeeze streams it
        wipe();
      } else {
        std::uint8_t digest[64];
        const auto& be = *static_cast<const KeccakBackend*>(backend_);
        internal::keccak_pad(u_.keccak, be);
        internal::keccak_squeeze(u_.keccak, be, digest, len);
        wipe();
        std::memcpy(o, digest, len);
        secure_zero(digest, sizeof digest);
      }
      break;
  }
  phase_ = Phase::finalized;
}

void Hasher::final(std::span<std::uint8_t> out) { final(out.data(), out.size()); }

std::vector<std::uint8_t> Hasher::final() {
  check_usable(false);
  std::vector<std::uint8_t> out = output_buffer(alg_, digest_size(alg_));
  final(out.data(), out.size());
  return out;
}

void Hasher::squeeze(void* out, std::size_t len) {
  check_usable(false);
  if (!is_xof(alg_)) throw Error(Errc::not_xof, std::string(name(alg_)) + " is not an XOF: use final()");
  check_pointer(out, len, "output");
  const auto& be = *static_cast<const KeccakBackend*>(backend_);
  if (phase_ == Phase::absorbing) {
    internal::keccak_pad(u_.keccak, be);
    phase_ = Phase::squeezing;
  }
  internal::keccak_squeeze(u_.keccak, be, static_cast<std::uint8_t*>(out), len);
}

void Hasher::squeeze(std::span<std::uint8_t> out) { squeeze(out.data(), out.size()); }

// ---- One-shot ----

namespace {

// The one-shot path of every hash() overload, default or named backend: the backend's one-shot hook
// (CPACF KLMD) is reached the same way whichever way the backend was chosen.
void hash_via(Algorithm alg, const void* be, const void* data, std::size_t len, void* out, std::size_t outlen) {
  check_pointer(data, len, "input");
  check_output_length(alg, outlen);
  check_pointer(out, outlen, "output");
  if (is_xof(alg) || outlen == 0) {
    oneshot(alg, be, static_cast<const std::uint8_t*>(data), len, static_cast<std::uint8_t*>(out), outlen);
    return;
  }
  // Digest into a local buffer so that out may overlap the input.
  std::uint8_t digest[kMaxDigestSize];
  oneshot(alg, be, static_cast<const std::uint8_t*>(data), len, digest, outlen);
  std::memcpy(out, digest, outlen);
  secure_zero(digest, sizeof digest);
}

}  // namespace

void hash(Algorithm alg, const void* data, std::size_t len, void* out, std::size_t outlen) {
  hash_via(alg, default_backend(family_of(alg)), data, len, out, outlen);
}

void hash(Algorithm alg, std::span<const std::uint8_t> data, std::span<std::uint8_t> out) {
  hash(alg, data.data(), data.size(), out.data(), out.size());
}

void hash(Algorithm alg, std::string_view backend, std::span<const std::uint8_t> data,
          std::span<std::uint8_t> out) {
  const void* be = named_backend(family_of(alg), backend);  // unknown/unavailable names throw first
  hash_via(alg, be, data.data(), data.size(), out.data(), out.size());
}

std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen) {
  std::vector<std::uint8_t> out = output_buffer(alg, outlen);
  hash(alg, data.data(), data.size(), out.data(), out.size());
  return out;
}

std::vector<std::uint8_t> hash(Algorithm alg, std::span<const std::uint8_t> data) {
  return hash(alg, data, digest_size(alg));
}

// ---- Test hooks ----

struct HasherAccess {
  static void forge(Hasher& h, std::uint64_t lo, std::uint64_t hi) {
    h.check_usable(true);
    auto apply = [&](auto& s, bool allow_hi) {
      if (s.buflen != 0) throw Error(Errc::wrong_phase, "forge_byte_count needs a context at a block boundary");
      if (!allow_hi && hi != 0) throw Error(Errc::message_too_long, "SHA-256 counts at most 2^64 bits");
      s.bytes_lo = lo;
      s.bytes_hi = hi;
    };
    switch (family_of(h.alg_)) {
      case Family::sha256: return apply(h.u_.s256, false);
      case Family::sha512: return apply(h.u_.s512, true);
      case Family::keccak: throw Error(Errc::wrong_phase, "forge_byte_count applies to SHA-2 contexts only");
    }
  }
  static void rebind(Hasher& h, std::string_view backend) { h.backend_ = named_backend(family_of(h.alg_), backend); }
  static std::span<const std::uint8_t> raw(const Hasher& h) {
    return {reinterpret_cast<const std::uint8_t*>(&h.u_), sizeof h.u_};
  }
};

namespace testing {
void forge_byte_count(Hasher& ctx, std::uint64_t bytes_lo, std::uint64_t bytes_hi) {
  HasherAccess::forge(ctx, bytes_lo, bytes_hi);
}
void rebind(Hasher& ctx, std::string_view backend) { HasherAccess::rebind(ctx, backend); }
std::span<const std::uint8_t> raw_state(const Hasher& ctx) { return HasherAccess::raw(ctx); }
}  // namespace testing

}  // namespace shakedown
