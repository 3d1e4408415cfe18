# The oracle and test support, without GoogleTest (the suites, fuzzers, tools and the MSan driver link it).
# Included by tests/CMakeLists.txt and by tests/msan_check.cmake (which the top level includes on its own when
# only the MSan driver is built); defined once, whichever comes first.
if(TARGET shakedown_oracle)
  return()
endif()
if(SHAKEDOWN_ORACLE_OPENSSL)
  add_library(shakedown_oracle STATIC ${CMAKE_CURRENT_LIST_DIR}/support.cc ${CMAKE_CURRENT_LIST_DIR}/oracle_openssl.cc)
  target_link_libraries(shakedown_oracle PUBLIC OpenSSL::Crypto)
else()
  add_library(shakedown_oracle STATIC ${CMAKE_CURRENT_LIST_DIR}/support.cc ${CMAKE_CURRENT_LIST_DIR}/oracle_generic.cc)
endif()
target_compile_definitions(shakedown_oracle PUBLIC SHAKEDOWN_ORACLE_OPENSSL=$<BOOL:${SHAKEDOWN_ORACLE_OPENSSL}>)
target_include_directories(shakedown_oracle PUBLIC ${CMAKE_CURRENT_LIST_DIR})
find_package(nlohmann_json 3 REQUIRED)  # the execution records (apt: nlohmann-json3-dev)
target_link_libraries(shakedown_oracle PUBLIC shakedown::testing
                      PRIVATE nlohmann_json::nlohmann_json $<BUILD_INTERFACE:shakedown_warnings>)
