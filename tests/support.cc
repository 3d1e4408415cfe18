// Test support implementation: parameters, hex, deterministic messages and execution records.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "support.h"

namespace shakedown::test {

std::vector<AlgBackend> all_alg_backends() {
  std::vector<AlgBackend> out;
  for (Algorithm alg : kAllAlgorithms)
    for (const auto& b : available_backends(family_of(alg))) out.push_back({alg, b});
  return out;
}

std::vector<FamilyBackend> all_family_backends() {
  std::vector<FamilyBackend> out;
  for (Family f : kAllFamilies)
    for (const auto& b : available_backends(f)) out.push_back({f, b});
  return out;
}

void PrintTo(const AlgBackend& p, std::ostream* os) { *os << name(p.alg) << " on " << p.backend; }
void PrintTo(const FamilyBackend& p, std::ostream* os) { *os << name(p.family) << " on " << p.backend; }

namespace {
std::string sanitize(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return s;
}
}  // namespace

std::string param_name(const AlgBackend& p) { return sanitize(std::string(name(p.alg))) + "__" + sanitize(p.backend); }
std::string param_name(const FamilyBackend& p) {
  return sanitize(std::string(name(p.family))) + "__" + sanitize(p.backend);
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  if (hex.size() % 2) throw std::invalid_argument("odd-length hex string (" + std::to_string(hex.size()) + " digits)");
  if (auto bytes = parse_hex(hex)) return *std::move(bytes);
  for (char c : hex)
    if (hex_digit_value(c) < 0) throw std::invalid_argument("non-hex character '" + std::string(1, c) + "'");
  throw std::invalid_argument("malformed hex string");  // not reached: parse_hex fails only for the two above
}

std::vector<std::uint8_t> pattern(std::size_t len, std::uint32_t seed) {
  // xorshift32 stream: deterministic, cheap, and unrelated to the hash functions under test.
  std::vector<std::uint8_t> out(len);
  std::uint32_t x = seed * 0x9e3779b9u + 0x6d2b79f5u;
  for (std::size_t i = 0; i < len; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = static_cast<std::uint8_t>(x >> 24);
  }
  return out;
}

namespace {
struct Records {
  std::mutex m;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::uint64_t> counts;
  bool registered = false;
};
Records& records() {
  static Records* r = new Records;  // leaked on purpose: used from atexit
  return *r;
}
}  // namespace

void record(std::string_view suite, Family family, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  if (!r.registered) {
    std::atexit(flush_records);
    r.registered = true;
  }
  r.counts[{std::string(suite), std::string(name(family)), std::string(backend), std::string(check)}] += count;
}

void record(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  record(suite, family_of(alg), backend, std::string(name(alg)) + ":" + std::string(check), count);
}

void record_failure(std::string_view test_name) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  if (!r.registered) {
    std::atexit(flush_records);
    r.registered = true;
  }
  r.counts[{"failure", "", std::string(test_name), ""}] += 1;
}

const char* record_arch() noexcept {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#else
  return "unknown";
#endif
}

bool append_records(const char* path, const char* text, std::size_t len) noexcept {
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  // ctest -j runs many suites at once, all appending here: an exclusive lock keeps each process's lines
  // whole (stdio's buffered appends interleaved mid-line in a -j2 run).
  while (::flock(fd, LOCK_EX) != 0)
    if (errno != EINTR) {
      ::close(fd);
      return false;
    }
  bool ok = true;
  while (len > 0) {
    const ssize_t n = ::write(fd, text, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    text += n;
    len -= static_cast<std::size_t>(n);
  }
  ::flock(fd, LOCK_UN);
  ::close(fd);
  return ok;
}

void flush_records() {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  const char* path = std::getenv("SHAKEDOWN_RECORD");
  if (path == nullptr || *path == '\0' || r.counts.empty()) return;
  const char* env = std::getenv("SHAKEDOWN_ENV_NAME");
  std::string text;
  for (const auto& [key, count] : r.counts) {
    const auto& [suite, family, backend, check] = key;
    // dump() escapes whatever a check name holds. (Keys come out sorted: nlohmann::ordered_json is 3.9+, and the
    // OSS-Fuzz image's Ubuntu 20.04 has 3.7.)
    const nlohmann::json line = {{"suite", suite}, {"family", family}, {"backend", backend}, {"check", check},
                                 {"count", count},  {"env", env ? env : ""}, {"arch", record_arch()}};
    text += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (!append_records(path, text.data(), text.size()))
    std::fprintf(stderr, "shakedown: cannot append execution records to %s\n", path);
  r.counts.clear();
}

void print_backend_row(Family family, std::string_view backend, std::string_view text) noexcept {
  std::printf("  %-7.*s %-16.*s %.*s\n", static_cast<int>(name(family).size()), name(family).data(),
              static_cast<int>(backend.size()), backend.data(), static_cast<int>(text.size()), text.data());
}

bool RecordBuffer::add(std::string_view suite, Family family, std::string_view backend, std::string_view check,
                       unsigned long long count) noexcept {
  char safe_check[256];
  std::size_t n = 0;
  for (char c : check)
    if (n + 1 < sizeof safe_check) safe_check[n++] = (c == '"' || c == '\\') ? '\'' : c;
  const char* env = std::getenv("SHAKEDOWN_ENV_NAME");
  const std::string_view fam = name(family);
  const std::size_t room = sizeof text_ - len_;
  const int written = std::snprintf(
      text_ + len_, room,
      "{\"suite\":\"%.*s\",\"family\":\"%.*s\",\"backend\":\"%.*s\",\"check\":\"%.*s\",\"count\":%llu,"
      "\"env\":\"%s\",\"arch\":\"%s\"}\n",
      static_cast<int>(suite.size()), suite.data(), static_cast<int>(fam.size()), fam.data(),
      static_cast<int>(backend.size()), backend.data(), static_cast<int>(n), safe_check, count, env ? env : "",
      record_arch());
  if (written < 0 || static_cast<std::size_t>(written) >= room) {
    std::fprintf(stderr, "shakedown: record buffer full\n");
    return false;
  }
  len_ += static_cast<std::size_t>(written);
  return true;
}

bool RecordBuffer::add(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
                       unsigned long long count) noexcept {
  char alg_check[128];
  const int n = std::snprintf(alg_check, sizeof alg_check, "%.*s:%.*s", static_cast<int>(name(alg).size()),
                              name(alg).data(), static_cast<int>(check.size()), check.data());
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof alg_check) return false;
  return add(suite, family_of(alg), backend, {alg_check, static_cast<std::size_t>(n)}, count);
}

bool RecordBuffer::report(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
                          unsigned long long count) noexcept {
  char text[64];
  std::snprintf(text, sizeof text, "%-11.*s %llu checks", static_cast<int>(name(alg).size()), name(alg).data(), count);
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

std::size_t scaled(std::size_t iterations, std::size_t minimum) {
  const char* e = std::getenv("SHAKEDOWN_TEST_SCALE");
  double scale = e ? std::strtod(e, nullptr) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  auto n = static_cast<std::size_t>(static_cast<double>(iterations) * scale);
  return n < minimum ? minimum : n;
}

}  // namespace shakedown::test
