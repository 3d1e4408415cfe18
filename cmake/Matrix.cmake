# The verification matrix of the target arch as ctest entries. ci/matrix.py, the matrix's one interpreter, resolves
# ci/matrix/<arch>.txt into this build's plan (ci/plan.py: every entry spelled out with its runner, program,
# arguments, environment, labels and timeout) from the facts CMake states below; shakedown_matrix_register()
# registers the plan's entries in one loop, checking only what CMake alone knows: whether an entry's program target
# exists in this build, and whether the backends and the emulator library it needs are compiled. Included by the top
# level before any target exists (a cross build's plain entries run under the plan's emulator), and
# shakedown_matrix_register() is called once every test target exists. The driver and the gate read the same plan
# (SHAKEDOWN_MATRIX_PLAN) and the names registered from it (SHAKEDOWN_MATRIX_REGISTERED).
include(${CMAKE_CURRENT_LIST_DIR}/Qemu10.cmake)  # shakedown_find_qemu10(): the second executor (runner=qemu10)

set(SHAKEDOWN_QEMU_TEST_SCALE 0.05 CACHE STRING "SHAKEDOWN_TEST_SCALE of test runs under qemu-user")

set(_matrix_file ${PROJECT_SOURCE_DIR}/ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt)
set(SHAKEDOWN_MATRIX_PLAN ${PROJECT_BINARY_DIR}/plan-${SHAKEDOWN_MATRIX_ARCH}.jsonl)
set(SHAKEDOWN_MATRIX_REGISTERED ${PROJECT_BINARY_DIR}/plan-${SHAKEDOWN_MATRIX_ARCH}.registered)

# Sanitizer runtimes reserve huge shadow mappings: ASan, MSan and TSan binaries never run under qemu-user (an
# x86 ASan binary under qemu-x86_64 grew to 24 GB), so the plan of those builds has native environments only.
set(SHAKEDOWN_SANITIZED OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*(address|memory|thread)")
  set(SHAKEDOWN_SANITIZED ON)
endif()
if(CMAKE_CROSSCOMPILING AND SHAKEDOWN_SANITIZED)
  message(FATAL_ERROR "shakedown: ASan/MSan/TSan builds must not run under qemu-user; use UBSan only in cross builds")
endif()

# The facts of this build the plan depends on: who can execute what here.
function(_shakedown_matrix_facts var)
  set(_qemu "")
  set(_qemu10 "")
  if(CMAKE_CROSSCOMPILING)
    set(_qemu ${SHAKEDOWN_QEMU})
  else()
    find_program(SHAKEDOWN_HOST_QEMU qemu-${SHAKEDOWN_MATRIX_ARCH})
    if(SHAKEDOWN_HOST_QEMU)
      set(_qemu ${SHAKEDOWN_HOST_QEMU})
    endif()
  endif()
  if(NOT SHAKEDOWN_SANITIZED)
    shakedown_find_qemu10(${SHAKEDOWN_MATRIX_ARCH} _qemu10)
  endif()
  # Bochs (runner=bochs): ci/bochs/run, once ci/bochs/fetch has completed its kit in the cross cache.
  set(_bochs "")
  if(NOT CMAKE_CROSSCOMPILING AND EXISTS "${SHAKEDOWN_BOCHS_KIT}/.complete")
    set(_bochs ${SHAKEDOWN_BOCHS_KIT})
  elseif(NOT CMAKE_CROSSCOMPILING)
    message(STATUS "shakedown: no Bochs kit in ${SHAKEDOWN_BOCHS_KIT} (ci/bochs/fetch): its entries are not registered")
  endif()
  # Third-party code on the models (third-party= rows): the kits of ci/fetch-third-party; never in sanitized builds,
  # whose runtimes would meet the kits' C library.
  set(_third_party "")
  if(NOT SHAKEDOWN_SANITIZED AND IS_DIRECTORY "${SHAKEDOWN_THIRD_PARTY_DIR}")
    set(_third_party ${SHAKEDOWN_THIRD_PARTY_DIR})
  endif()
  set(${var} cross=${CMAKE_CROSSCOMPILING} sanitized=${SHAKEDOWN_SANITIZED} sysroot=${SHAKEDOWN_CROSS_SYSROOT}
      qemu=${_qemu} qemu10=${_qemu10} bochs=${_bochs} third_party=${_third_party}
      qemu_test_scale=${SHAKEDOWN_QEMU_TEST_SCALE}
      fuzz_random_runs=${SHAKEDOWN_FUZZ_RANDOM_RUNS} source_dir=${PROJECT_SOURCE_DIR} PARENT_SCOPE)
endfunction()

function(shakedown_matrix_load)
  if(NOT EXISTS ${_matrix_file})
    message(STATUS "shakedown: no ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt: no environment variants")
    return()
  endif()
  find_package(Python3 3.7 REQUIRED COMPONENTS Interpreter)
  _shakedown_matrix_facts(_facts)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/ci/matrix.py plan ${SHAKEDOWN_MATRIX_ARCH}
                          ${SHAKEDOWN_MATRIX_PLAN} ${_facts}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "shakedown: ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt: ${_err}")
  endif()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${_matrix_file} ${PROJECT_SOURCE_DIR}/ci/matrix.py ${PROJECT_SOURCE_DIR}/ci/plan.py)
  file(STRINGS ${SHAKEDOWN_MATRIX_PLAN} _build LIMIT_COUNT 1 ENCODING UTF-8)
  _shakedown_json_list(_emulator "${_build}" emulator)
  set(SHAKEDOWN_MATRIX_EMULATOR "${_emulator}" PARENT_SCOPE)
  set(SHAKEDOWN_MATRIX_LOADED ON PARENT_SCOPE)
endfunction()

# _shakedown_json_list(<var> <json> <key>): the JSON array <key> of the object <json> as a CMake list (the matrix
# allows no ';' in any value, so every item stays one element).
function(_shakedown_json_list var json key)
  string(JSON _n LENGTH "${json}" ${key})
  set(_out "")
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _item GET "${json}" ${key} ${_i})
      list(APPEND _out "${_item}")
    endforeach()
  endif()
  set(${var} "${_out}" PARENT_SCOPE)
endfunction()

shakedown_matrix_load()
if(SHAKEDOWN_MATRIX_EMULATOR)
  # Every plain ctest entry (discovered per-test entries, tools, fuzz corpora) runs under the first CPU model.
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SHAKEDOWN_MATRIX_EMULATOR})
endif()

# Whether a plan entry can be registered in this build: its program target, the emulator library and the backends
# it needs (a backend configured out with SHAKEDOWN_NO_<ARCH>_<ISA> is not in SHAKEDOWN_COMPILED_BACKENDS).
function(_shakedown_plan_can_register var json program)
  set(${var} OFF PARENT_SCOPE)
  string(JSON _needs_emul GET "${json}" needs_emul)
  if(NOT TARGET ${program} OR (_needs_emul AND NOT TARGET shakedown_emul))
    return()
  endif()
  _shakedown_json_list(_needs "${json}" needs)
  if(_needs)
    shakedown_backends_compiled(_compiled ${_needs})
    if(NOT _compiled)
      return()
    endif()
  endif()
  set(${var} ON PARENT_SCOPE)
endfunction()

# One "test" record of the plan: add_test with its runner, program and arguments, then its properties.
function(_shakedown_plan_test json)
  string(JSON _name GET "${json}" name)
  string(JSON _env GET "${json}" env)
  string(JSON _program GET "${json}" program)
  _shakedown_plan_can_register(_ok "${json}" ${_program})
  if(NOT _ok)
    return()
  endif()
  foreach(_key runner args environment labels)
    _shakedown_json_list(_${_key} "${json}" ${_key})
  endforeach()
  string(JSON _timeout GET "${json}" timeout)
  string(JSON _cost_type TYPE "${json}" cost)
  add_test(NAME ${_name} COMMAND ${_runner} $<TARGET_FILE:${_program}> ${_args})
  set_tests_properties(${_name} PROPERTIES LABELS "${_labels}" TIMEOUT ${_timeout})
  if(_environment)
    set_tests_properties(${_name} PROPERTIES ENVIRONMENT "${_environment}")
  endif()
  if(_cost_type STREQUAL "NUMBER")
    string(JSON _cost GET "${json}" cost)
    set_tests_properties(${_name} PROPERTIES COST ${_cost})
  endif()
  set_property(GLOBAL APPEND PROPERTY SHAKEDOWN_MATRIX_REGISTERED_LINES "${_env}\t${_name}")
endfunction()

# One "contract" record: an inline-asm contract run (tests/asm_contract/), its flipped copies where it says so.
function(_shakedown_plan_contract json)
  string(JSON _family GET "${json}" family)
  string(JSON _env GET "${json}" env)
  _shakedown_plan_can_register(_ok "${json}" shakedown_asm_contract_${_family})
  if(NOT _ok)
    return()
  endif()
  foreach(_key runner environment args)
    _shakedown_json_list(_${_key} "${json}" ${_key})
  endforeach()
  string(JSON _with_flips GET "${json}" with_flips)
  set(_flips "")
  if(_with_flips)
    set(_flips WITH_FLIPS)
  endif()
  asm_contract_run(${_family} ${_env} RUNNER ${_runner} ENV ${_environment} ARGS ${_args} ${_flips}
                   REGISTERED _names)
  foreach(_name IN LISTS _names)
    set_property(GLOBAL APPEND PROPERTY SHAKEDOWN_MATRIX_REGISTERED_LINES "${_env}\t${_name}")
  endforeach()
endfunction()

# Whether a test entry of this build's plan runs <program>: a program that only such entries run (the third-party
# harnesses, docs/third-party.md) is built only where the plan has one, not in the builds that cannot run it
# (sanitized ones, arches without a kit, a checkout whose kits were not fetched).
function(shakedown_plan_runs var program)
  set(${var} OFF PARENT_SCOPE)
  if(SHAKEDOWN_MATRIX_LOADED)
    file(STRINGS ${SHAKEDOWN_MATRIX_PLAN} _runs REGEX "\"type\":\"test\".*\"program\":\"${program}\"" ENCODING UTF-8)
    if(_runs)
      set(${var} ON PARENT_SCOPE)
    endif()
  endif()
endfunction()

# Registers every entry of the plan, in its order; called once every test and fuzz target exists. Writes the names
# it registered, each after its environment (the driver's lookup of an environment's entries).
function(shakedown_matrix_register)
  if(NOT SHAKEDOWN_MATRIX_LOADED)
    return()
  endif()
  file(STRINGS ${SHAKEDOWN_MATRIX_PLAN} _lines ENCODING UTF-8)
  foreach(_line IN LISTS _lines)
    string(JSON _type GET "${_line}" type)
    if(_type STREQUAL "test")
      _shakedown_plan_test("${_line}")
    elseif(_type STREQUAL "contract")
      _shakedown_plan_contract("${_line}")
    endif()
  endforeach()
  get_property(_registered GLOBAL PROPERTY SHAKEDOWN_MATRIX_REGISTERED_LINES)
  list(JOIN _registered "\n" _text)
  file(WRITE ${SHAKEDOWN_MATRIX_REGISTERED} "${_text}\n")
endfunction()
