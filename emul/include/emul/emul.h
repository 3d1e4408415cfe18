// Test-only trap-and-emulate: a SIGILL handler that runs instructions this CPU (or QEMU) lacks.
//
// The backend's real inline asm executes unmodified; when the CPU raises #UD the handler decodes the
// instruction from the signal context, performs its architectural effect (registers and memory) with an
// independent model, and resumes. Never linked into the library: the library never installs a handler.
// Design, profiles and measured costs: emul/README.md. Semantics: docs/isa/README.md (§0, §1.5, §2.3, §3.3).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shakedown::emul {

// Every instruction kind a model can emulate (counters are kept per kind, SHAKEDOWN_EMULATE_REQUIRE
// names them). One list for all arches so that counters, names and requirements stay arch-neutral.
enum class Insn : std::uint8_t {
  // x86-64 PadLock PHE (model "phe", docs/isa/padlock.md §1).
  xsha1,    // F3 0F A6 C8 (docs/isa/padlock.md §1.1)
  xsha256,  // F3 0F A6 D0
  xsha512,  // F3 0F A6 E0 (Zhaoxin PHE2)
  // x86-64 Intel SHA512 extension (model "sha512ni", docs/intel-sha512.md): VEX.256.F2.0F38.W0 CB / CC / CD.
  vsha512rnds2,
  vsha512msg1,
  vsha512msg2,
  // s390x CPACF (model "cpacf", docs/isa/cpacf.md §2): one kind per instruction and function group.
  kimd_query,   // KIMD/KLMD fc 0 (only reached where the query itself traps)
  kimd_sha1,    // KIMD fc 1
  kimd_sha256,  // KIMD fc 2
  kimd_sha512,  // KIMD fc 3
  kimd_sha3,    // KIMD fc 0x20..0x25 (SHA3-224..512, SHAKE128/256)
  klmd_sha1,    // KLMD fc 1
  klmd_sha256,  // KLMD fc 2
  klmd_sha512,  // KLMD fc 3
  klmd_sha3,    // KLMD fc 0x20..0x23
  klmd_shake,   // KLMD fc 0x24, 0x25 (squeezes to R1)
  // riscv64 vector crypto (model "zvk", docs/isa/riscv-crypto.md §3).
  vsha2ms,
  vsha2ch,
  vsha2cl,
  vrev8,
  vbrev8,
  vror,
  vrol,
  vandn,
  count_
};
inline constexpr std::size_t kInsnCount = static_cast<std::size_t>(Insn::count_);
std::string_view insn_name(Insn kind) noexcept;

// Which instruction set the handler emulates; each model runs only on its own arch (install() refuses others).
enum class Model : std::uint8_t {
  phe,       // x86-64 PadLock PHE/PHE2
  sha512ni,  // x86-64 Intel SHA512 extension (VSHA512RNDS2/MSG1/MSG2), YMM state from the signal frame
  cpacf,     // s390x KIMD/KLMD
  zvk,       // riscv64 Zvknha/Zvknhb/Zvkb
};
std::string_view model_name(Model model) noexcept;  // "phe", "sha512ni", "cpacf", "zvk"
// The arch a model belongs to ("x86-64", "s390x", "riscv64") and whether this build can run it.
std::string_view model_arch(Model model) noexcept;
bool model_supported_here(Model model) noexcept;

// CPACF function groups a "cpacf" profile emulates (bit set); anything else re-raises, as on a machine
// whose query does not list the function (docs/isa/cpacf.md §2.3 item 2).
enum CpacfFunctions : std::uint32_t {
  kCpacfSha1 = 1u << 0,
  kCpacfSha256 = 1u << 1,
  kCpacfSha512 = 1u << 2,
  kCpacfSha3 = 1u << 3,  // SHA3-224..512 and SHAKE128/256 together (the set is all-or-nothing)
  kCpacfAll = kCpacfSha1 | kCpacfSha256 | kCpacfSha512 | kCpacfSha3,
};

// riscv64 vector-crypto profile: SEW=64 vsha2* is reserved under Zvknha alone (docs/isa/riscv-crypto.md §3.2.1).
enum class ZvkProfile : std::uint8_t { zvknha, zvknhb };

// PadLock vendor behaviour (docs/isa/padlock.md §1.2, §1.3, §1.5 items 7-8).
enum class PheProfile : std::uint8_t {
  // Zhaoxin family 7: RCX = 0 is a no-op with no memory write; XSHA1 writes 32 bytes (20 state + 12 zero);
  // XSHA256 writes 32 bytes, XSHA512 writes 64 bytes.
  zhaoxin,
  // VIA C7/Nano: a final-mode RCX = 0 pads and produces the empty-message hash; the state buffer must have
  // 128 writable bytes (probed by rewriting them, or poisoned in strict mode). No XSHA512 (PHE2 is Zhaoxin).
  via,
};

struct Options {
  Model model = Model::phe;
  // --- phe ---
  PheProfile profile = PheProfile::zhaoxin;
  // Strict (docs/isa/padlock.md §1.5 items 4, 6, 8, 9): RAX (and RCX in final mode) are poisoned when the instruction
  // completes, so asm that declares them input-only breaks; the VIA scratch area is poisoned, not probed.
  bool strict = false;
  // --- phe and cpacf ---
  // > 0: each execution processes at most this many blocks and then stops part-way, registers updated:
  // phe resumes at the same instruction like an interrupted REP instruction (docs/isa/padlock.md §1.5 item 11); cpacf
  // completes with condition code 3 so the caller's `brc 1` loop must re-execute (docs/isa/cpacf.md §2.3 item 9).
  // 0: run to completion.
  std::uint64_t interrupt_blocks = 0;
  // --- cpacf ---
  std::uint32_t cpacf_functions = kCpacfAll;
  // --- zvk ---
  ZvkProfile zvk_profile = ZvkProfile::zvknhb;
  // Tail-agnostic writes (vta = 1) fill tail elements with all ones, as the spec allows, so code that
  // relies on tail values breaks (docs/isa/riscv-crypto.md §3.3 item 4). With vta = 0 tails are always kept.
  bool tail_ones = false;
};

// Parses the SHAKEDOWN_EMULATE syntax "<model>[:<option>[,<option>...]]". Throws std::invalid_argument
// naming the offending part. Models and options:
//   phe    zhaoxin (default) | via, strict, interrupt=<n>              "phe" alone is "phe:zhaoxin"
//   cpacf  sha1, sha256, sha512, sha3 (the emulated functions; default all), interrupt=<n>
//   zvk    zvknha | zvknhb (default), tail-ones
//   sha512ni  no options: the instructions have no undefined results, memory operands or vendor variants to
//             choose between, so every run is what "strict" means for the others (emul/README.md)
Options parse_spec(std::string_view spec);
// "PadLock PHE model, profile zhaoxin, strict, interrupt every 1 block(s)".
std::string describe(const Options& options);

// Installs the SIGILL handler (or swaps the options of the installed one). Thread-safe; the previous
// SIGILL disposition is kept and receives every trap the models do not emulate, so a genuine illegal
// instruction still kills the process (or reaches libFuzzer's / a sanitizer's handler). Returns describe().
// Throws std::invalid_argument when options.model is not this arch's (model_supported_here), and
// std::runtime_error when sigaction fails.
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
  std::uint64_t traps = 0;    // handler entries that emulated something (interrupted steps included)
  std::uint64_t blocks = 0;   // compression-function calls performed by the models
  std::uint64_t chained = 0;  // traps passed on to the previous handler (not emulated)
  std::uint64_t total_completed() const noexcept;
};
Counters counters() noexcept;
std::uint64_t emulated(Insn kind) noexcept;  // counters().completed[kind]
void reset_counters() noexcept;
// "xsha1=0 xsha256=12 xsha512=3 traps=15 blocks=40 chained=0"
std::string describe(const Counters& c);

// The last instructions the models completed or stepped (up to kRecentEmulated, oldest first), each with its address
// and operands as the model decoded them ("ymm12, ymm11, xmm0"; "fc 0x02 (sha256), ..."): what a third-party run
// whose digest came out wrong executed last, so that its failure names the instruction. Kept by the handler in a
// ring; read it when no trap is in flight (a trap that races with the read may show up half-written).
inline constexpr std::size_t kRecentEmulated = 16;
struct EmulatedInsn {
  Insn insn = Insn::count_;
  std::uintptr_t pc = 0;
  std::string operands;
};
std::vector<EmulatedInsn> recent_emulated();

}  // namespace shakedown::emul
