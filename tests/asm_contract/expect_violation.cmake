# Passes only when the command fails AND its output names the wrapper and the lost value (a flipped contract test).
#
#   cmake -DVIOLATION=<regex> "-DCOMMAND=<program>|<arg>|..." -P expect_violation.cmake
#
# An exit status alone would be satisfied by any crash or environment failure; the regex is the line the contract
# test prints for the value the flipped constraint loses ("asm contract violated: <wrapper>: <value>: ...").
# The command comes '|'-separated in a variable: cmake parses options such as qemu's -L even after "--".
foreach(var VIOLATION COMMAND)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_violation.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" command "${COMMAND}")

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(report "${out}${err}")
if(status EQUAL 0 OR NOT report MATCHES "${VIOLATION}")
  message("${report}")
  message(FATAL_ERROR "flipped constraint NOT caught: want a failing exit status (got ${status}) and a line "
                      "matching '${VIOLATION}'")
endif()
string(REGEX MATCH "[^\n]*${VIOLATION}[^\n]*" line "${report}")
message(STATUS "flipped constraint caught (exit status ${status}): ${line}")
