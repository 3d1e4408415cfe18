// PaintedStack: a pthread on an mmap'd stack (pthread_attr_setstack) with its own signal stack.
#include "painted_stack.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

namespace shakedown::diff {
namespace {

constexpr std::size_t kGuard = 64 * 1024;  // PROT_NONE below the stack: an overflow faults, it does not scribble

struct Run {
  const std::function<void()>* fn;
  const std::uint8_t* stack;    // the painted stack's lowest byte
  std::uint8_t* snapshot;       // as many bytes, allocated before the run
  std::uintptr_t caller = 0;
  std::exception_ptr error;
};

// Not inlined: everything fn leaves is below the marker taken in the caller's frame.
[[gnu::noinline]] void call(Run& run) { (*run.fn)(); }

void* entry(void* arg) {
  auto& run = *static_cast<Run*>(arg);
  // A SIGILL handler that emulates an instruction must not write its own copies of the state into the stack we
  // scan: give it an alternate stack (run() adds SA_ONSTACK to the handler meanwhile).
  std::vector<std::uint8_t> alt(std::max<std::size_t>(SIGSTKSZ, 256 * 1024));
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  volatile std::uint8_t marker = 0;
  run.caller = reinterpret_cast<std::uintptr_t>(&marker);
  try {
    call(run);
  } catch (...) {
    run.error = std::current_exception();
  }
  // Copy the dead stack now, before anything else runs on this thread: the thread's exit path calls functions
  // from further up, whose frames would overwrite part of it (seen under qemu-s390x). Volatile byte reads, so
  // that no memcpy call (a frame of its own) is made; the loop needs only registers.
  const auto begin = reinterpret_cast<std::uintptr_t>(run.stack);
  if (run.caller > begin && run.caller <= begin + PaintedStack::kBytes) {  // else not on this stack: dead() is empty
    const volatile std::uint8_t* from = run.stack;
    for (std::size_t i = 0; i < run.caller - begin; ++i) run.snapshot[i] = from[i];
  }
  ss.ss_flags = SS_DISABLE;
  sigaltstack(&ss, nullptr);
  return nullptr;
}

}  // namespace

PaintedStack::PaintedStack() {
  map_ = mmap(nullptr, kGuard + kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map_ == MAP_FAILED) throw std::runtime_error("PaintedStack: mmap failed");
  mprotect(map_, kGuard, PROT_NONE);
  stack_ = static_cast<std::uint8_t*>(map_) + kGuard;
  snapshot_.resize(kBytes);
  // One run of nothing first: the dynamic linker resolves the calls the runs make (sigaltstack, ...) on first use,
  // and its resolver saves every vector register on the stack, registers a new thread inherits from its creator.
  run([] {});
}

PaintedStack::~PaintedStack() { munmap(map_, kGuard + kBytes); }

void PaintedStack::run(const std::function<void()>& fn) {
  std::memset(stack_, kPaint, kBytes);
  Run r{&fn, stack_, snapshot_.data(), 0, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack_, kBytes);
  // An emulator's SIGILL handler runs on the run thread's alternate stack (entry()) for the length of the run only:
  // installed with SA_ONSTACK for good, it would run on whatever alternate stack a sanitizer runtime gives every
  // thread, too small for a model's frames (UBSan's overflowed under qemu-riscv64).
  struct sigaction ill {};
  const bool add_onstack = sigaction(SIGILL, nullptr, &ill) == 0 && (ill.sa_flags & SA_SIGINFO) != 0 &&
                       (ill.sa_flags & SA_ONSTACK) == 0;
  if (add_onstack) {
    struct sigaction with = ill;
    with.sa_flags |= SA_ONSTACK;
    sigaction(SIGILL, &with, nullptr);
  }
  pthread_t thread;
  const int rc = pthread_create(&thread, &attr, entry, &r);
  pthread_attr_destroy(&attr);
  if (rc == 0) pthread_join(thread, nullptr);
  if (add_onstack) sigaction(SIGILL, &ill, nullptr);
  if (rc != 0) throw std::runtime_error("PaintedStack: pthread_create failed");
  caller_ = r.caller;
  if (r.error) std::rethrow_exception(r.error);
}

std::span<const std::uint8_t> PaintedStack::dead() const {
  const auto begin = reinterpret_cast<std::uintptr_t>(stack_);
  if (caller_ <= begin || caller_ > begin + kBytes) return {};
  return {snapshot_.data(), caller_ - begin};
}

}  // namespace shakedown::diff
