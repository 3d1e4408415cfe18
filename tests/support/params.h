// The (algorithm, backend) and (family, backend) parameters of every backend-parameterised suite, and their
// GoogleTest names. The name format "<algorithm or family>__<backend>" is written here only; the coverage
// report parses it (ci/results.py), so a failing test's cell can be found from its name alone.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/shakedown.h"

namespace shakedown::test {

struct AlgBackend {
  Algorithm alg;
  std::string backend;
};
struct FamilyBackend {
  Family family;
  std::string backend;
};
// Every algorithm x every available backend of its family (emulated ones included once assumed).
std::vector<AlgBackend> all_alg_backends();
// Every available backend of every family.
std::vector<FamilyBackend> all_family_backends();
// Readable parameters in gtest failure lines ("sha256 on x86_64/shani").
void PrintTo(const AlgBackend& p, std::ostream* os);
void PrintTo(const FamilyBackend& p, std::ostream* os);
// GoogleTest-safe parameter names: "sha512_256__x86_64_avx2", "keccak__x86_64_bmi2" (every character
// outside [A-Za-z0-9] becomes '_', the two parts are joined by "__").
std::string param_name(const AlgBackend& p);
std::string param_name(const FamilyBackend& p);
std::string param_name(std::string_view alg_or_family, std::string_view backend);

}  // namespace shakedown::test
