// SHAKEDOWN_BACKENDS parsing: FAMILY=NAME pins, FAMILY=-NAME exclusions, every error naming its item.
#include "internal/backends_env.h"

#include <algorithm>

#include "internal/message_text.h"
#include "internal/tables.h"

namespace shakedown::internal {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string known_names(Family f) {
  return visit_family(f, []<class T>(T) {
    std::string out;
    for (const auto& b : table<T::kFamily>()) out += (out.empty() ? "" : ", ") + std::string(b.info.name);
    return out;
  });
}

bool is_known(Family f, std::string_view name) {
  return visit_family(f, [&]<class T>(T) {
    const auto rows = table<T::kFamily>();
    return std::any_of(rows.begin(), rows.end(), [&](const auto& b) { return b.info.name == name; });
  });
}

}  // namespace

std::string parse_backends_env(std::string_view text, Overrides& out) {
  // Every echo of the value is cut (message_text.h), so that the reason stays in a bounded message: the C API
  // keeps 511 bytes of it.
  const std::string prefix = std::string(kBackendsEnv) + "='" + shown_input(text) + "': ";
  if (trim(text).empty()) return {};
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string item = trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) return prefix + "empty item (expected FAMILY=NAME or FAMILY=-NAME)";
    std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      return prefix + "item '" + shown_input(item) + "' has no '=' (expected FAMILY=NAME or FAMILY=-NAME)";
    std::string fam_text = trim(std::string_view(item).substr(0, eq));
    std::string value = trim(std::string_view(item).substr(eq + 1));
    auto fam = parse_family(fam_text);
    if (!fam) return prefix + "unknown family '" + shown_input(fam_text) + "' (valid: sha256, sha512, keccak)";
    bool exclude = !value.empty() && value.front() == '-';
    std::string name = exclude ? trim(std::string_view(value).substr(1)) : value;
    if (name.empty()) return prefix + "item '" + shown_input(item) + "' names no backend";
    if (!is_known(*fam, name))
      return prefix + "unknown " + std::string(shakedown::name(*fam)) + " backend '" + shown_input(name) +
             "' (compiled: " + known_names(*fam) + ")";
    FamilyOverride& o = out[static_cast<std::size_t>(*fam)];
    if (exclude) {
      o.excluded.push_back(name);
    } else {
      if (!o.pinned.empty() && o.pinned != name)
        return prefix + std::string(shakedown::name(*fam)) + " is pinned twice ('" + o.pinned + "' and '" +
               name + "')";
      o.pinned = name;
    }
    if (comma == text.size()) break;
  }
  for (Family f : kAllFamilies) {
    const FamilyOverride& o = out[static_cast<std::size_t>(f)];
    if (!o.pinned.empty() && std::find(o.excluded.begin(), o.excluded.end(), o.pinned) != o.excluded.end())
      return prefix + std::string(shakedown::name(f)) + " backend '" + o.pinned + "' is both pinned and excluded";
  }
  return {};
}

}  // namespace shakedown::internal
