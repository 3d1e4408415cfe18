// shakedown_insn_count: hashes one message a given number of times with one implementation, for counting
// instructions under QEMU (bench/qemu_insn_ratio.py), where wall time measures the translator, not the code.
//
//   shakedown_insn_count ALGORITHM IMPLEMENTATION LENGTH CALLS [MESSAGES]
//
// IMPLEMENTATION is `openssl` (EVP, as bench/openssl_ref.cc calls it) or one of our backend names. With MESSAGES
// (default 1) a call hashes that many messages of LENGTH bytes, as the bench's `-xN` cases do: OpenSSL one after
// another, ours in one hash_many() through the backend's lanes. Everything
// before the loop (loading, OpenSSL's provider fetch, the message) is the same whatever CALLS is, so the
// difference between two counts of different CALLS is the hashing alone. Prints one line: the digest's first
// bytes, which keeps the work observable and lets the caller check that both implementations agree.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "openssl_ref.h"
#include "shakedown/algorithm.h"
#include "shakedown/hash.h"

namespace {

long positive_number(const char* text, const char* what) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0) {
    std::fprintf(stderr, "shakedown_insn_count: %s must be a number >= 0, not '%s'\n", what, text);
    std::exit(2);
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace shakedown;
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: shakedown_insn_count ALGORITHM openssl|BACKEND LENGTH CALLS [MESSAGES]\n");
    return 2;
  }
  const Algorithm alg = algorithm_from_name(argv[1]);
  const std::string_view impl = argv[2];
  const long length = positive_number(argv[3], "LENGTH");
  const long calls = positive_number(argv[4], "CALLS");
  const long messages = argc == 6 ? positive_number(argv[5], "MESSAGES") : 1;
  if (messages == 0) {
    std::fprintf(stderr, "shakedown_insn_count: MESSAGES must be at least 1\n");
    return 2;
  }
  const auto n = static_cast<std::size_t>(messages);
  const auto len = static_cast<std::size_t>(length);

  std::vector<std::uint8_t> data(n * len);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  const std::size_t outlen = is_xof(alg) ? 32 : digest_size(alg);
  std::vector<std::uint8_t> digests(n * outlen);
  std::vector<std::span<const std::uint8_t>> msgs;
  std::vector<std::span<std::uint8_t>> outs;
  for (std::size_t i = 0; i < n; ++i) {
    msgs.emplace_back(data.data() + i * len, len);
    outs.emplace_back(digests.data() + i * outlen, outlen);
  }

  if (impl == "openssl") {
    const EVP_MD* md = bench::openssl_md(alg);
    for (long c = 0; c < calls; ++c)
      for (std::size_t i = 0; i < n; ++i) bench::openssl_oneshot(alg, md, msgs[i].data(), len, outs[i].data(), outlen);
  } else if (n == 1) {
    for (long c = 0; c < calls; ++c) hash(alg, impl, msgs[0], outs[0]);
  } else {
    for (long c = 0; c < calls; ++c) hash_many(alg, impl, msgs, outs);
  }
  // The last message's digest: equal for two implementations only if both hashed it right.
  const std::span<const std::uint8_t> digest = outs.back();
  for (std::size_t i = 0; i < 8 && i < digest.size(); ++i) std::printf("%02x", digest[i]);
  std::printf("\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "shakedown_insn_count: %s\n", e.what());
  return 2;
}
