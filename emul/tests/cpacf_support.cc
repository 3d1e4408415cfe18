// Helpers shared by the CPACF tests: the QEMU query, the SHAKE oracle, test patterns.
#include <openssl/evp.h>

#include <stdexcept>

#include "cpacf_caller.h"

namespace shakedown::emul::test {

bool qemu_implements(std::uint32_t opcode, unsigned fc) {
  std::uint8_t vector[16] = {};
  if (opcode == kKimd)
    cpacf<kKimd>(0, vector, nullptr, 0);
  else
    cpacf<kKlmd>(0, vector, nullptr, 0);
  return (vector[fc >> 3] & (0x80u >> (fc & 7))) != 0;
}

std::vector<std::uint8_t> openssl_xof(const char* name, std::span<const std::uint8_t> data, std::size_t outlen) {
  const EVP_MD* md = EVP_get_digestbyname(name);
  if (md == nullptr) throw std::runtime_error(std::string("OpenSSL has no digest ") + name);
  std::vector<std::uint8_t> out(outlen);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, md, nullptr) == 1 &&
                  EVP_DigestUpdate(ctx, data.data(), data.size()) == 1 &&
                  EVP_DigestFinalXOF(ctx, out.data(), outlen) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) throw std::runtime_error(std::string("EVP XOF failed for ") + name);
  return out;
}

std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed) {
  std::vector<std::uint8_t> v(len);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return v;
}

}  // namespace shakedown::emul::test
