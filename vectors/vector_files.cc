// Where the vector files live and which file belongs to which algorithm.
#include "vector_files.h"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

#ifndef SHAKEDOWN_VECTORS_DIR_DEFAULT
#error "vectors/CMakeLists.txt defines SHAKEDOWN_VECTORS_DIR_DEFAULT (the absolute vectors/data path)"
#endif

namespace shakedown::vectors {

namespace {

// The canonical name with '-' replaced: "sha512-256" -> "sha512_256", "sha3-256" -> "sha3_256".
std::string with_separator(Algorithm alg, char separator) {
  std::string s(name(alg));
  for (char& c : s)
    if (c == '-') c = separator;
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void require_hmac_capable(Algorithm alg) {
  if (is_xof(alg)) throw std::invalid_argument("no HMAC vectors for " + std::string(name(alg)));
}

}  // namespace

std::string_view kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::short_msg: return "ShortMsg";
    case FileKind::long_msg: return "LongMsg";
    case FileKind::monte: return "Monte";
    case FileKind::variable_out: return "VariableOut";
  }
  return "";
}

std::string data_dir() {
  const char* env = std::getenv("SHAKEDOWN_VECTORS_DIR");
  return env && *env ? env : SHAKEDOWN_VECTORS_DIR_DEFAULT;
}

std::string data_path(std::string_view relative) { return data_dir() + "/" + std::string(relative); }

std::string cavp_file(Algorithm alg, FileKind kind) {
  // The byte-oriented CAVP archives: SHAVS (SHA-2), SHA3VS (SHA-3 and SHAKE).
  std::string folder = family_of(alg) != Family::keccak ? "nist-cavp-sha2" : is_xof(alg) ? "nist-cavp-shake"
                                                                                          : "nist-cavp-sha3";
  return data_path(folder + "/" + upper(with_separator(alg, '_')) + std::string(kind_name(kind)) + ".rsp");
}

std::string wycheproof_hmac_file(Algorithm alg) {
  require_hmac_capable(alg);
  return data_path("wycheproof/hmac_" + with_separator(alg, '_') + "_test.json");
}

std::string wycheproof_hmac_algorithm(Algorithm alg) {
  require_hmac_capable(alg);
  // Wycheproof spells SHA-512/t with a slash and SHA-3 with a dash: HMACSHA512/224, HMACSHA3-224.
  return "HMAC" + upper(with_separator(alg, family_of(alg) == Family::keccak ? '-' : '/'));
}

}  // namespace shakedown::vectors
