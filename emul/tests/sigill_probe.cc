// raises_sigill(): a SIGILL handler armed around one call, leaving it with siglongjmp.
#include "sigill_probe.h"

#include <setjmp.h>
#include <signal.h>

namespace shakedown::emul::test {
namespace {

sigjmp_buf g_jump;
volatile sig_atomic_t g_armed = 0;
const void* volatile g_at = nullptr;

void on_sigill(int, siginfo_t* info, void*) {
  if (g_armed && (g_at == nullptr || info->si_addr == g_at)) {
    g_armed = 0;
    siglongjmp(g_jump, 1);
  }
  // Not the instruction we probe: restore the default action; the re-executed instruction kills the process.
  signal(SIGILL, SIG_DFL);
}

}  // namespace

bool raises_sigill(const std::function<void()>& body, const void* at) {
  struct sigaction probe{}, previous{};
  probe.sa_sigaction = on_sigill;
  probe.sa_flags = SA_SIGINFO;
  sigemptyset(&probe.sa_mask);
  sigaction(SIGILL, &probe, &previous);
  g_at = at;
  bool raised = false;
  // savesigs = 1: the jump restores the signal mask, so SIGILL is unblocked again after leaving the handler.
  if (sigsetjmp(g_jump, 1) == 0) {
    g_armed = 1;
    body();
    g_armed = 0;
  } else {
    raised = true;
  }
  sigaction(SIGILL, &previous, nullptr);
  return raised;
}

}  // namespace shakedown::emul::test
