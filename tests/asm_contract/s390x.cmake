# s390x wrapper families (included by CMakeLists.txt): STFLE and CPACF under qemu-s390x. QEMU 7.2 runs the KIMD/KLMD
# query and SHA-512 itself (docs/isa/cpacf.md §2.2); SHA-256 and SHA-3/SHAKE, and SHA-512 with QEMU's disabled, run
# under the CPACF model; interrupt=1 makes every execution stop with CC3, so the retry loop runs.
if(NOT CMAKE_CROSSCOMPILING OR NOT SHAKEDOWN_QEMU)
  return()
endif()
set(_s390x ${PROJECT_SOURCE_DIR}/arch/s390x)
set(_qemu ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu)
asm_contract_family(stfle SOURCES stfle_contract.cc INCLUDES ${_s390x}
  FLIPS "STFLE=asm contract violated: stfle: facility list stored in memory")
asm_contract_run(stfle qemu-max RUNNER ${_qemu} max WITH_FLIPS)
asm_contract_run(bytes qemu-max RUNNER ${_qemu} max WITH_FLIPS)
if(SHAKEDOWN_NO_S390X_CPACF)
  return()
endif()
asm_contract_family(cpacf SOURCES cpacf_contract.cc INCLUDES ${_s390x} EMUL
  FLIPS "CPACF=asm contract violated: cpacf::run<KIMD> SHA-512: caller's source length")
asm_contract_run(cpacf qemu-max RUNNER ${_qemu} max ARGS query sha512 WITH_FLIPS)
set(_require "SHAKEDOWN_EMULATE_REQUIRE=kimd_sha256=1,kimd_sha3=1,klmd_shake=1")
asm_contract_run(cpacf emul-cpacf RUNNER ${_qemu} max ARGS query sha256 sha512 sha3
  ENV "SHAKEDOWN_EMULATE=cpacf:sha256,sha3" "${_require}")
asm_contract_run(cpacf emul-cpacf-interrupt1 RUNNER ${_qemu} max ARGS query sha256 sha512 sha3
  ENV "SHAKEDOWN_EMULATE=cpacf:sha256,sha3,interrupt=1" "${_require}")
asm_contract_run(cpacf emul-cpacf-nosha512 RUNNER ${_qemu} max,kimd-sha-512=off,klmd-sha-512=off ARGS sha512
  ENV "SHAKEDOWN_EMULATE=cpacf:sha512" "SHAKEDOWN_EMULATE_REQUIRE=kimd_sha512=1")
