# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> -DINPUT=<file> -DARGS=a;b -DREGEX=<re> -P piped_input.cmake
# Runs `cat INPUT | PROGRAM ARGS` (ARGS name /dev/stdin where the file
# goes): the program must read its input through a pipe, exit 0 and print
# output matching REGEX.
execute_process(COMMAND "${CMAKE_COMMAND}" -E cat "${INPUT}"
                COMMAND "${PROGRAM}" ${ARGS}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULTS_VARIABLE statuses)
list(GET statuses 1 status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status} reading ${INPUT} through a pipe\n${out}${err}")
endif()
if(NOT out MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match ${REGEX}\n${out}")
endif()
