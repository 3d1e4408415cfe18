# x86-64 wrapper families (included by CMakeLists.txt): XGETBV, the SHA-2 rounds, PadLock (emulated: no PadLock here).
# Where they run, natively, under qemu-x86_64 and under the PadLock model: the contract lines of ci/matrix/x86_64.txt.
set(_x86 ${PROJECT_SOURCE_DIR}/arch/x86_64)
asm_contract_family(xgetbv SOURCES xgetbv_contract.cc INCLUDES ${_x86}
  FLIPS "XGETBV=asm contract violated: xgetbv0: live value [0-9]+:")
shakedown_backends_compiled(_avx2 sha256/x86_64/avx2)
shakedown_backends_compiled(_avx512 sha512/x86_64/avx512)
if(_avx2 OR _avx512)  # sha2_rounds8 serves both
  asm_contract_family(sha2_x86 SOURCES sha2_x86_contract.cc INCLUDES ${_x86}
    FLIPS "SHA2_ROUNDS8=asm contract violated: sha2_rounds8<uint(32|64)_t>: a:")
endif()
shakedown_backends_compiled(_phe sha256/x86_64/phe)
shakedown_backends_compiled(_phe2 sha512/x86_64/phe2)
if(_phe OR _phe2)
  # REP-style resumption (docs/isa/padlock.md §1.5 item 11) runs in the interrupt=1 environments.
  asm_contract_family(padlock SOURCES padlock_contract.cc INCLUDES ${_x86} EMUL
    FLIPS "XSHA256=asm contract violated: padlock::rep_xsha256: caller's data pointer"
          "XSHA512=asm contract violated: padlock::rep_xsha512: caller's block count")
endif()
