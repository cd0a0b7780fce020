# SPDX-License-Identifier: BSL-1.0
# The three kinds of test a program of examples/ gets, each a CMake script
# run by ctest beside this file:
#   exit_cases(PROGRAM CASE...)     one test per case "name|arguments|exit
#       status|regex the output must match" (expect_exit.cmake; no semicolons:
#       a CMake list);
#   full_stdout_case(PROGRAM ARGS...)  with standard output on a full device
#       (/dev/full, where the system has one) the program must exit 3 and say
#       the write failed;
#   golden_output(NAME PROGRAM EXPECTED [STATUS n] [ARGS a...])  the run must
#       print exactly the EXPECTED file and exit with STATUS (default 0)
#       (compare_output.cmake);
#   effects_test(NAME PROGRAM CSV KEY CHECKS ARGS a...)  an experiment writes
#       CSV, then the direction and rough size of its effects are checked
#       (check_effects.cmake: KEY and CHECKS as that script takes them).
#   config_round_trip(NAME PROGRAM ARGS... [WALL col...] [STDOUT])  the
#       configuration written by --write-config and read back by --config
#       reproduces the CSV but for its wall-clock columns, or with STDOUT what
#       the program prints (config_round_trip.cmake);
#   jobs_equal(NAME PROGRAM ARGS... [WALL col...])  what --jobs 2 prints and
#       writes equals --jobs 1's but for the wall-clock columns (jobs_equal.cmake);
#   json_check(NAME PROGRAM JSON CHECKS ARGS a...)  the --json document parses
#       and its members match (json_check.cmake).
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

function(full_stdout_case program)
  if(NOT EXISTS /dev/full)
    return()
  endif()
  add_test(NAME "example: ${program} standard output on a full device"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${ARGN}"
            "-DSTATUS=3" "-DREGEX=${program}: writing standard output failed" "-DSTDOUT=/dev/full"
            -P "${INTERLOCK_TESTING_DIR}/expect_exit.cmake")
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

function(config_round_trip name program)
  cmake_parse_arguments(PARSE_ARGV 2 r "STDOUT" "FROM" "WALL")
  string(MAKE_C_IDENTIFIER "${program}_${name}" dir)
  add_test(NAME "example: ${program} configuration round trip, ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>"
            "-DARGS=${r_UNPARSED_ARGUMENTS}"
            "-DDIR=${CMAKE_CURRENT_BINARY_DIR}/round_trip_${dir}" "-DWALL=${r_WALL}"
            "-DSTDOUT=${r_STDOUT}" "-DFROM=${r_FROM}"
            -P "${INTERLOCK_TESTING_DIR}/config_round_trip.cmake")
endfunction()

function(jobs_equal name program)
  cmake_parse_arguments(PARSE_ARGV 2 r "" "" "WALL")
  string(MAKE_C_IDENTIFIER "${program}_${name}" dir)
  add_test(NAME "example: ${program} --jobs 2 equals --jobs 1, ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>"
            "-DARGS=${r_UNPARSED_ARGUMENTS}"
            "-DDIR=${CMAKE_CURRENT_BINARY_DIR}/jobs_${dir}" "-DWALL=${r_WALL}"
            -P "${INTERLOCK_TESTING_DIR}/jobs_equal.cmake")
endfunction()

# runs_equal(NAME PROGRAM FIRST args... SECOND args... IGNORE columns... ARGS
# args...): the program's CSV under ARGS FIRST equals that under ARGS SECOND
# but for the IGNORE columns (runs_equal.cmake).
function(runs_equal name program)
  cmake_parse_arguments(PARSE_ARGV 2 r "" "" "FIRST;SECOND;IGNORE;ARGS")
  string(MAKE_C_IDENTIFIER "${program}_${name}" dir)
  add_test(NAME "example: ${program}: ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${r_ARGS}"
            "-DFIRST=${r_FIRST}" "-DSECOND=${r_SECOND}" "-DIGNORE=${r_IGNORE}"
            "-DDIR=${CMAKE_CURRENT_BINARY_DIR}/equal_${dir}"
            -P "${INTERLOCK_TESTING_DIR}/runs_equal.cmake")
endfunction()

function(json_check name program json checks)
  cmake_parse_arguments(PARSE_ARGV 4 j "" "" "ARGS")
  add_test(NAME "example: ${name}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${j_ARGS}"
            "-DJSON=${json}" "-DCHECKS=${checks}" -P "${INTERLOCK_TESTING_DIR}/json_check.cmake")
endfunction()
