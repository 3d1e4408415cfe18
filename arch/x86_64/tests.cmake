# x86-64 backend-level suites, included from tests/CMakeLists.txt (after shakedown_testmain exists): the Keccak
# and PadLock checks. The SHA-2 block functions need no list of their own here: diff/'s BlockDiff runs every
# backend the registry has (random states, 1..16 blocks, misaligned input, a guard page, nblocks = 0).
include(${CMAKE_CURRENT_LIST_DIR}/keccak_tests.cmake)
