# Cross-arch CPU-model matrix: every suite runs once per qemu-user CPU model of the toolchain
# (ci/toolchains/<arch>.cmake: SHAKEDOWN_QEMU_MODELS under QEMU 7.2, SHAKEDOWN_QEMU10_MODELS under QEMU 10), with the
# registry's selection asserted.
#
# The expected selection of a model comes from the arch folder (global property
# SHAKEDOWN_QEMU_EXPECT_<alias>, e.g. arch/arm64/CMakeLists.txt); an arch without a folder has only
# the generic backends. Included from cmake/TestMatrix.cmake, after shakedown_add_variant exists.
if(NOT CMAKE_CROSSCOMPILING OR NOT SHAKEDOWN_QEMU OR NOT SHAKEDOWN_QEMU_MODELS)
  return()
endif()
if(SHAKEDOWN_SANITIZED)
  # docs/platforms.md §6.1: ASan under qemu-user hangs, fails at start or eats all memory.
  message(FATAL_ERROR "shakedown: ASan/MSan builds must not run under qemu-user; use UBSan only in cross builds")
endif()

set(_has_arch_folder OFF)
if(SHAKEDOWN_ARCH AND EXISTS ${PROJECT_SOURCE_DIR}/arch/${SHAKEDOWN_ARCH}/CMakeLists.txt)
  set(_has_arch_folder ON)
endif()

set(_fuzz_drivers "")
if(EXISTS ${PROJECT_SOURCE_DIR}/fuzz/CMakeLists.txt)
  get_property(_fuzz_all DIRECTORY ${PROJECT_SOURCE_DIR}/fuzz PROPERTY BUILDSYSTEM_TARGETS)
  list(FILTER _fuzz_all INCLUDE REGEX "_standalone$")
  set(_fuzz_drivers ${_fuzz_all})
endif()

# shakedown_cross_model(<runner prefix> <qemu> <alias=cpu-string>): every suite and fuzz driver of one CPU model.
function(shakedown_cross_model runner qemu model)
  # "alias=cpu-string"; the cpu string has '=' of its own (riscv64 "rv64,v=true"), so split at the first.
  string(FIND "${model}" "=" _eq)
  string(SUBSTRING "${model}" 0 ${_eq} _alias)
  math(EXPR _eq "${_eq} + 1")
  string(SUBSTRING "${model}" ${_eq} -1 _cpu)
  get_property(_expect GLOBAL PROPERTY SHAKEDOWN_QEMU_EXPECT_${_alias})
  if(NOT _expect)
    if(_has_arch_folder)
      # A model whose selection nobody states would pass whatever the registry picks.
      message(FATAL_ERROR "shakedown: arch/${SHAKEDOWN_ARCH} states no expected selection for qemu model "
                          "'${_alias}': set the global property SHAKEDOWN_QEMU_EXPECT_${_alias}")
    endif()
    set(_expect "sha256=generic,sha512=generic,keccak=generic")
  endif()
  # Extra environment of this model's runs (global property SHAKEDOWN_QEMU_ENV_<alias>, k=v list), e.g. the
  # SHAKEDOWN_TEST_ASSUME a feature needs when QEMU executes it but detection cannot see it (riscv64 Zknh).
  get_property(_model_env GLOBAL PROPERTY SHAKEDOWN_QEMU_ENV_${_alias})
  if(_model_env)
    string(APPEND _model_env ";")  # so that "${_model_env}NEXT=..." below never leaves an empty item
  endif()
  set(_prefix ${runner}.${_alias})
  shakedown_add_variant(PREFIX ${_prefix}
    EMULATOR ${qemu} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${_cpu}
    ENV "SHAKEDOWN_TEST_SCALE=${SHAKEDOWN_QEMU_TEST_SCALE}" "SHAKEDOWN_EXPECT_SELECTED=${_expect}" ${_model_env})
  # The fuzz targets' standalone drivers (fuzz/: <target>_standalone, seeds in fuzz/corpus/<target>):
  # corpus replay and a bounded random run under this model too.
  foreach(_driver IN LISTS _fuzz_drivers)
    string(REGEX REPLACE "_standalone$" "" _fuzz_target "${_driver}")
    add_test(NAME ${_prefix}.${_fuzz_target}.replay
             COMMAND ${qemu} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${_cpu} $<TARGET_FILE:${_driver}>
                     ${PROJECT_SOURCE_DIR}/fuzz/corpus/${_fuzz_target})
    add_test(NAME ${_prefix}.${_fuzz_target}.random
             COMMAND ${qemu} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${_cpu} $<TARGET_FILE:${_driver}>
                     -runs=300 -seed=2 -max_len=1024)
    set_tests_properties(${_prefix}.${_fuzz_target}.replay ${_prefix}.${_fuzz_target}.random PROPERTIES
      ENVIRONMENT "SHAKEDOWN_TEST_SCALE=${SHAKEDOWN_QEMU_TEST_SCALE};SHAKEDOWN_EXPECT_SELECTED=${_expect};${_model_env}SHAKEDOWN_ENV_NAME=${_prefix}"
      LABELS "${_prefix};fuzz" TIMEOUT 1500)
  endforeach()
  message(STATUS "shakedown: ${runner} -cpu ${_cpu} (${_alias}) expects ${_expect}")
endfunction()

# Debian's QEMU 7.2 (the system's qemu-<arch>) runs SHAKEDOWN_QEMU_MODELS; QEMU 10 (ci/fetch-qemu10,
# cmake/Qemu10.cmake) runs SHAKEDOWN_QEMU10_MODELS, what only it executes (docs/qemu10.md). Aliases are unique
# across both lists: they name the expected selection.
foreach(_model IN LISTS SHAKEDOWN_QEMU_MODELS)
  shakedown_cross_model(qemu-${SHAKEDOWN_QEMU_ARCH} ${SHAKEDOWN_QEMU} "${_model}")
endforeach()
if(SHAKEDOWN_QEMU10_MODELS)
  shakedown_find_qemu10(${SHAKEDOWN_QEMU_ARCH} _qemu10)
  if(_qemu10)
    foreach(_model IN LISTS SHAKEDOWN_QEMU10_MODELS)
      shakedown_cross_model(qemu10-${SHAKEDOWN_QEMU_ARCH} ${_qemu10} "${_model}")
    endforeach()
  endif()
endif()
