# x86-64 wrapper families (included by CMakeLists.txt): XGETBV, the SHA-2 rounds, PadLock (emulated: no PadLock here),
# natively and under qemu-x86_64 (QEMU has no PadLock either; the emulator runs there too).
set(_x86 ${PROJECT_SOURCE_DIR}/arch/x86_64)
asm_contract_family(xgetbv SOURCES xgetbv_contract.cc INCLUDES ${_x86}
  FLIPS "XGETBV=asm contract violated: xgetbv0: live value [0-9]+:")
if(NOT SHAKEDOWN_NO_X86_64_AVX2 OR NOT SHAKEDOWN_NO_X86_64_AVX512)  # sha2_rounds8 serves both
  asm_contract_family(sha2_x86 SOURCES sha2_x86_contract.cc INCLUDES ${_x86}
    FLIPS "SHA2_ROUNDS8=asm contract violated: sha2_rounds8<uint(32|64)_t>: a:")
endif()
if(NOT SHAKEDOWN_NO_X86_64_PHE OR NOT SHAKEDOWN_NO_X86_64_PHE2)
  asm_contract_family(padlock SOURCES padlock_contract.cc INCLUDES ${_x86} EMUL
    FLIPS "XSHA256=asm contract violated: padlock::rep_xsha256: caller's data pointer"
          "XSHA512=asm contract violated: padlock::rep_xsha512: caller's block count")
endif()

# Every PadLock caller runs 3 block counts x 2 callers = 6 instructions of each kind.
set(_phe_require "SHAKEDOWN_EMULATE_REQUIRE=xsha256=6,xsha512=6")
foreach(_env IN ITEMS native qemu)
  set(_runner "")
  if(_env STREQUAL "qemu")
    find_program(QEMU_X86_64 qemu-x86_64)
    if(NOT QEMU_X86_64 OR _ac_sanitized OR CMAKE_CROSSCOMPILING)
      break()
    endif()
    set(_runner ${QEMU_X86_64} -cpu max)
  endif()
  set(_flips "")
  if(_env STREQUAL "native")
    set(_flips WITH_FLIPS)  # measured natively; QEMU runs the same code
  endif()
  asm_contract_run(xgetbv ${_env} RUNNER ${_runner} ${_flips})
  asm_contract_run(bytes ${_env} RUNNER ${_runner} ${_flips})
  if(TARGET shakedown_asm_contract_sha2_x86)
    asm_contract_run(sha2_x86 ${_env} RUNNER ${_runner} ${_flips})
  endif()
  if(TARGET shakedown_asm_contract_padlock)
    asm_contract_run(padlock ${_env}-phe-zhaoxin-strict RUNNER ${_runner} ${_flips}
      ENV "SHAKEDOWN_EMULATE=phe:zhaoxin,strict" "${_phe_require}")
    # REP-style resumption (docs/isa/padlock.md §1.5 item 11): the instruction re-executes with RSI/RCX part-way.
    asm_contract_run(padlock ${_env}-phe-zhaoxin-strict-interrupt1 RUNNER ${_runner}
      ENV "SHAKEDOWN_EMULATE=phe:zhaoxin,strict,interrupt=1" "${_phe_require}")
  endif()
endforeach()
