# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> [-DARGS=a;b;c] -DSTATUS=<n> -DREGEX=<regex> [-DSTDOUT=<file>]
#       -P expect_exit.cmake
# Runs PROGRAM with ARGS and fails unless it exits with STATUS and its output
# (stdout and stderr together) matches REGEX. With STDOUT, standard output
# goes to that file (such as /dev/full) and only stderr is matched. A last
# argument EMPTY is passed as an empty argument ('').
set(empty "")
list(LENGTH ARGS n)
if(n GREATER 0)
  list(GET ARGS -1 last)
  if(last STREQUAL "EMPTY")
    list(REMOVE_AT ARGS -1)
    set(empty "1")
  endif()
endif()
if(empty)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} "" OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE status)
elseif(DEFINED STDOUT)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_FILE "${STDOUT}" ERROR_VARIABLE err
                  RESULT_VARIABLE status)
  set(out "")
else()
  execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE status)
endif()
if(NOT status EQUAL STATUS)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}, expected ${STATUS}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${out}${err}")
endif()
