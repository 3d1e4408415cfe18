// shakedown::Error and the names of its codes.
#include "shakedown/error.h"

namespace shakedown {

std::string_view errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::unknown_algorithm: return "unknown_algorithm";
    case Errc::unknown_family: return "unknown_family";
    case Errc::unknown_backend: return "unknown_backend";
    case Errc::backend_unavailable: return "backend_unavailable";
    case Errc::bad_environment: return "bad_environment";
    case Errc::unknown_feature: return "unknown_feature";
    case Errc::finalized: return "finalized";
    case Errc::not_xof: return "not_xof";
    case Errc::wrong_phase: return "wrong_phase";
    case Errc::bad_output_length: return "bad_output_length";
    case Errc::null_pointer: return "null_pointer";
    case Errc::message_too_long: return "message_too_long";
    case Errc::not_hmac_capable: return "not_hmac_capable";
  }
  return "unknown_error";
}

Error::Error(Errc code, const std::string& message)
    : std::runtime_error("shakedown: " + message), code_(code) {}

}  // namespace shakedown
