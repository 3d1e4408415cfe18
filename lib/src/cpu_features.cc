// CPU feature names, their description, and the parser for test-only feature overrides.
#include <charconv>
#include <string>

#include "shakedown/cpu.h"
#include "shakedown/error.h"

namespace shakedown {
namespace {

constexpr std::string_view kNames[] = {
    "ssse3",   "sse4_1",   "avx",      "avx2",     "bmi1",   "bmi2",       "sha_ni",     "sha512",
    "avx512f", "avx512vl", "avx512bw", "os_ymm",   "os_zmm", "phe",        "phe_en",
    "phe2",    "phe2_en",  "arm_sha2", "arm_sha512", "arm_sha3", "rv_v",   "rv_zknh",
    "rv_zvknha", "rv_zvknhb", "rv_zvkb", "s390_sha256", "s390_sha512", "s390_sha3", "s390_msa12",
};
static_assert(std::size(kNames) == kCpuFeatureCount, "one name per CpuFeature");

bool parse_unsigned(std::string_view text, unsigned& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

}  // namespace

std::string_view feature_name(CpuFeature feature) noexcept {
  auto i = static_cast<std::size_t>(feature);
  return i < kCpuFeatureCount ? kNames[i] : "?";
}

std::optional<CpuFeature> parse_feature(std::string_view text) noexcept {
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i)
    if (kNames[i] == text) return static_cast<CpuFeature>(i);
  return std::nullopt;
}

std::string describe(const CpuFeatures& f) {
  std::string out;
  if (!f.vendor.empty())
    out += "vendor '" + f.vendor + "' family " + std::to_string(f.family) + " model " + std::to_string(f.model) + "\n";
  if (f.vector_bytes) out += "vector length " + std::to_string(f.vector_bytes * 8) + " bits\n";
  std::string flags;
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i)
    if (f.flags.test(i)) flags += (flags.empty() ? "" : " ") + std::string(kNames[i]);
  out += "features: " + (flags.empty() ? std::string("(none detected)") : flags) + "\n";
  return out;
}

namespace testing {

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
      // Zhaoxin family 7 with PHE and PHE2 present and enabled (specs/instructions.md §1.4).
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

}  // namespace testing
}  // namespace shakedown
