// The oracle on targets without OpenSSL (SHAKEDOWN_ORACLE_OPENSSL=OFF): the generic backend, which the same run
// verifies against the NIST/Wycheproof vectors and the checked-in consolidated checksums (vectors/).
// Comparisons of a hardware backend against it stay meaningful; generic against itself is vacuous,
// which is why those two vector suites are the oracle there.
#include "oracle.h"
#include "shakedown/hash.h"
#include "shakedown/hmac.h"

namespace shakedown::test {

bool have_openssl() { return false; }
const char* oracle_description() {
  return "the generic backend (no OpenSSL on this target); generic itself is checked by the vectors and "
         "the consolidated checksums";
}

const char* openssl_name(Algorithm alg) { return name(alg).data(); }

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen) {
  Hasher h(alg, "generic");
  h.update(data);
  std::vector<std::uint8_t> out(outlen);
  h.final(out);
  return out;
}

std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data) {
  return openssl_digest(alg, data, digest_size(alg));
}

std::vector<std::uint8_t> openssl_hmac(Algorithm alg, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> data) {
  Hmac m(alg, key, "generic");
  m.update(data);
  return m.final();
}

}  // namespace shakedown::test
