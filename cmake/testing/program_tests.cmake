# SPDX-License-Identifier: BSL-1.0
# The three kinds of test a program of examples/ gets, each a CMake script
# run by ctest beside this file:
#   exit_cases(PROGRAM CASE...)     one test per case "name|arguments|exit
#       status|regex the output must match" (expect_exit.cmake; no semicolons:
#       a CMake list);
#   golden_output(NAME PROGRAM EXPECTED [STATUS n] [ARGS a...])  the run must
#       print exactly the EXPECTED file and exit with STATUS (default 0)
#       (compare_output.cmake);
#   effects_test(NAME PROGRAM CSV KEY CHECKS ARGS a...)  an experiment writes
#       CSV, then the direction and rough size of its effects are checked
#       (check_effects.cmake: KEY and CHECKS as that script takes them).
# Every test is named "example: ...".
set(INTERLOCK_TESTING_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(exit_cases program)
  foreach(case IN LISTS ARGN)
    string(REGEX MATCH "^([^|]*)\\|([^|]*)\\|([0-9])\\|(.*)$" _ "${case}")
    separate_arguments(case_args UNIX_COMMAND "${CMAKE_MATCH_2}")
    add_test(NAME "example: ${program} ${CMAKE_MATCH_1}"
      COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>"
              "-DARGS=${case_args}" "-DSTATUS=${CMAKE_MATCH_3}" "-DREGEX=${CMAKE_MATCH_4}"
              -P "${INTERLOCK_TESTING_DIR}/expect_exit.cmake")
  endforeach()
endfunction()

function(golden_output name program expected)
  cmake_parse_arguments(PARSE_ARGV 3 g "" "STATUS" "ARGS")
  if(NOT DEFINED g_STATUS)
    set(g_STATUS 0)
  endif()
  add_test(NAME "example: ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${g_ARGS}"
            "-DEXPECTED=${expected}" "-DSTATUS=${g_STATUS}"
            -P "${INTERLOCK_TESTING_DIR}/compare_output.cmake")
endfunction()

function(effects_test name program csv key checks)
  cmake_parse_arguments(PARSE_ARGV 5 e "" "" "ARGS")
  add_test(NAME "example: ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${e_ARGS}"
            "-DCSV=${csv}" "-DKEY=${key}" "-DCHECKS=${checks}"
            -P "${INTERLOCK_TESTING_DIR}/check_effects.cmake")
endfunction()
