# riscv64 wrapper families (included by CMakeLists.txt), under qemu-riscv64 7.2: Zknh (executed by QEMU with zk=true),
# the vlenb read, and the vector-crypto loop (QEMU 7.2 has V but no Zvk*: the Zvk model runs those), the latter also
# compiled by clang-19 with vector code generation so that its vector clobbers are exercised.
if(NOT CMAKE_CROSSCOMPILING OR NOT SHAKEDOWN_QEMU)
  return()
endif()
set(_rv ${PROJECT_SOURCE_DIR}/arch/riscv64)
set(_qemu ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu)
set(_rvv "rv64,v=true,elen=64,vext_spec=v1.0,vlen=")  # + VLEN

asm_contract_family(vlenb SOURCES vlenb_contract.cc INCLUDES ${_rv}
  FLIPS "VLENB=asm contract violated: read_vlenb: vlenb \\(rd\\)")
asm_contract_run(vlenb qemu-vlen128 RUNNER ${_qemu} ${_rvv}128 ARGS 128 WITH_FLIPS)
asm_contract_run(vlenb qemu-vlen1024 RUNNER ${_qemu} ${_rvv}1024 ARGS 1024)
asm_contract_run(bytes qemu-rv64gcv RUNNER ${_qemu} ${_rvv}128 WITH_FLIPS)

if(NOT SHAKEDOWN_NO_RISCV64_ZKNH)
  asm_contract_family(zknh SOURCES zknh_contract.cc INCLUDES ${_rv}
    FLIPS "ZKNH=asm contract violated: zknh_sha256sum0: result \\(rd\\)")
  asm_contract_run(zknh qemu-rv64zk RUNNER ${_qemu} rv64,zk=true WITH_FLIPS)
endif()

if(SHAKEDOWN_NO_RISCV64_ZVKNHA AND SHAKEDOWN_NO_RISCV64_ZVKNHB)
  return()
endif()
set(_zvk_env "SHAKEDOWN_EMULATE=zvk:zvknhb,tail-ones" "SHAKEDOWN_EMULATE_REQUIRE=vsha2ms=1,vsha2ch=1,vsha2cl=1,vrev8=1")
asm_contract_family(zvk SOURCES zvk_contract.cc INCLUDES ${_rv} EMUL
  FLIPS "ZVK_SHA2=asm contract violated: zvk_sha2_blocks<uint32_t>: caller's data pointer")
# VLEN 128: SHA-512 runs at LMUL = 2 (v0/v1 ... v24/v25 groups); 256: LMUL = 1.
asm_contract_run(zvk emul-zvk-vlen128 RUNNER ${_qemu} ${_rvv}128 ENV ${_zvk_env} WITH_FLIPS)
asm_contract_run(zvk emul-zvk-vlen256 RUNNER ${_qemu} ${_rvv}256 ENV ${_zvk_env})

# The same test built by clang-19 for rv64gcv (the tree's own compiler may be g++-12, which emits no vector code):
# the object is compiled here and linked with the tree's main and emulator. Without clang-19 the entries are missing
# and the configure step says so.
find_program(SHAKEDOWN_CLANGXX_19 clang++-19)
if(NOT SHAKEDOWN_CLANGXX_19)
  message(WARNING "shakedown: no clang++-19, the riscv64 vector-codegen asm contract test is not built")
  return()
endif()
# asm_contract_rvv_object(<output> [<flip id>]): zvk_contract.cc compiled with -march=rv64gcv.
function(asm_contract_rvv_object out)
  set(flip "")
  if(ARGN)
    set(flip -DSHAKEDOWN_TEST_ASM_FLIP_${ARGN}=1)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${SHAKEDOWN_CLANGXX_19} --target=riscv64-linux-gnu -march=rv64gcv -std=c++20 -O2
            $<TARGET_PROPERTY:shakedown_warnings,INTERFACE_COMPILE_OPTIONS>
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
asm_contract_run(zvk_rvv emul-zvk-vlen128 RUNNER ${_qemu} ${_rvv}128 ENV ${_zvk_env} WITH_FLIPS)
asm_contract_run(zvk_rvv emul-zvk-vlen256 RUNNER ${_qemu} ${_rvv}256 ENV ${_zvk_env})
