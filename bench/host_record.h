// What a speed figure depends on besides our code: the CPU (model string, family/model, features) and OpenSSL.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace shakedown::bench {

// Name/value pairs, in a fixed order, that go into Google Benchmark's context and the ratio table's JSON:
//   host_cpu            the kernel's model string ("AMD EPYC 7B13"; /proc/cpuinfo "model name"), or "unknown"
//   host_cpu_id         vendor, display family and model as the registry reads CPUID ("AuthenticAMD 19h/01h")
//   host_cpu_features   every feature the registry detected, by its name (shakedown/cpu.h), space-separated
//   host_cores          online logical CPUs (std::thread::hardware_concurrency)
//   host_load           the 1/5/15-minute load averages at the start (/proc/loadavg), or "unknown": how quiet it was
//   openssl_version     OpenSSL_version(OPENSSL_VERSION) of the library linked in
//   openssl_cpu_info    OpenSSL_version(OPENSSL_CPU_INFO): the capability vector its own dispatch reads
//                       ("CPUINFO: OPENSSL_ia32cap=0x...:0x..."), i.e. which of its code paths runs
//   openssl_ia32cap     the OPENSSL_ia32cap environment override in effect, or "unset"
std::vector<std::pair<std::string, std::string>> host_record();

}  // namespace shakedown::bench
