// The emulator tests' names for the shared test support (tests/support/): guard pages, hex, test messages and
// OpenSSL digests by EVP name (SHA-1 included, which is no library algorithm).
#pragma once

#include "bytes.h"
#include "guarded.h"
#include "openssl.h"

namespace shakedown::emul::test {

using shakedown::test::GuardedBuffer;
using shakedown::test::openssl_evp;
using shakedown::test::pattern;
using shakedown::test::to_hex;

}  // namespace shakedown::emul::test
