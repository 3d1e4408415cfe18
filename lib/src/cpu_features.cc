// CPU feature names, detection sources and descriptions (the table in cpu.h), and describe().
#include <string>

#include "shakedown/cpu.h"
#include "shakedown/error.h"

namespace shakedown {
namespace {

struct FeatureRow {
  std::string_view name, source, description;
};
constexpr FeatureRow kRows[] = {
#define SHAKEDOWN_CPU_FEATURE_ROW(id, name, source, description) {name, source, description},
    SHAKEDOWN_CPU_FEATURES(SHAKEDOWN_CPU_FEATURE_ROW)
#undef SHAKEDOWN_CPU_FEATURE_ROW
};
static_assert(std::size(kRows) == kCpuFeatureCount);

const FeatureRow* row(CpuFeature feature) noexcept {
  const auto i = static_cast<std::size_t>(feature);
  return i < kCpuFeatureCount ? &kRows[i] : nullptr;
}

}  // namespace

std::string_view feature_name(CpuFeature feature) noexcept { return row(feature) ? row(feature)->name : "?"; }
std::string_view feature_source(CpuFeature feature) noexcept { return row(feature) ? row(feature)->source : "?"; }
std::string_view feature_description(CpuFeature feature) noexcept {
  return row(feature) ? row(feature)->description : "?";
}

std::optional<CpuFeature> parse_feature(std::string_view text) noexcept {
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i)
    if (kRows[i].name == text) return static_cast<CpuFeature>(i);
  return std::nullopt;
}

std::string describe(const CpuFeatures& f) {
  std::string out;
  if (!f.vendor.empty())
    out += "vendor '" + f.vendor + "' family " + std::to_string(f.family) + " model " + std::to_string(f.model) + "\n";
  if (f.vector_bytes) out += "vector length " + std::to_string(f.vector_bytes * 8) + " bits\n";
  std::string flags;
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i)
    if (f.flags.test(i)) flags += (flags.empty() ? "" : " ") + std::string(kRows[i].name);
  out += "features: " + (flags.empty() ? std::string("(none detected)") : flags) + "\n";
  return out;
}

}  // namespace shakedown
