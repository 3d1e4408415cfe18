# s390x wrapper families (included by CMakeLists.txt): STFLE and CPACF. Where they run, under qemu-s390x and the CPACF
# model: the contract lines of ci/matrix/s390x.txt. QEMU 7.2 runs the KIMD/KLMD query and SHA-512 itself
# (docs/isa/cpacf.md §2.2).
set(_s390x ${PROJECT_SOURCE_DIR}/arch/s390x)
asm_contract_family(stfle SOURCES stfle_contract.cc INCLUDES ${_s390x}
  FLIPS "STFLE=asm contract violated: stfle: facility list stored in memory")
shakedown_backends_compiled(_cpacf sha256/s390x/cpacf sha512/s390x/cpacf keccak/s390x/cpacf)
if(_cpacf)
  asm_contract_family(cpacf SOURCES cpacf_contract.cc INCLUDES ${_s390x} EMUL
    FLIPS "CPACF=asm contract violated: cpacf::run<KIMD> SHA-512: caller's source length")
endif()
