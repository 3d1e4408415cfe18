# Direct backend tests for x86_64/bmi2 (Keccak) and x86_64/phe, x86_64/phe2 (PadLock); included from
# tests/CMakeLists.txt after shakedown_testmain exists. Test names: x86_64.<Suite>.<Test>.
add_executable(shakedown_x86_keccak_phe_tests ${CMAKE_CURRENT_LIST_DIR}/keccak_phe_test.cc)
target_link_libraries(shakedown_x86_keccak_phe_tests PRIVATE shakedown_testmain $<BUILD_INTERFACE:shakedown_warnings>)
# The test calls the block functions directly: internal headers, and the same ISA switches as the library.
target_include_directories(shakedown_x86_keccak_phe_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}
                           ${CMAKE_CURRENT_LIST_DIR}/../../lib/src)
if(NOT SHAKEDOWN_NO_BMI2)
  target_compile_definitions(shakedown_x86_keccak_phe_tests PRIVATE SHAKEDOWN_X86_BMI2=1)
endif()
if(NOT SHAKEDOWN_NO_PHE)
  target_compile_definitions(shakedown_x86_keccak_phe_tests PRIVATE SHAKEDOWN_X86_PHE=1)
endif()
gtest_discover_tests(shakedown_x86_keccak_phe_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "x86_64."
                     DISCOVERY_TIMEOUT 60)
