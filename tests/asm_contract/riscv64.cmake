# riscv64 wrapper families (included by CMakeLists.txt): Zknh, the vlenb read, and the vector-crypto loop, the latter
# also compiled by clang-19 with vector code generation (zvk_rvv) so that its vector clobbers are exercised. Where
# they run, under qemu-riscv64 7.2 (Zknh executed by QEMU with zk=true; V but no Zvk*: the Zvk model runs those):
# the contract lines of ci/matrix/riscv64.txt.
set(_rv ${PROJECT_SOURCE_DIR}/arch/riscv64)

asm_contract_family(vlenb SOURCES vlenb_contract.cc INCLUDES ${_rv}
  FLIPS "VLENB=asm contract violated: read_vlenb: vlenb \\(rd\\)")

shakedown_backends_compiled(_zknh sha256/riscv64/zknh sha512/riscv64/zknh)
if(_zknh)
  asm_contract_family(zknh SOURCES zknh_contract.cc INCLUDES ${_rv}
    FLIPS "ZKNH=asm contract violated: zknh_sha256sum0: result \\(rd\\)")
endif()

shakedown_backends_compiled(_zvknha sha256/riscv64/zvknha)
shakedown_backends_compiled(_zvknhb sha512/riscv64/zvknhb)
if(NOT _zvknha AND NOT _zvknhb)
  return()
endif()
# VLEN 128: SHA-512 runs at LMUL = 2 (v0/v1 ... v24/v25 groups); 256: LMUL = 1.
asm_contract_family(zvk SOURCES zvk_contract.cc INCLUDES ${_rv} EMUL
  FLIPS "ZVK_SHA2=asm contract violated: zvk_sha2_blocks<uint32_t>: caller's data pointer")

# The same test built by clang-19 for rv64gcv (the tree's own compiler may be g++-12, which emits no vector code):
# the object is compiled here and linked with the tree's main and emulator. Without clang-19 the entries are missing
# and the configure step says so.
find_program(SHAKEDOWN_CLANGXX_19 clang++-19)
if(NOT SHAKEDOWN_CLANGXX_19)
  message(WARNING "shakedown: no clang++-19, the riscv64 vector-codegen asm contract test is not built")
  return()
endif()
# The toolchain's sysroot (ci/cross-deps' Debian 13 tree): without it clang-19 looks for the C++ headers in
# /usr/riscv64-linux-gnu, which only a host with the gcc riscv64 cross packages has (a fresh one fails on <cstddef>).
set(_rvv_sysroot "")
if(CMAKE_SYSROOT)
  set(_rvv_sysroot --sysroot=${CMAKE_SYSROOT})
endif()
# asm_contract_rvv_object(<output> [<flip id>]): zvk_contract.cc compiled with -march=rv64gcv.
function(asm_contract_rvv_object out)
  set(flip "")
  if(ARGN)
    set(flip -DSHAKEDOWN_TEST_ASM_FLIP_${ARGN}=1)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${SHAKEDOWN_CLANGXX_19} --target=riscv64-linux-gnu ${_rvv_sysroot} -march=rv64gcv -std=c++20 -O2
            ${SHAKEDOWN_CXX_WARNINGS}
            -DSHAKEDOWN_CONTRACT_RVV=1 -DSHAKEDOWN_CONTRACT_EMUL=1 ${flip}
            -I${CMAKE_CURRENT_SOURCE_DIR} -I${PROJECT_SOURCE_DIR}/lib/src -I${PROJECT_SOURCE_DIR}/lib/include
            -I${PROJECT_SOURCE_DIR}/emul/include -I${PROJECT_SOURCE_DIR}/emul/src -I${_rv}
            -MD -MF ${out}.d -c ${CMAKE_CURRENT_SOURCE_DIR}/zvk_contract.cc -o ${out}
    DEPFILE ${out}.d
    COMMAND_EXPAND_LISTS
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/zvk_contract.cc
    COMMENT "clang-19 -march=rv64gcv: asm contract test with vector code generation")
  set_source_files_properties(${out} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
endfunction()
set(_obj ${CMAKE_CURRENT_BINARY_DIR}/zvk_contract_rvv.o)
asm_contract_rvv_object(${_obj})
asm_contract_executable(shakedown_asm_contract_zvk_rvv OBJECTS ${_obj} EMUL)
set(_rvv_flips "")
if(_ac_flips)
  # Only VLEN 128 writes v25 (SHA-512 at LMUL = 2), so that is where the flip runs.
  set(_flip_obj ${CMAKE_CURRENT_BINARY_DIR}/zvk_contract_rvv_flip_vreg.o)
  asm_contract_rvv_object(${_flip_obj} ZVK_SHA2_VREG)
  asm_contract_executable(shakedown_asm_contract_zvk_rvv.flip-ZVK_SHA2_VREG OBJECTS ${_flip_obj} EMUL)
  set_property(GLOBAL PROPERTY SHAKEDOWN_ASM_CONTRACT_VIOLATION_zvk_rvv_ZVK_SHA2_VREG
               "asm contract violated: zvk_sha2_blocks<uint64_t>: vector live value [0-9]+")
  set(_rvv_flips ZVK_SHA2_VREG)
endif()
set_property(GLOBAL PROPERTY SHAKEDOWN_ASM_CONTRACT_FLIPS_zvk_rvv "${_rvv_flips}")
