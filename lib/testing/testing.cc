// Every test-only hook of shakedown::testing in one file: feature overrides, re-selection, forged counters,
// cross-backend handoff and raw state views. The production paths never call into this file.
#include "shakedown/testing.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "internal/registry.h"
#include "shakedown/error.h"

namespace shakedown {

// Reaches into Hasher for the hooks below (friend of Hasher).
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
  static void rebind(Hasher& h, std::string_view backend) {
    h.backend_ = internal::named_backend_info(family_of(h.alg_), backend);
    h.named_ = true;
  }
  static std::span<const std::uint8_t> raw(const Hasher& h) {
    return {reinterpret_cast<const std::uint8_t*>(&h.u_), sizeof h.u_};
  }
};

namespace testing {
namespace {

bool parse_unsigned(std::string_view text, unsigned& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

// Grammar documented in testing.h (assume_features).
CpuFeatures parse_assumed_features(std::string_view text) {
  CpuFeatures out;
  const std::string whole(text);
  auto fail = [&](Errc code, const std::string& why) {
    throw Error(code, "feature override '" + whole + "': " + why);
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) fail(Errc::bad_environment, "empty item");
    if (item == "zhaoxin-phe") {
      // Zhaoxin family 7 with PHE and PHE2 present and enabled (docs/isa/padlock.md §1.4).
      out.vendor = "  Shanghai  ";
      out.family = 7;
      for (CpuFeature f : {CpuFeature::x86_phe, CpuFeature::x86_phe_en, CpuFeature::x86_phe2, CpuFeature::x86_phe2_en})
        out.set(f);
    } else if (item.starts_with("vendor=")) {
      out.vendor = std::string(item.substr(7));
      if (out.vendor.empty()) fail(Errc::bad_environment, "empty vendor");
    } else if (item.starts_with("family=")) {
      if (!parse_unsigned(item.substr(7), out.family) || out.family == 0) fail(Errc::bad_environment, "bad family '" + std::string(item) + "'");
    } else if (item.starts_with("vlen=")) {
      unsigned bits = 0;
      if (!parse_unsigned(item.substr(5), bits) || bits < 128 || bits > 65536 || (bits & (bits - 1)))
        fail(Errc::bad_environment, "bad vlen '" + std::string(item) + "' (a power of two, 128..65536)");
      out.vector_bytes = bits / 8;
    } else if (auto f = parse_feature(item)) {
      out.set(*f);
    } else {
      fail(Errc::unknown_feature, "unknown feature '" + std::string(item) + "'");
    }
    if (comma == text.size()) break;
  }
  return out;
}

}  // namespace

void assume_features(std::string_view text) {
  internal::add_assumed_features(parse_assumed_features(text));  // throws before anything is applied
}

void clear_assumed_features() { internal::clear_assumed_features(); }

void reselect(std::optional<std::string> backends_env) { internal::override_environment(std::move(backends_env)); }

std::string validate_backends_env(std::string_view value) { return internal::environment_error(value); }

std::string assume_features_from_environment() {
  const char* e = std::getenv("SHAKEDOWN_TEST_ASSUME");
  if (e == nullptr || *e == '\0') return {};
  assume_features(e);
  return e;
}

void forge_byte_count(Hasher& ctx, std::uint64_t bytes_lo, std::uint64_t bytes_hi) {
  HasherAccess::forge(ctx, bytes_lo, bytes_hi);
}
void rebind(Hasher& ctx, std::string_view backend) { HasherAccess::rebind(ctx, backend); }
std::span<const std::uint8_t> raw_state(const Hasher& ctx) { return HasherAccess::raw(ctx); }

}  // namespace testing
}  // namespace shakedown
