// The host facts a benchmark result depends on: the CPU as the kernel and the registry see it, and OpenSSL's build.
#include "host_record.h"

#include <openssl/crypto.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "shakedown/cpu.h"

namespace shakedown::bench {
namespace {

// The first "model name" (x86) or "cpu model" (s390x, some others) line of /proc/cpuinfo; "unknown" elsewhere.
std::string kernel_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0 && line.rfind("cpu model", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    const auto end = line.find_last_not_of(" \t\r");
    if (start != std::string::npos && end >= start) return line.substr(start, end + 1 - start);
  }
  return "unknown";
}

// The 1-, 5- and 15-minute load averages when the run starts (/proc/loadavg): above the core count, other work
// shared the cores and the ratios are less sure (bench/README.md).
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  return one + " " + five + " " + fifteen;
}

std::string cpu_id(const CpuFeatures& cpu) {
  if (cpu.vendor.empty()) return "unknown";
  char text[64];
  std::snprintf(text, sizeof text, " %02Xh/%02Xh", cpu.family, cpu.model);
  return cpu.vendor + text;
}

std::string feature_names(const CpuFeatures& cpu) {
  std::string names;
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i) {
    const auto f = static_cast<CpuFeature>(i);
    if (cpu.has(f)) names += (names.empty() ? "" : " ") + std::string(feature_name(f));
  }
  return names.empty() ? "none" : names;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> host_record() {
  const CpuFeatures& cpu = cpu_features();
  const char* ia32cap = std::getenv("OPENSSL_ia32cap");
  return {{"host_cpu", kernel_cpu_model()},
          {"host_cpu_id", cpu_id(cpu)},
          {"host_cpu_features", feature_names(cpu)},
          {"host_cores", std::to_string(std::thread::hardware_concurrency())},
          {"host_load", load_average()},
          {"openssl_version", OpenSSL_version(OPENSSL_VERSION)},
          {"openssl_cpu_info", OpenSSL_version(OPENSSL_CPU_INFO)},
          {"openssl_ia32cap", ia32cap ? ia32cap : "unset"}};
}

}  // namespace shakedown::bench
