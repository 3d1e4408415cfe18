// Registry: selection, introspection, SHAKEDOWN_BACKENDS parsing and errors, test feature overrides.
#include <gtest/gtest.h>

#include "shakedown/testing.h"
#include "support.h"

namespace shakedown {
namespace {
TEST(Registry, GenericIsLastInEveryFamily) {
  EXPECT_EQ(sha256_backends().back().info.name, "generic");
  EXPECT_EQ(sha512_backends().back().info.name, "generic");
  EXPECT_EQ(keccak_backends().back().info.name, "generic");
}
}  // namespace
}  // namespace shakedown
