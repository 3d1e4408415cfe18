// OpenSSL EVP digests by name for the emulator tests.
#include "openssl_ref.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace shakedown::emul::test {

std::vector<std::uint8_t> openssl(const char* name, std::span<const std::uint8_t> data) {
  const EVP_MD* md = EVP_get_digestbyname(name);
  if (md == nullptr) throw std::runtime_error(std::string("OpenSSL has no digest ") + name);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(EVP_MD_get_size(md)));
  unsigned len = 0;
  if (EVP_Digest(data.data(), data.size(), out.data(), &len, md, nullptr) != 1 || len != out.size())
    throw std::runtime_error(std::string("EVP_Digest failed for ") + name);
  return out;
}

}  // namespace shakedown::emul::test
