// The registry's interface to the framing: the default backend per family, chosen once.
#pragma once

#include "shakedown/backend.h"

namespace shakedown::internal {

// The selected backend for new contexts; throws Errc::bad_environment if SHAKEDOWN_BACKENDS is bad.
const Sha256Backend& default_sha256_backend();
const Sha512Backend& default_sha512_backend();
const KeccakBackend& default_keccak_backend();

}  // namespace shakedown::internal
