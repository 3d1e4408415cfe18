// Execution records: counts per (suite, family, backend, check), compiled backends and charged failures,
// appended to $SHAKEDOWN_RECORD at exit as JSON lines for the coverage gate.
#include "records.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "shakedown/backend.h"

namespace shakedown::test {

namespace {
struct Records {
  std::mutex m;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::uint64_t> counts;
  std::vector<std::pair<std::string, std::string>> charges;  // (family, backend) blamed in the running test
  bool registered = false;
};
Records& records() {
  static Records* r = new Records;  // leaked on purpose: used from atexit
  return *r;
}

// Adds to a count; the caller holds the lock.
void add(Records& r, std::string suite, std::string family, std::string backend, std::string check,
         std::uint64_t count) {
  if (!r.registered) {
    std::atexit(flush_records);
    r.registered = true;
  }
  r.counts[{std::move(suite), std::move(family), std::move(backend), std::move(check)}] += count;
}
}  // namespace

void record(std::string_view suite, Family family, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  add(r, std::string(suite), std::string(name(family)), std::string(backend), std::string(check), count);
}

void record(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
            std::uint64_t count) {
  record(suite, family_of(alg), backend, std::string(name(alg)) + ":" + std::string(check), count);
}

void record_compiled_backends() {
  for (Family f : kAllFamilies)
    for (const BackendStatus& b : backends(f)) record("compiled", f, b.name, b.available ? "available" : "unavailable");
}

void charge_failure(Family family, std::string_view backend) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  std::pair<std::string, std::string> charge{std::string(name(family)), std::string(backend)};
  for (const auto& c : r.charges)
    if (c == charge) return;
  r.charges.push_back(std::move(charge));
}

void clear_charges() {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  r.charges.clear();
}

void record_failure(std::string_view test_name) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.m);
  if (r.charges.empty()) add(r, "failure", "", "", std::string(test_name), 1);
  for (const auto& [family, backend] : r.charges) add(r, "failure", family, backend, std::string(test_name), 1);
  r.charges.clear();
}

const char* record_arch() noexcept { return SHAKEDOWN_RECORD_ARCH; }

namespace {
// Appends s as a JSON string (quotes, backslashes and control characters escaped); false when out of room.
bool put_json_string(char* buf, std::size_t room, std::size_t& at, std::string_view s) noexcept {
  auto put = [&](char c) {
    if (at + 1 >= room) return false;
    buf[at++] = c;
    return true;
  };
  if (!put('"')) return false;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      if (!put('\\') || !put(static_cast<char>(c))) return false;
    } else if (c < 0x20) {
      static constexpr char kDigits[] = "0123456789abcdef";
      for (char e : {'\\', 'u', '0', '0', kDigits[c >> 4], kDigits[c & 15]})
        if (!put(e)) return false;
    } else if (!put(static_cast<char>(c))) {
      return false;
    }
  }
  return put('"');
}
}  // namespace

std::size_t format_record(char* buf, std::size_t room, std::string_view suite, std::string_view family,
                          std::string_view backend, std::string_view check, std::uint64_t count,
                          const char* env) noexcept {
  std::size_t at = 0;
  auto put_text = [&](std::string_view t) {
    if (at + t.size() >= room) return false;
    for (char c : t) buf[at++] = c;
    return true;
  };
  char number[24];
  std::snprintf(number, sizeof number, "%llu", static_cast<unsigned long long>(count));
  const bool ok = put_text("{\"suite\":") && put_json_string(buf, room, at, suite) && put_text(",\"family\":") &&
                  put_json_string(buf, room, at, family) && put_text(",\"backend\":") &&
                  put_json_string(buf, room, at, backend) && put_text(",\"check\":") &&
                  put_json_string(buf, room, at, check) && put_text(",\"count\":") && put_text(number) &&
                  put_text(",\"env\":") && put_json_string(buf, room, at, env ? env : "") && put_text(",\"arch\":") &&
                  put_json_string(buf, room, at, record_arch()) && put_text("}\n");
  if (!ok) return 0;
  buf[at] = '\0';
  return at;
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
    const nlohmann::json line = {{"suite", suite}, {"family", family},      {"backend", backend},   {"check", check},
                                 {"count", count}, {"env", env ? env : ""}, {"arch", record_arch()}};
    text += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (!append_records(path, text.data(), text.size()))
    std::fprintf(stderr, "shakedown: cannot append execution records to %s\n", path);
  r.counts.clear();
}

}  // namespace shakedown::test
