// Test-only trap-and-emulate: a SIGILL handler that runs instructions this CPU (or QEMU) lacks.
//
// The backend's real inline asm executes unmodified; when the CPU raises #UD the handler decodes the
// instruction from the signal context, performs its architectural effect (registers and memory) with an
// independent model, and resumes. Never linked into the library: the library never installs a handler.
// Design, profiles and measured costs: emul/README.md. Semantics: specs/instructions.md §0, §1.5.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shakedown::emul {

// Every instruction kind a model can emulate (counters are kept per kind). New arches append here
// (s390x KIMD/KLMD, riscv64 vsha2*): see README "Adding an architecture".
enum class Insn : std::uint8_t {
  xsha1,    // F3 0F A6 C8 (specs §1.1)
  xsha256,  // F3 0F A6 D0
  xsha512,  // F3 0F A6 E0 (Zhaoxin PHE2)
  count_
};
inline constexpr std::size_t kInsnCount = static_cast<std::size_t>(Insn::count_);
std::string_view insn_name(Insn kind) noexcept;

// PadLock vendor behaviour (specs §1.2, §1.3, §1.5 items 7-8).
enum class PheProfile : std::uint8_t {
  // Zhaoxin family 7: RCX = 0 is a no-op with no memory write; XSHA1 writes 32 bytes (20 state + 12 zero);
  // XSHA256 writes 32 bytes, XSHA512 writes 64 bytes.
  zhaoxin,
  // VIA C7/Nano: a final-mode RCX = 0 pads and produces the empty-message hash; the state buffer must have
  // 128 writable bytes (probed by rewriting them, or poisoned in strict mode). No XSHA512 (PHE2 is Zhaoxin).
  via,
};

struct Options {
  PheProfile profile = PheProfile::zhaoxin;
  // Strict (specs §1.5 items 4, 6, 8, 9): RAX (and RCX in final mode) are poisoned when the instruction
  // completes, so asm that declares them input-only breaks; the VIA scratch area is poisoned, not probed.
  bool strict = false;
  // > 0: each execution processes at most this many blocks, updates RSI/RCX (RAX in final mode) and resumes
  // at the same instruction, like an interrupted REP instruction (specs §1.5 item 11). 0: run to completion.
  std::uint64_t interrupt_blocks = 0;
};

// Parses the SHAKEDOWN_EMULATE syntax: "<model>[:<option>[,<option>...]]", model "phe", options
// "zhaoxin" (default) | "via" | "strict" | "interrupt=<n>" (n >= 1). Throws std::invalid_argument naming the
// offending part. "phe" alone is "phe:zhaoxin".
Options parse_spec(std::string_view spec);
// "PadLock PHE model, profile zhaoxin, strict, interrupt every 1 block(s)".
std::string describe(const Options& options);

// Installs the SIGILL handler (or swaps the options of the installed one). Thread-safe; the previous
// SIGILL disposition is kept and receives every trap the models do not emulate, so a genuine illegal
// instruction still kills the process (or reaches libFuzzer's / a sanitizer's handler). Returns describe().
// Throws std::runtime_error when sigaction fails.
std::string install(const Options& options);
// Restores the disposition that was in place before install(). No-op when not installed.
void uninstall() noexcept;
bool installed() noexcept;

// Reads SHAKEDOWN_EMULATE; empty or unset installs nothing and returns "". Otherwise installs and returns
// describe(). A malformed value throws std::invalid_argument (nothing is installed then). When installed this
// way, the counters are printed to stderr at exit, and SHAKEDOWN_EMULATE_REQUIRE makes the exit status 3 when
// too little was emulated (the emulated backend silently did not run): "1" = at least one instruction of any
// kind; "xsha256=100,xsha512=100" = at least that many of each kind (a backend's start-up self-test alone
// already runs one instruction, so suites should use per-kind minimums).
std::string install_from_environment();

// Counters since start-up or the last reset_counters(); lock-free, updated inside the handler.
struct Counters {
  std::array<std::uint64_t, kInsnCount> completed{};  // instructions run to completion, per kind
  std::uint64_t traps = 0;        // handler entries that emulated something (interrupted steps included)
  std::uint64_t blocks = 0;       // compression-function calls performed by the models
  std::uint64_t chained = 0;      // traps passed on to the previous handler (not emulated)
  std::uint64_t total_completed() const noexcept;
};
Counters counters() noexcept;
std::uint64_t emulated(Insn kind) noexcept;  // counters().completed[kind]
void reset_counters() noexcept;
// "xsha1=0 xsha256=12 xsha512=3 traps=15 blocks=40 chained=0"
std::string describe(const Counters& c);

}  // namespace shakedown::emul
