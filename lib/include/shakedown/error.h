// shakedown::Error: the one exception type the API throws, with a machine-readable code.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "shakedown/export.h"

namespace shakedown {

// Every misuse the API can detect maps to one code. The object is left unchanged
// when an Error is thrown (strong guarantee), so a caller can recover.
enum class Errc {
  unknown_algorithm,    // name does not parse as an algorithm, or an Algorithm value outside the enum
  unknown_family,       // name does not parse as a backend family, or a Family value outside the enum
  unknown_backend,      // backend name not compiled into this build for that family
  backend_unavailable,  // backend compiled but this CPU (or its self-test) rules it out
  bad_environment,      // SHAKEDOWN_BACKENDS (or a test override string) is malformed
  unknown_feature,      // CPU feature name in a test override does not exist
  finalized,            // update/final/squeeze on a context that was finalized
  not_xof,              // squeeze on a fixed-length digest
  wrong_phase,          // update on an XOF that already started squeezing
  bad_output_length,    // output length invalid for the algorithm
  null_pointer,         // null pointer with a non-zero length
  message_too_long,     // input exceeds the algorithm's length limit (FIPS 180-4 §1)
  not_hmac_capable,     // HMAC over an XOF (SHAKE) is not defined
};

SHAKEDOWN_API std::string_view errc_name(Errc code) noexcept;

class SHAKEDOWN_API Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message);
  Errc code() const noexcept { return code_; }

 private:
  Errc code_;
};

}  // namespace shakedown
