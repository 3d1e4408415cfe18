// GoogleTest main for the emulator's own tests: each test installs the profile it needs (no environment).
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // fork()-based death tests keep the child in the same process image, so they also work under qemu-x86_64.
  GTEST_FLAG_SET(death_test_style, "fast");
  return RUN_ALL_TESTS();
}
