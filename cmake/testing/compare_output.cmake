# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> [-DARGS=a;b;c] [-DSTATUS=n] -DEXPECTED=<file> [-DLINES=<regex>]
#       -P compare_output.cmake
# Runs PROGRAM with ARGS and fails, showing both, unless its output equals
# EXPECTED (only its lines that match LINES, when given) and it exits with
# STATUS (default 0).
if(NOT DEFINED STATUS)
  set(STATUS 0)
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE actual RESULT_VARIABLE status)
if(NOT status EQUAL STATUS)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}, expected ${STATUS}")
endif()
if(DEFINED LINES)
  file(STRINGS "${EXPECTED}" kept REGEX "${LINES}")
  list(JOIN kept "\n" expected)
  string(APPEND expected "\n")
else()
  file(READ "${EXPECTED}" expected)
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}\n--- expected\n${expected}\n--- actual\n${actual}")
endif()
