# Passes only when the constant-time tool reports both deliberate leaks, each at its own line.
#
#   cmake -DLEAK_SOURCE=lib/src/internal/test_leak.h -DBRANCH_REPORT=<regex> -DLOOKUP_REPORT=<regex>
#         -P ct_expect_leak.cmake -- COMMAND...
#
# The lines come from their "ct-leak: branch" / "ct-leak: lookup" markers in LEAK_SOURCE. A report counts when
# its heading matches the kind's regex and the first source location after the heading is that line: the
# innermost frame, where the secret was branched on or used as an address. The command must fail as well.
# An exit status alone would be satisfied by any crash; a bare line number by an unrelated report.
foreach(var LEAK_SOURCE BRANCH_REPORT LOOKUP_REPORT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "ct_expect_leak.cmake: -D${var}=... is required")
  endif()
endforeach()

set(command "")
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "ct_expect_leak.cmake: no command after --")
endif()

get_filename_component(leak_file "${LEAK_SOURCE}" NAME)
file(STRINGS "${LEAK_SOURCE}" source_lines)
set(lineno 0)
foreach(text IN LISTS source_lines)
  math(EXPR lineno "${lineno} + 1")
  foreach(kind branch lookup)
    if(text MATCHES "ct-leak: ${kind}$")
      set(${kind}_line ${lineno})
    endif()
  endforeach()
endforeach()
if(NOT branch_line OR NOT lookup_line)
  message(FATAL_ERROR "ct_expect_leak.cmake: no 'ct-leak: branch' / 'ct-leak: lookup' marker in ${LEAK_SOURCE}")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(report "${out}${err}")
string(REPLACE ";" "," report_lines "${report}")  # list-safe: one element per line below
string(REPLACE "\n" ";" report_lines "${report_lines}")

set(branch_found FALSE)
set(lookup_found FALSE)
set(pending "")  # the kinds whose heading was seen, waiting for the heading's first source location
foreach(line IN LISTS report_lines)
  if(pending AND line MATCHES "([A-Za-z0-9_.+-]+\\.(h|cc|cpp|c)):([0-9]+)")
    foreach(kind IN LISTS pending)
      if(CMAKE_MATCH_1 STREQUAL leak_file AND CMAKE_MATCH_3 EQUAL ${kind}_line)
        set(${kind}_found TRUE)
      endif()
    endforeach()
    set(pending "")
  endif()
  if(line MATCHES "${BRANCH_REPORT}")
    list(APPEND pending branch)
  endif()
  if(line MATCHES "${LOOKUP_REPORT}")
    list(APPEND pending lookup)
  endif()
endforeach()

set(missing "")
if(status EQUAL 0)
  list(APPEND missing "a failing exit status (got 0)")
endif()
if(NOT branch_found)
  list(APPEND missing "the branch at ${leak_file}:${branch_line} (a report '${BRANCH_REPORT}' located there)")
endif()
if(NOT lookup_found)
  list(APPEND missing "the lookup at ${leak_file}:${lookup_line} (a report '${LOOKUP_REPORT}' located there)")
endif()
if(missing)
  message("${report}")
  list(JOIN missing "; " missing_text)
  message(FATAL_ERROR "deliberate leaks NOT caught: missing ${missing_text}")
endif()
message(STATUS "deliberate leaks caught: branch at ${leak_file}:${branch_line}, lookup at ${leak_file}:${lookup_line}, "
               "exit status ${status}")
