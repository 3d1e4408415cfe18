// arch/x86_64/sha512ni_encoding.h against an assembler that knows the mnemonics: the same bytes for every
// register combination of all three instructions (4096 + 256 + 256 encodings). Built only where the toolchain's
// assembler has them (emul/x86_64.cmake: clang >= 18 or binutils >= 2.42).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "sha512ni_encoding.h"

extern "C" const unsigned char shakedown_test_sha512ni_by_macro[];
extern "C" const unsigned char shakedown_test_sha512ni_by_mnemonic[];
extern "C" const unsigned char shakedown_test_sha512ni_end[];

namespace shakedown::emul::test {
namespace {

#define SHAKEDOWN_TEST_IRP16(var) ".irp " var ", 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
// Every combination, in the same order, once through the macros and once through the mnemonics.
#define SHAKEDOWN_TEST_ALL_ENCODINGS(rnds2, msg1, msg2)                                                     \
  SHAKEDOWN_TEST_IRP16("a") SHAKEDOWN_TEST_IRP16("b") SHAKEDOWN_TEST_IRP16("c")                              \
  rnds2 " %%xmm\\a, %%ymm\\b, %%ymm\\c\n"                                                                    \
  ".endr\n.endr\n.endr\n" SHAKEDOWN_TEST_IRP16("a") SHAKEDOWN_TEST_IRP16("b")                                \
  msg1 " %%xmm\\a, %%ymm\\b\n"                                                                               \
  msg2 " %%ymm\\a, %%ymm\\b\n"                                                                               \
  ".endr\n.endr\n"

// Emits both tables into a data section; the function itself contains no instruction of them.
[[gnu::noinline]] void emit_tables() {
  __asm__ volatile(".pushsection .rodata.shakedown_test_sha512ni, \"a\"\n"
                   ".globl shakedown_test_sha512ni_by_macro\n"
                   ".hidden shakedown_test_sha512ni_by_macro\n"
                   "shakedown_test_sha512ni_by_macro:\n" SHAKEDOWN_SHA512NI_ASM(SHAKEDOWN_TEST_ALL_ENCODINGS(
                       "shakedown_vsha512rnds2", "shakedown_vsha512msg1", "shakedown_vsha512msg2"))
                   ".globl shakedown_test_sha512ni_by_mnemonic\n"
                   ".hidden shakedown_test_sha512ni_by_mnemonic\n"
                   "shakedown_test_sha512ni_by_mnemonic:\n" SHAKEDOWN_TEST_ALL_ENCODINGS(
                       "vsha512rnds2", "vsha512msg1", "vsha512msg2")
                   ".globl shakedown_test_sha512ni_end\n"
                   ".hidden shakedown_test_sha512ni_end\n"
                   "shakedown_test_sha512ni_end:\n"
                   ".popsection\n" ::);
}

TEST(Sha512niEncoding, MacrosMatchTheAssemblerForEveryRegisterCombination) {
  emit_tables();
  const auto bytes_between = [](const unsigned char* from, const unsigned char* to) {
    return static_cast<std::size_t>(to - from);
  };
  const std::size_t by_macro = bytes_between(shakedown_test_sha512ni_by_macro, shakedown_test_sha512ni_by_mnemonic);
  const std::size_t by_mnemonic = bytes_between(shakedown_test_sha512ni_by_mnemonic, shakedown_test_sha512ni_end);
  ASSERT_EQ(by_macro, (4096u + 256u + 256u) * 5u) << "every encoding is 5 bytes";
  ASSERT_EQ(by_mnemonic, by_macro);
  for (std::size_t i = 0; i < by_macro; i += 5)
    ASSERT_EQ(0, std::memcmp(shakedown_test_sha512ni_by_macro + i, shakedown_test_sha512ni_by_mnemonic + i, 5))
        << "encoding #" << i / 5 << " differs";
}

}  // namespace
}  // namespace shakedown::emul::test
