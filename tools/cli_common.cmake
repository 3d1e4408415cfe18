# Command-line plumbing shared by `shakedown` (tools/) and `shakedown-repro` (fuzz/): GNU-style option
# parsing, quoting of untrusted text for the terminal, the message prefix and the stdout write-error check.
# It needs nothing but the C++ standard library; included by both folders, defined once.
if(NOT TARGET shakedown_cli_common)
  add_library(shakedown_cli_common STATIC
    ${CMAKE_CURRENT_LIST_DIR}/command_line.cc
    ${CMAKE_CURRENT_LIST_DIR}/diagnostics.cc
    ${CMAKE_CURRENT_LIST_DIR}/terminal_text.cc
  )
  target_include_directories(shakedown_cli_common PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(shakedown_cli_common PRIVATE $<BUILD_INTERFACE:shakedown_warnings>)
endif()
