// The algorithm table (FIPS 180-4 §1 and FIPS 202 §6) and name parsing.
#include "shakedown/algorithm.h"

#include <string>

#include "shakedown/error.h"

namespace shakedown {
namespace {

struct AlgorithmRow {
  Algorithm alg;
  std::string_view name;
  Family family;
  std::size_t digest;
  std::size_t block;  // SHA-2 block; SHA-3 rate = 200 - 2*capacity/8 (FIPS 202 §6)
  bool xof;
};

constexpr AlgorithmRow kRows[] = {
    {Algorithm::sha224, "sha224", Family::sha256, 28, 64, false},
    {Algorithm::sha256, "sha256", Family::sha256, 32, 64, false},
    {Algorithm::sha384, "sha384", Family::sha512, 48, 128, false},
    {Algorithm::sha512, "sha512", Family::sha512, 64, 128, false},
    {Algorithm::sha512_224, "sha512-224", Family::sha512, 28, 128, false},
    {Algorithm::sha512_256, "sha512-256", Family::sha512, 32, 128, false},
    {Algorithm::sha3_224, "sha3-224", Family::keccak, 28, 144, false},
    {Algorithm::sha3_256, "sha3-256", Family::keccak, 32, 136, false},
    {Algorithm::sha3_384, "sha3-384", Family::keccak, 48, 104, false},
    {Algorithm::sha3_512, "sha3-512", Family::keccak, 64, 72, false},
    {Algorithm::shake128, "shake128", Family::keccak, 32, 168, true},
    {Algorithm::shake256, "shake256", Family::keccak, 64, 136, true},
};
static_assert(std::size(kRows) == kAllAlgorithms.size());

// Every entry point that takes an Algorithm goes through here: a value outside the enumeration (a cast
// from an untrusted integer) is an error, never an out-of-bounds read.
const AlgorithmRow& row(Algorithm alg) {
  const auto i = static_cast<std::size_t>(alg);
  if (i >= std::size(kRows))
    throw Error(Errc::unknown_algorithm,
                "Algorithm value " + std::to_string(i) + " is not a shakedown::Algorithm (valid: 0.." +
                    std::to_string(std::size(kRows) - 1) + ")");
  return kRows[i];
}

// Lower-case, and fold the separators people use ("SHA512/256", "sha3_256", "SHA-256").
std::string normalize(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '_' || c == '/') c = '-';
    out.push_back(c);
  }
  return out;
}

template <class T, class Names>
std::string valid_names(const Names& all) {
  std::string out;
  for (T v : all) out += (out.empty() ? "" : ", ") + std::string(name(v));
  return out;
}

}  // namespace

std::string_view name(Algorithm alg) { return row(alg).name; }

std::string_view name(Family family) {
  switch (family) {
    case Family::sha256: return "sha256";
    case Family::sha512: return "sha512";
    case Family::keccak: return "keccak";
  }
  throw Error(Errc::unknown_family, "Family value " + std::to_string(static_cast<unsigned>(family)) +
                                        " is not a shakedown::Family (valid: 0.." +
                                        std::to_string(kAllFamilies.size() - 1) + ")");
}

std::optional<Algorithm> parse_algorithm(std::string_view text) noexcept {
  try {
    std::string n = normalize(text);
    for (const auto& r : kRows) {
      if (n == r.name) return r.alg;
      // "sha-256", "sha-512-256": SHA-2 names with a dash after "sha".
      if (r.family != Family::keccak && n == "sha-" + std::string(r.name.substr(3))) return r.alg;
    }
  } catch (...) {  // allocation failure: treat as unparsable
  }
  return std::nullopt;
}

std::optional<Family> parse_family(std::string_view text) noexcept {
  try {
    std::string n = normalize(text);
    for (Family f : kAllFamilies)
      if (n == name(f)) return f;
  } catch (...) {
  }
  return std::nullopt;
}

Algorithm algorithm_from_name(std::string_view text) {
  if (auto a = parse_algorithm(text)) return *a;
  throw Error(Errc::unknown_algorithm, "unknown algorithm '" + std::string(text) +
                                           "' (valid: " + valid_names<Algorithm>(kAllAlgorithms) + ")");
}

Family family_from_name(std::string_view text) {
  if (auto f = parse_family(text)) return *f;
  throw Error(Errc::unknown_family, "unknown backend family '" + std::string(text) +
                                        "' (valid: " + valid_names<Family>(kAllFamilies) + ")");
}

Family family_of(Algorithm alg) { return row(alg).family; }
bool is_xof(Algorithm alg) { return row(alg).xof; }
std::size_t digest_size(Algorithm alg) { return row(alg).digest; }
std::size_t block_size(Algorithm alg) { return row(alg).block; }

}  // namespace shakedown
