// What the drivers that must not allocate through libstdc++ share (tests/msan_check.cc, tests/ct_check.cc):
// the walk over every compiled backend, their output rows, and execution records in a fixed buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shakedown/algorithm.h"
#include "shakedown/backend.h"

namespace shakedown::test {

// Every compiled backend, family by family in table order: available(family, b) for those this CPU runs,
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

// Record lines in a fixed buffer, in the format of record() (format_record, records.h).
class RecordBuffer {
 public:
  // Adds one line (env from SHAKEDOWN_ENV_NAME); false, with a message, when the buffer is full.
  bool add(std::string_view suite, Family family, std::string_view backend, std::string_view check,
           std::uint64_t count) noexcept;
  // The check of one algorithm, "ALGORITHM:check", like record(suite, alg, ...).
  bool add(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
           std::uint64_t count) noexcept;
  // A failure charged to alg's family/backend (suite "failure", check "<entry>: ALGORITHM"), as record_failure()
  // writes for a GoogleTest test whose output was wrong.
  bool add_failure(std::string_view entry, Algorithm alg, std::string_view backend) noexcept;
  // A driver's result for one (algorithm, backend): prints its row "... ALGORITHM  N checks" and adds the record.
  bool report(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
              std::uint64_t count) noexcept;
  // Appends every line to SHAKEDOWN_RECORD when it is set; false, with a message, when it cannot be written.
  bool flush() noexcept;

 private:
  char text_[64 * 1024];
  std::size_t len_ = 0;
};

}  // namespace shakedown::test
