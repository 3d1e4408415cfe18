// The backend parameters of the suites and their GoogleTest names.
#include "params.h"

namespace shakedown::test {

std::vector<AlgBackend> all_alg_backends() {
  std::vector<AlgBackend> out;
  for (Algorithm alg : kAllAlgorithms)
    for (const auto& b : available_backends(family_of(alg))) out.push_back({alg, b});
  return out;
}

std::vector<FamilyBackend> all_family_backends() {
  std::vector<FamilyBackend> out;
  for (Family f : kAllFamilies)
    for (const auto& b : available_backends(f)) out.push_back({f, b});
  return out;
}

void PrintTo(const AlgBackend& p, std::ostream* os) { *os << name(p.alg) << " on " << p.backend; }
void PrintTo(const FamilyBackend& p, std::ostream* os) { *os << name(p.family) << " on " << p.backend; }

namespace {
std::string sanitize(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return out;
}
}  // namespace

std::string param_name(std::string_view alg_or_family, std::string_view backend) {
  return sanitize(alg_or_family) + "__" + sanitize(backend);
}
std::string param_name(const AlgBackend& p) { return param_name(name(p.alg), p.backend); }
std::string param_name(const FamilyBackend& p) { return param_name(name(p.family), p.backend); }

}  // namespace shakedown::test
