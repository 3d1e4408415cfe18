# x86-64 backend-level suites (x86_64/bmi2 against generic and OpenSSL, the PadLock rows), included from
# tests/CMakeLists.txt after shakedown_testmain exists. Test names: x86_64.<Suite>.<Test>.
add_executable(shakedown_x86_keccak_phe_tests ${CMAKE_CURRENT_LIST_DIR}/keccak_phe_test.cc)
target_link_libraries(shakedown_x86_keccak_phe_tests PRIVATE shakedown_testmain $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
# The generic block functions are compared directly: the library's internal headers.
target_include_directories(shakedown_x86_keccak_phe_tests PRIVATE ${PROJECT_SOURCE_DIR}/lib/src)
foreach(_opt SHAKEDOWN_NO_X86_64_BMI2 SHAKEDOWN_NO_X86_64_PHE SHAKEDOWN_NO_X86_64_SHA512NI)
  if(${_opt})
    target_compile_definitions(shakedown_x86_keccak_phe_tests PRIVATE ${_opt}=1)
  endif()
endforeach()
gtest_discover_tests(shakedown_x86_keccak_phe_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "x86_64."
                     DISCOVERY_TIMEOUT 60)
