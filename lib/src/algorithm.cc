// The algorithm table (FIPS 180-4 §1 and FIPS 202 §6) and name parsing.
#include "shakedown/algorithm.h"

#include <string>

#include "internal/algorithm_spec.h"
#include "internal/message_text.h"
#include "shakedown/error.h"

namespace shakedown {
namespace {

// FIPS 180-4 §5.3.2 - §5.3.6 initial hash values.
constexpr std::uint32_t kIv224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                     0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};
constexpr std::uint32_t kIv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
constexpr std::uint64_t kIv384[8] = {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
                                     0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4};
constexpr std::uint64_t kIv512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                     0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr std::uint64_t kIv512_224[8] = {0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82,
                                         0x679dd514582f9fcf, 0x0f6d2b697bd44da8, 0x77e36f7304c48942,
                                         0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1};
constexpr std::uint64_t kIv512_256[8] = {0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151,
                                         0x963877195940eabd, 0x96283ee2a88effe3, 0xbe5e1e2553863992,
                                         0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2};

constexpr std::uint8_t kSha3 = 0x06, kShake = 0x1f;  // FIPS 202 §6.1 suffix 01, §6.2 suffix 1111, then a 1 pad bit

using internal::AlgorithmSpec;
constexpr AlgorithmSpec kRows[] = {
    {Algorithm::sha224, "sha224", Family::sha256, 28, 64, false, kIv224, nullptr, 0},
    {Algorithm::sha256, "sha256", Family::sha256, 32, 64, false, kIv256, nullptr, 0},
    {Algorithm::sha384, "sha384", Family::sha512, 48, 128, false, nullptr, kIv384, 0},
    {Algorithm::sha512, "sha512", Family::sha512, 64, 128, false, nullptr, kIv512, 0},
    {Algorithm::sha512_224, "sha512-224", Family::sha512, 28, 128, false, nullptr, kIv512_224, 0},
    {Algorithm::sha512_256, "sha512-256", Family::sha512, 32, 128, false, nullptr, kIv512_256, 0},
    {Algorithm::sha3_224, "sha3-224", Family::keccak, 28, 144, false, nullptr, nullptr, kSha3},
    {Algorithm::sha3_256, "sha3-256", Family::keccak, 32, 136, false, nullptr, nullptr, kSha3},
    {Algorithm::sha3_384, "sha3-384", Family::keccak, 48, 104, false, nullptr, nullptr, kSha3},
    {Algorithm::sha3_512, "sha3-512", Family::keccak, 64, 72, false, nullptr, nullptr, kSha3},
    {Algorithm::shake128, "shake128", Family::keccak, 32, 168, true, nullptr, nullptr, kShake},
    {Algorithm::shake256, "shake256", Family::keccak, 64, 136, true, nullptr, nullptr, kShake},
};
static_assert(std::size(kRows) == kAllAlgorithms.size());
static_assert(
    [] {
      for (std::size_t i = 0; i < std::size(kRows); ++i)
        if (kRows[i].alg != kAllAlgorithms[i] || static_cast<std::size_t>(kRows[i].alg) != i) return false;
      return true;
    }(),
    "row i describes Algorithm value i");

// Every entry point that takes an Algorithm goes through here: a value outside the enumeration (a cast
// from an untrusted integer) is an error, never an out-of-bounds read.
const AlgorithmSpec& row(Algorithm alg) {
  const auto i = static_cast<std::size_t>(alg);
  if (i >= std::size(kRows))
    throw Error(Errc::unknown_algorithm, "Algorithm value " + std::to_string(i) +
                                             " is not a shakedown::Algorithm (valid: 0.." +
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

const internal::AlgorithmSpec& internal::spec(Algorithm alg) { return row(alg); }

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
  throw Error(Errc::unknown_algorithm, "unknown algorithm '" + internal::shown_input(text) +
                                           "' (valid: " + valid_names<Algorithm>(kAllAlgorithms) + ")");
}

Family family_from_name(std::string_view text) {
  if (auto f = parse_family(text)) return *f;
  throw Error(Errc::unknown_family, "unknown backend family '" + internal::shown_input(text) +
                                        "' (valid: " + valid_names<Family>(kAllFamilies) + ")");
}

Family family_of(Algorithm alg) { return row(alg).family; }
bool is_xof(Algorithm alg) { return row(alg).xof; }
std::size_t digest_size(Algorithm alg) { return row(alg).digest; }
std::size_t block_size(Algorithm alg) { return row(alg).block; }

}  // namespace shakedown
