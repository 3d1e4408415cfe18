// Where the vector files live and which file belongs to which algorithm.
#pragma once

#include <string>
#include <string_view>

#include "shakedown/algorithm.h"

namespace shakedown::vectors {

enum class FileKind { short_msg, long_msg, monte, variable_out };

// "ShortMsg", "LongMsg", "Monte", "VariableOut": the CAVP file suffix and the record check name.
std::string_view kind_name(FileKind kind);

// $SHAKEDOWN_VECTORS_DIR if set and non-empty, else the absolute vectors/data path baked in at
// configure time (so the binary also works from another cwd, e.g. under qemu-user).
std::string data_dir();

// Absolute path of a file under data_dir(): data_path("nist-cavp-hmac/HMAC.rsp").
std::string data_path(std::string_view relative);

// The CAVP file of an algorithm: nist-cavp-sha2/SHA512_224ShortMsg.rsp, nist-cavp-sha3/SHA3_256Monte.rsp,
// nist-cavp-shake/SHAKE128VariableOut.rsp (variable_out exists for SHAKE only).
std::string cavp_file(Algorithm alg, FileKind kind);
inline constexpr std::string_view kNistHmacFile = "nist-cavp-hmac/HMAC.rsp";

// The Wycheproof HMAC file (wycheproof/hmac_sha512_224_test.json) and the `algorithm` it declares
// ("HMACSHA512/224"). SHAKE has no HMAC: both throw std::invalid_argument for it.
std::string wycheproof_hmac_file(Algorithm alg);
std::string wycheproof_hmac_algorithm(Algorithm alg);

}  // namespace shakedown::vectors
