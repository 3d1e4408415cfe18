# The library as outside projects see it (consumer.sh): ctest entries of host builds, included by
# tests/CMakeLists.txt. Two installs are fixtures the consumers require: this build's static library installed
# into a prefix (nothing rebuilt), and a shared build of the library and the CLI (the one extra library build; the
# add_subdirectory consumer is the other).
set(_consumer_work ${PROJECT_BINARY_DIR}/consumers)
set(_consumer_env "CMAKE=${CMAKE_COMMAND}" "CMAKE_GENERATOR=${CMAKE_GENERATOR}" "CC=${CMAKE_C_COMPILER}"
                  "CXX=${CMAKE_CXX_COMPILER}" ${SHAKEDOWN_LAUNCHER_ENV})
function(shakedown_consumer_test mode)
  cmake_parse_arguments(C "" "SETUP;REQUIRES" "" ${ARGN})
  add_test(NAME package.${mode}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/consumer.sh ${mode} ${PROJECT_SOURCE_DIR} ${_consumer_work}
                   ${PROJECT_BINARY_DIR})
  set_tests_properties(package.${mode} PROPERTIES LABELS package ENVIRONMENT "${_consumer_env}" TIMEOUT 900)
  if(C_SETUP)
    set_tests_properties(package.${mode} PROPERTIES FIXTURES_SETUP ${C_SETUP})
  endif()
  if(C_REQUIRES)
    set_tests_properties(package.${mode} PROPERTIES FIXTURES_REQUIRED ${C_REQUIRES})
  endif()
endfunction()

shakedown_consumer_test(install-static SETUP package_static)
shakedown_consumer_test(install-shared SETUP package_shared)
shakedown_consumer_test(find_package-static REQUIRES package_static)
shakedown_consumer_test(find_package-shared REQUIRES package_shared)
shakedown_consumer_test(pkg_config REQUIRES package_static)
shakedown_consumer_test(c_find_package REQUIRES package_static)
shakedown_consumer_test(symbols REQUIRES package_shared)
shakedown_consumer_test(cli-shared REQUIRES package_shared)
shakedown_consumer_test(add_subdirectory)
shakedown_consumer_test(embed_export)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  list(APPEND _consumer_env "PYTHON=${Python3_EXECUTABLE}")
  shakedown_consumer_test(ctypes REQUIRES package_shared)
endif()
