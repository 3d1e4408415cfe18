// Shared test support: the OpenSSL oracle, (algorithm, backend) parameters, hex, execution records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shakedown/shakedown.h"

namespace shakedown::test {

// ---- The oracle: OpenSSL EVP where the target has it (oracle_openssl.cc); elsewhere the generic
// backend (oracle_generic.cc), itself verified by the vectors and consolidated checksums ----
bool have_openssl();
const char* oracle_description();
// EVP name of an algorithm ("SHA512-256", "SHAKE128", ...).
const char* openssl_name(Algorithm alg);
// Digest of data; outlen is used for SHAKE (EVP_DigestFinalXOF), must equal digest_size otherwise.
std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data, std::size_t outlen);
std::vector<std::uint8_t> openssl_digest(Algorithm alg, std::span<const std::uint8_t> data);
// HMAC through EVP_MAC.
std::vector<std::uint8_t> openssl_hmac(Algorithm alg, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> data);

// ---- Parameters ----
struct AlgBackend {
  Algorithm alg;
  std::string backend;
};
// Every algorithm x every available backend of its family (emulated ones included once assumed).
std::vector<AlgBackend> all_alg_backends();
// Every available backend name of a family, as "family/name" pairs for family-level suites.
struct FamilyBackend {
  Family family;
  std::string backend;
};
std::vector<FamilyBackend> all_family_backends();
// Readable parameters in gtest failure lines ("sha256 on x86_64/shani").
void PrintTo(const AlgBackend& p, std::ostream* os);
void PrintTo(const FamilyBackend& p, std::ostream* os);
// GoogleTest-safe parameter names: "sha512_256__x86_64_avx2".
std::string param_name(const AlgBackend& p);
std::string param_name(const FamilyBackend& p);

// ---- Bytes ----
using ::shakedown::to_hex;  // shakedown/hex.h
// parse_hex (shakedown/hex.h) that throws std::invalid_argument, naming an odd length or the non-hex character.
std::vector<std::uint8_t> from_hex(std::string_view hex);
// Deterministic test message: byte i of the message of seed s (independent of any hash).
std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed = 0);

// ---- Execution records for the backend coverage gate ----
// Counts that `check` ran `count` times on family/backend. When SHAKEDOWN_RECORD names a file,
// the totals are appended to it at exit as JSON lines:
//   {"suite":"vectors","family":"sha256","backend":"x86_64/shani","check":"ShortMsg","count":65,"env":"..."}
void record(std::string_view suite, Family family, std::string_view backend, std::string_view check,
            std::uint64_t count = 1);
void record(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
            std::uint64_t count = 1);
// Records a failed test by its full name (the parameter suffix names algorithm and backend).
void record_failure(std::string_view test_name);
// The arch the records are tagged with ("x86_64", "aarch64", "s390x", "riscv64"): the target this test binary
// was compiled for, so ci/verify groups its matrix per arch without guessing from environment names.
const char* record_arch() noexcept;
// Appends len bytes of whole record lines to path under an exclusive lock (parallel suites share the file).
// No allocation and no iostreams: tests/msan_check.cc uses it too. False when the file cannot be written.
bool append_records(const char* path, const char* text, std::size_t len) noexcept;
// Writes the records now (also done automatically at exit).
void flush_records();

// The walk of the drivers that must not allocate through libstdc++ (tests/msan_check.cc, tests/ct_check.cc) over
// every compiled backend, family by family in table order: available(family, b) for those this CPU runs,
// unavailable(family, b) for the others.
template <typename Unavailable, typename Available>
void for_each_backend(Unavailable unavailable, Available available) {
  const CpuFeatures& features = cpu_features();
  for (Family family : kAllFamilies)
    visit_family(family, [&]<class T>(T) {
      for (const auto& b : compiled_backends<T::kFamily>()) {
        if (b.info.available(features))
          available(family, b);
        else
          unavailable(family, b);
      }
    });
}
// One row of those drivers' output: "  family  backend  text".
void print_backend_row(Family family, std::string_view backend, std::string_view text) noexcept;

// Record lines in a fixed buffer, for the drivers that must not allocate through libstdc++ (the MSan and
// constant-time drivers, tests/msan_check.cc and tests/ct_check.cc): the same line format as record(), written with
// snprintf rather than nlohmann::json (which allocates); the check text is the only free field and is made safe.
class RecordBuffer {
 public:
  // Formats one line (env from SHAKEDOWN_ENV_NAME); false, with a message, when the buffer is full.
  // check is free text: quotes and backslashes in it become apostrophes, so that the line stays valid JSON.
  bool add(std::string_view suite, Family family, std::string_view backend, std::string_view check,
           unsigned long long count) noexcept;
  // The check of one algorithm, "ALGORITHM:check", like record(suite, alg, ...).
  bool add(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
           unsigned long long count) noexcept;
  // Appends every line to SHAKEDOWN_RECORD when it is set; false, with a message, when it cannot be written.
  bool flush() noexcept;
  // A driver's result for one (algorithm, backend): prints its row "... ALGORITHM  N checks" and adds the record.
  bool report(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
              unsigned long long count) noexcept;

 private:
  char text_[64 * 1024];
  std::size_t len_ = 0;
};

// Iteration scaling: SHAKEDOWN_TEST_SCALE (default 1; ci/verify --deep raises it; QEMU runs lower it
// with values below 1, e.g. 0.1). Never returns less than `minimum`.
std::size_t scaled(std::size_t iterations, std::size_t minimum = 1);

}  // namespace shakedown::test
