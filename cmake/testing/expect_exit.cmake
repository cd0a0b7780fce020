# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> [-DARGS=a;b;c] -DSTATUS=<n> -DREGEX=<regex> -P expect_exit.cmake
# Runs PROGRAM with ARGS and fails unless it exits with STATUS and its output
# (stdout and stderr together) matches REGEX.
execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE status)
if(NOT status EQUAL STATUS)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}, expected ${STATUS}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${out}${err}")
endif()
