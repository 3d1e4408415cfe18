// The no-allocation drivers' rows and record buffer (drivers.h): fixed buffers and stdio only.
#include "drivers.h"

#include <cstdio>
#include <cstdlib>

#include "records.h"

namespace shakedown::test {

void print_backend_row(Family family, std::string_view backend, std::string_view text) noexcept {
  std::printf("  %-7.*s %-16.*s %.*s\n", static_cast<int>(name(family).size()), name(family).data(),
              static_cast<int>(backend.size()), backend.data(), static_cast<int>(text.size()), text.data());
}

bool RecordBuffer::add(std::string_view suite, Family family, std::string_view backend, std::string_view check,
                       std::uint64_t count) noexcept {
  const std::size_t written = format_record(text_ + len_, sizeof text_ - len_, suite, name(family), backend, check,
                                            count, std::getenv("SHAKEDOWN_ENV_NAME"));
  if (written == 0) {
    std::fprintf(stderr, "shakedown: record buffer full\n");
    return false;
  }
  len_ += written;
  return true;
}

namespace {
// "<head><separator>ALGORITHM" or "ALGORITHM<separator><tail>" into buf; empty when it does not fit.
std::string_view join(char (&buf)[160], std::string_view first, std::string_view separator,
                      std::string_view second) noexcept {
  const int n = std::snprintf(buf, sizeof buf, "%.*s%.*s%.*s", static_cast<int>(first.size()), first.data(),
                              static_cast<int>(separator.size()), separator.data(), static_cast<int>(second.size()),
                              second.data());
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof buf) return {};
  return {buf, static_cast<std::size_t>(n)};
}
}  // namespace

bool RecordBuffer::add(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
                       std::uint64_t count) noexcept {
  char buf[160];
  const std::string_view alg_check = join(buf, name(alg), ":", check);
  return !alg_check.empty() && add(suite, family_of(alg), backend, alg_check, count);
}

bool RecordBuffer::add_failure(std::string_view entry, Algorithm alg, std::string_view backend) noexcept {
  char buf[160];
  const std::string_view check = join(buf, entry, ": ", name(alg));
  return !check.empty() && add("failure", family_of(alg), backend, check, 1);
}

bool RecordBuffer::report(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
                          std::uint64_t count) noexcept {
  char text[64];
  std::snprintf(text, sizeof text, "%-11.*s %llu checks", static_cast<int>(name(alg).size()), name(alg).data(),
                static_cast<unsigned long long>(count));
  print_backend_row(family_of(alg), backend, text);
  return add(suite, alg, backend, check, count);
}

bool RecordBuffer::flush() noexcept {
  const char* path = std::getenv("SHAKEDOWN_RECORD");
  if (path == nullptr || *path == '\0') return true;
  if (!append_records(path, text_, len_)) {
    std::fprintf(stderr, "shakedown: cannot append execution records to %s\n", path);
    return false;
  }
  len_ = 0;
  return true;
}

}  // namespace shakedown::test
