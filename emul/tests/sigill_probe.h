// Runs code that may raise SIGILL and reports whether it did, for tests that compare a model's "reserved" or
// "specification exception" verdict with what a real executor does (the conformance suites).
#pragma once

#include <functional>

namespace shakedown::emul::test {

// Calls body with a SIGILL handler in place; true when body raised SIGILL (then it did not finish), false when it
// returned. With at != nullptr only a SIGILL whose si_addr is `at` counts; any other SIGILL is a fault of the test
// itself and kills the process as it would without the probe. body must not own objects with destructors (the
// handler leaves it with siglongjmp). Not reentrant, not thread-safe: one probe at a time.
bool raises_sigill(const std::function<void()>& body, const void* at = nullptr);

}  // namespace shakedown::emul::test
