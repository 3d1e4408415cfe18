// Report formatting shared by the fuzz targets (before abort) and shakedown-repro.
#include "verdict.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "shakedown/hex.h"

namespace shakedown::fuzz {

std::optional<std::size_t> first_difference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return i;
  if (a.size() != b.size()) return n;
  return std::nullopt;
}

std::vector<std::string> Verdict::culprits() const {
  std::vector<std::string> alone, combined;
  auto add = [](std::vector<std::string>& to, const std::string& b) {
    if (std::find(to.begin(), to.end(), b) == to.end()) to.push_back(b);
  };
  for (const Divergence& d : divergences)
    for (const std::string& b : d.backends) add(d.backends.size() == 1 ? alone : combined, b);
  return alone.empty() ? combined : alone;
}

namespace {

// A window of hex around the first difference, so that long outputs stay readable.
std::string window(std::span<const std::uint8_t> bytes, std::size_t at) {
  const std::size_t from = at > 8 ? at - 8 : 0;
  if (from >= bytes.size()) return "(ends at byte " + std::to_string(bytes.size()) + ")";
  const std::size_t len = std::min<std::size_t>(24, bytes.size() - from);
  return "[" + std::to_string(from) + "..] " + to_hex(bytes.subspan(from, len), len);
}

}  // namespace

std::string format_report(const Verdict& verdict, const std::string& plan_description) {
  std::string out;
  out += verdict.ok() ? "== shakedown fuzz: all runs agree ==\n" : "== shakedown fuzz: MISMATCH ==\n";
  out += "subject:   " + verdict.subject + "\n";
  out += "reference: " + verdict.reference + "\n";
  if (!verdict.divergences.empty()) {
    out += "disagree:  ";
    for (std::size_t i = 0; i < verdict.divergences.size(); ++i) out += (i ? ", " : "") + verdict.divergences[i].run;
    out += "\n";
    // The backends charged with the failure (Verdict::culprits): what ci/crash_triage.py files a crash under.
    const std::vector<std::string> blamed = verdict.culprits();
    if (!blamed.empty()) {
      out += "blamed:    ";
      for (std::size_t i = 0; i < blamed.size(); ++i) out += (i ? ", " : "") + blamed[i];
      out += "\n";
    }
  }
  out += "agree:     ";
  if (verdict.agreeing.empty()) out += "(none)";
  for (std::size_t i = 0; i < verdict.agreeing.size(); ++i) out += (i ? ", " : "") + verdict.agreeing[i];
  out += "\nplan:\n" + plan_description;
  for (const Divergence& d : verdict.divergences) {
    out += "-- " + d.run + ": " + d.problem + "\n";
    if (auto at = first_difference(d.got, d.want); at && !(d.got.empty() && d.want.empty())) {
      out += "   first differing byte: " + std::to_string(*at);
      if (*at < d.got.size() && *at < d.want.size()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (got 0x%02x, want 0x%02x)", d.got[*at], d.want[*at]);
        out += buf;
      }
      out += "\n   got:  " + window(d.got, *at) + "\n   want: " + window(d.want, *at) + "\n";
    }
  }
  return out;
}

}  // namespace shakedown::fuzz
