// The arch-neutral SIGILL handler: dispatch to the arch adapter, count, chain what is not ours, report faults.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_break.h"
#include "trap.h"

namespace shakedown::emul {
namespace {

// Published options: immutable once stored, never freed (a handler on another thread may still hold an old
// pointer), so every version is kept reachable in g_published.
std::atomic<const Options*> g_active{nullptr};
std::mutex g_install_mutex;
std::vector<std::unique_ptr<const Options>> g_published;  // guarded by g_install_mutex
bool g_installed = false;                                 // guarded by g_install_mutex
struct sigaction g_previous;                              // written only while our handler is not installed

// Lock-free counters (std::atomic<uint64_t> is lock-free on every supported arch: async-signal-safe).
std::atomic<std::uint64_t> g_completed[kInsnCount];
std::atomic<std::uint64_t> g_traps{0}, g_blocks{0}, g_chained{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "counters are updated inside a signal handler");

// The ring of recent_emulated(): slot = sequence % kRecentEmulated, written by the handler, read between traps.
struct RecentSlot {
  Insn insn = Insn::count_;
  std::uintptr_t pc = 0;
  char operands[detail::OperandText::kRoom] = {};
};
RecentSlot g_recent[kRecentEmulated];
std::atomic<std::uint64_t> g_recent_next{0};
std::atomic<bool> g_break_noted{false};

// Async-signal-safe output (no stdio, no allocation).
void write_text(const char* s) {
  ssize_t ignored = ::write(STDERR_FILENO, s, std::strlen(s));
  (void)ignored;
}
// An address in hex, written here rather than with shakedown/hex.h, whose std::string allocates.
void write_hex(std::uintptr_t v) {
  char buf[2 + 16 + 1];
  buf[0] = '0';
  buf[1] = 'x';
  for (int i = 0; i < 16; ++i) buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
  buf[18] = '\0';
  write_text(buf);
}

[[noreturn]] void report_fault(const detail::TrapResult& r) {
  write_text("shakedown emul: ");
  write_text(insn_name(r.insn).data());  // the names are NUL-terminated literals
  write_text(" at ");
  write_hex(r.pc);
  write_text(": ");
  write_text(r.problem);
  write_text("\n");
  std::abort();  // libFuzzer and gtest death tests see SIGABRT
}

// Hands a trap we do not emulate to whoever had SIGILL before us, so it still crashes loudly.
void chain(int sig, siginfo_t* info, void* context) {
  g_chained.fetch_add(1, std::memory_order_relaxed);
  const struct sigaction& prev = g_previous;
  if (prev.sa_flags & SA_SIGINFO) {
    prev.sa_sigaction(sig, info, context);
    return;
  }
  if (prev.sa_handler == SIG_DFL || prev.sa_handler == SIG_IGN) {
    // Restore the default action and return: the instruction re-executes and the kernel kills the process
    // with SIGILL (a synchronous SIGILL cannot be ignored). Uninstalls us, which no longer matters.
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGILL, &dfl, nullptr);
    if (info != nullptr && info->si_code <= 0)
      raise(sig);  // sent by kill()/raise(): nothing re-executes, so deliver it again (pending until we return)
    else
      detail::rewind_to_instruction(*static_cast<ucontext_t*>(context));
    return;
  }
  prev.sa_handler(sig);
}

void remember(const detail::TrapResult& r) {
  RecentSlot& slot = g_recent[g_recent_next.fetch_add(1, std::memory_order_relaxed) % kRecentEmulated];
  slot.insn = r.insn;
  slot.pc = r.pc;
  std::memcpy(slot.operands, r.operands.text, sizeof slot.operands);
  // A test-only broken model (SHAKEDOWN_EMUL_TEST_BREAK) says once which instruction it corrupted, so that a run
  // failing under the break can be matched to it (docs/third-party.md).
  if (detail::broken_by_test(r.insn) && !g_break_noted.exchange(true)) {
    write_text("shakedown emul: test break: ");
    write_text(insn_name(r.insn).data());
    write_text(" ");
    write_text(r.operands.text);
    write_text(" at ");
    write_hex(r.pc);
    write_text(": its model's result has one bit flipped (SHAKEDOWN_EMUL_TEST_BREAK)\n");
  }
}

SHAKEDOWN_EMUL_HANDLER_ATTR void on_sigill(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const Options* options = g_active.load(std::memory_order_acquire);
  // Only kernel-raised traps (si_code > 0) are instructions; kill(pid, SIGILL) goes straight to the chain.
  detail::TrapResult r;
  if (options != nullptr && info != nullptr && info->si_code > 0)
    r = detail::emulate_trap(*static_cast<ucontext_t*>(context), *options);
  switch (r.outcome) {
    case detail::TrapOutcome::not_ours: chain(sig, info, context); break;
    case detail::TrapOutcome::fault: report_fault(r);
    case detail::TrapOutcome::completed:
      g_completed[static_cast<std::size_t>(r.insn)].fetch_add(1, std::memory_order_relaxed);
      [[fallthrough]];
    case detail::TrapOutcome::interrupted:
      remember(r);
      g_traps.fetch_add(1, std::memory_order_relaxed);
      g_blocks.fetch_add(r.blocks, std::memory_order_relaxed);
      break;
  }
  errno = saved_errno;
}

}  // namespace

void detail::note_illegal(Insn insn, std::uintptr_t pc, const char* what, const char* why) noexcept {
  write_text("shakedown emul: ");
  write_text(insn_name(insn).data());  // NUL-terminated literals
  write_text(" at ");
  write_hex(pc);
  for (const char* part : {": ", what, " (", why, "): illegal instruction, as on hardware\n"}) write_text(part);
}

std::string_view insn_name(Insn kind) noexcept {
  switch (kind) {
    case Insn::xsha1: return "xsha1";
    case Insn::xsha256: return "xsha256";
    case Insn::xsha512: return "xsha512";
    case Insn::vsha512rnds2: return "vsha512rnds2";
    case Insn::vsha512msg1: return "vsha512msg1";
    case Insn::vsha512msg2: return "vsha512msg2";
    case Insn::kimd_query: return "kimd_query";
    case Insn::kimd_sha1: return "kimd_sha1";
    case Insn::kimd_sha256: return "kimd_sha256";
    case Insn::kimd_sha512: return "kimd_sha512";
    case Insn::kimd_sha3: return "kimd_sha3";
    case Insn::klmd_sha1: return "klmd_sha1";
    case Insn::klmd_sha256: return "klmd_sha256";
    case Insn::klmd_sha512: return "klmd_sha512";
    case Insn::klmd_sha3: return "klmd_sha3";
    case Insn::klmd_shake: return "klmd_shake";
    case Insn::vsha2ms: return "vsha2ms";
    case Insn::vsha2ch: return "vsha2ch";
    case Insn::vsha2cl: return "vsha2cl";
    case Insn::vrev8: return "vrev8";
    case Insn::vbrev8: return "vbrev8";
    case Insn::vror: return "vror";
    case Insn::vrol: return "vrol";
    case Insn::vandn: return "vandn";
    case Insn::count_: break;
  }
  return "unknown";
}

std::string install(const Options& options) {
  if (!model_supported_here(options.model))
    throw std::invalid_argument("shakedown emul: model \"" + std::string(model_name(options.model)) + "\" emulates " +
                                std::string(model_arch(options.model)) + " instructions; this is " +
                                detail::arch_name());
  std::lock_guard lock(g_install_mutex);
  g_published.push_back(std::make_unique<const Options>(options));
  const Options* next = g_published.back().get();
  if (!g_installed) {
    struct sigaction ours;
    std::memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = on_sigill;
    // No SA_ONSTACK: sanitizer runtimes give every thread a small alternate stack, which a model's frames (and a
    // riscv64 vector frame) overflow. diff/painted_stack.cc adds the flag for the runs it scans, with a large one.
    ours.sa_flags = SA_SIGINFO;
    // Defer asynchronous signals until the emulated instruction has completed: a handler that
    // interrupted us and executed another emulated instruction would raise SIGILL while SIGILL is
    // blocked, which kills the process. Hardware finishes (or cleanly interrupts) the instruction
    // first, so deferring models it. Synchronous faults stay deliverable for guard pages and ASan.
    sigfillset(&ours.sa_mask);
    for (int sync : {SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT, SIGSYS}) sigdelset(&ours.sa_mask, sync);
    g_active.store(next, std::memory_order_release);  // before the handler can run
    if (sigaction(SIGILL, &ours, &g_previous) != 0) {
      g_active.store(nullptr, std::memory_order_release);
      throw std::runtime_error(std::string("shakedown emul: sigaction(SIGILL) failed: ") + std::strerror(errno));
    }
    g_installed = true;
  } else {
    g_active.store(next, std::memory_order_release);
  }
  return describe(options);
}

void uninstall() noexcept {
  std::lock_guard lock(g_install_mutex);
  if (!g_installed) return;
  g_active.store(nullptr, std::memory_order_release);  // a trap racing with us now chains
  sigaction(SIGILL, &g_previous, nullptr);
  g_installed = false;
}

bool installed() noexcept {
  std::lock_guard lock(g_install_mutex);
  return g_installed;
}

std::uint64_t Counters::total_completed() const noexcept {
  std::uint64_t sum = 0;
  for (auto n : completed) sum += n;
  return sum;
}

Counters counters() noexcept {
  Counters c;
  for (std::size_t i = 0; i < kInsnCount; ++i) c.completed[i] = g_completed[i].load(std::memory_order_relaxed);
  c.traps = g_traps.load(std::memory_order_relaxed);
  c.blocks = g_blocks.load(std::memory_order_relaxed);
  c.chained = g_chained.load(std::memory_order_relaxed);
  return c;
}

std::uint64_t emulated(Insn kind) noexcept {
  return g_completed[static_cast<std::size_t>(kind)].load(std::memory_order_relaxed);
}

void reset_counters() noexcept {
  for (auto& n : g_completed) n.store(0, std::memory_order_relaxed);
  g_traps.store(0, std::memory_order_relaxed);
  g_blocks.store(0, std::memory_order_relaxed);
  g_chained.store(0, std::memory_order_relaxed);
}

std::vector<EmulatedInsn> recent_emulated() {
  const std::uint64_t next = g_recent_next.load(std::memory_order_acquire);
  const std::uint64_t first = next > kRecentEmulated ? next - kRecentEmulated : 0;
  std::vector<EmulatedInsn> out;
  for (std::uint64_t i = first; i < next; ++i) {
    const RecentSlot& slot = g_recent[i % kRecentEmulated];
    out.push_back({slot.insn, slot.pc, std::string(slot.operands, strnlen(slot.operands, sizeof slot.operands))});
  }
  return out;
}

std::string describe(const Counters& c) {
  std::string s;
  for (std::size_t i = 0; i < kInsnCount; ++i)
    s += std::string(insn_name(static_cast<Insn>(i))) + "=" + std::to_string(c.completed[i]) + " ";
  s += "traps=" + std::to_string(c.traps) + " blocks=" + std::to_string(c.blocks) +
       " chained=" + std::to_string(c.chained);
  return s;
}

}  // namespace shakedown::emul
