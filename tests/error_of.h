// error_of(f): runs f, which must throw shakedown::Error, and returns its code and message (GoogleTest suites).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "shakedown/error.h"

namespace shakedown::test {

template <class F>
std::pair<Errc, std::string> error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  ADD_FAILURE() << "expected shakedown::Error";
  return {Errc::unknown_algorithm, ""};
}

}  // namespace shakedown::test
