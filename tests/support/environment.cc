// The expected selection, the environment summary and the iteration scale, for the test and fuzz mains.
#include "environment.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "oracle.h"
#include "shakedown/shakedown.h"

namespace shakedown::test {

std::string check_expected_selection(std::string& notes) {
  const char* expect = std::getenv("SHAKEDOWN_EXPECT_SELECTED");
  std::string_view rest(expect ? expect : "");
  while (!rest.empty()) {
    const std::string_view item = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
    const std::size_t eq = item.find('=');
    const Family family = family_from_name(item.substr(0, eq));  // throws on a bad family name
    const std::string_view want = eq == std::string_view::npos ? "" : item.substr(eq + 1);
    const auto compiled = backends(family);
    if (std::none_of(compiled.begin(), compiled.end(), [&](const auto& b) { return b.name == want; })) {
      notes += "selection not asserted: " + std::string(item) + " is not compiled into this build\n";
      continue;
    }
    const std::string_view got = selected_backend(family);
    if (got != want)
      return std::string(name(family)) + " selected '" + std::string(got) + "', expected '" + std::string(want) + "'";
    notes += "selection as expected: " + std::string(item) + "\n";
  }
  return "";
}

std::string describe_environment(const std::string& assumed) {
  std::string out = std::string("oracle: ") + oracle_description() + "\n";
  out += "shakedown test environment:\n" + describe(cpu_features());
  if (!assumed.empty()) out += "assumed (test override): " + assumed + "\n";
  auto padded = [](std::string_view s, std::size_t width) {
    std::string p(s);
    if (p.size() < width) p.resize(width, ' ');
    return p;
  };
  for (Family f : kAllFamilies) {
    out += "  " + padded(name(f), 7) + " selected " + padded(selected_backend(f), 14) + " available:";
    for (const auto& b : available_backends(f)) out += " " + b;
    out += "\n";
  }
  return out;
}

std::size_t scaled(std::size_t iterations, std::size_t minimum) {
  const char* e = std::getenv("SHAKEDOWN_TEST_SCALE");
  double scale = e ? std::strtod(e, nullptr) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  auto n = static_cast<std::size_t>(static_cast<double>(iterations) * scale);
  return n < minimum ? minimum : n;
}

}  // namespace shakedown::test
