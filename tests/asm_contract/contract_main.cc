// Main of every inline-asm contract test: installs the emulator the ctest entry names, runs the checks, reports.
#include <unistd.h>

#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <exception>

#include "contract.h"
#if SHAKEDOWN_CONTRACT_EMUL
#include "emul/emul.h"
#endif

namespace shakedown::asm_contract {

void Report::expect(const char* wrapper, const char* what, std::uint64_t got, std::uint64_t want) {
  ++checks_;
  if (got == want) return;
  ++violations_;
  std::printf("asm contract violated: %s: %s: got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", wrapper, what, got, want);
}

void Report::expect_bytes(const char* wrapper, const char* what, const void* got, const void* want, std::size_t n) {
  ++checks_;
  if (std::memcmp(got, want, n) == 0) return;
  ++violations_;
  const auto* g = static_cast<const std::uint8_t*>(got);
  const auto* w = static_cast<const std::uint8_t*>(want);
  std::size_t i = 0;
  while (g[i] == w[i]) ++i;
  std::printf("asm contract violated: %s: %s: byte %zu of %zu is 0x%02x, want 0x%02x\n", wrapper, what, i, n, g[i],
              w[i]);
}

namespace {

const char* volatile g_running = "(none yet)";

void report_fatal_signal(int sig) {
  // Async-signal-safe: write(2) only, then the default action (the exit status still says which signal).
  const char* parts[] = {"asm contract violated: ", g_running, ": fatal signal ", nullptr,
                         " (a register its caller relied on was lost)\n"};
  char number[4] = {static_cast<char>('0' + sig / 10 % 10), static_cast<char>('0' + sig % 10), 0, 0};
  parts[3] = sig >= 10 ? number : number + 1;
  for (const char* p : parts) (void)!write(STDOUT_FILENO, p, std::strlen(p));
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void Report::running(const char* wrapper) { g_running = wrapper; }

void Report::fail(const char* wrapper, const char* why) {
  ++checks_;
  ++violations_;
  std::printf("asm contract not checked: %s: %s\n", wrapper, why);
}

void Pressure::reset(std::uint64_t seed) {
  for (int i = 0; i < kLive; ++i) in[i] = (seed + static_cast<std::uint64_t>(i)) * 0x9e3779b97f4a7c15u | 1;
}

void Pressure::check(Report& report, const char* wrapper) const {
  static const char* const kNames[kLive] = {
      "live value 0",  "live value 1",  "live value 2",  "live value 3",  "live value 4",  "live value 5",
      "live value 6",  "live value 7",  "live value 8",  "live value 9",  "live value 10", "live value 11",
      "live value 12", "live value 13", "live value 14", "live value 15", "live value 16", "live value 17",
      "live value 18", "live value 19", "live value 20", "live value 21", "live value 22", "live value 23",
      "live value 24", "live value 25", "live value 26", "live value 27", "live value 28", "live value 29",
      "live value 30", "live value 31"};
  for (int i = 0; i < kLive; ++i) report.expect(wrapper, kNames[i], out[i], in[i]);
}

namespace {
volatile std::uint8_t g_escaped;
}  // namespace
void escape(const std::uint8_t* p) { g_escaped = p[0]; }

}  // namespace shakedown::asm_contract

int main(int argc, char** argv) {
  using namespace shakedown::asm_contract;
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // every line out before a fatal signal
  // Before the emulator: it passes the SIGILLs it does not emulate on to this handler.
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP}) std::signal(sig, report_fatal_signal);
  try {
#if SHAKEDOWN_CONTRACT_EMUL
    // SHAKEDOWN_EMULATE (and SHAKEDOWN_EMULATE_REQUIRE, checked at exit) as in every test main.
    const std::string emulated = shakedown::emul::install_from_environment();
    if (!emulated.empty()) std::fprintf(stderr, "emulating (test-only SIGILL handler): %s\n", emulated.c_str());
#endif
    Report report;
    run_contracts(report, std::span<char* const>(argv + 1, argv + argc));
    std::printf("%d checks, %d violations\n", report.checks(), report.violations());
    return report.violations() == 0 && report.checks() > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "asm contract test: %s\n", e.what());
    return 2;
  }
}
