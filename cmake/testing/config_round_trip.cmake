# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> -DARGS=a;b;c -DDIR=<folder> -DWALL=col;col [-DSTDOUT=1]
#       [-DFROM=<folder>] -P config_round_trip.cmake
# Runs PROGRAM with ARGS, writing its resolved configuration
# (--write-config) and its CSV; runs it again from that configuration alone
# (--config); the two CSVs must be equal but for the wall-clock columns WALL.
# With STDOUT (a tool that writes no CSV) what the two runs print must be
# equal instead. With FROM the first run works in FROM (ARGS may name files
# relative to it) and the second in DIR: the written configuration must
# name the files it reads so that they read back from anywhere.
cmake_policy(SET CMP0007 NEW)  # lists keep empty cells
file(MAKE_DIRECTORY "${DIR}")
if(NOT FROM)
  set(FROM "${DIR}")
endif()
set(config "${DIR}/written.conf")
if(STDOUT)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} --write-config "${config}"
                  WORKING_DIRECTORY "${FROM}" OUTPUT_VARIABLE first RESULT_VARIABLE status)
  execute_process(COMMAND "${PROGRAM}" --config "${config}" WORKING_DIRECTORY "${DIR}"
                  OUTPUT_VARIABLE second ERROR_VARIABLE err RESULT_VARIABLE status2)
  file(READ "${config}" text)
  if(NOT status EQUAL status2)
    message(FATAL_ERROR "exit ${status}, then ${status2} from the written configuration:\n${err}\n${text}")
  endif()
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "the outputs differ\n--- first\n${first}\n--- second\n${second}\n--- configuration\n${text}")
  endif()
  message(STATUS "identical output from ${config}")
  return()
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} --write-config "${config}" --csv "${DIR}/first.csv"
                WORKING_DIRECTORY "${FROM}" OUTPUT_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "first run exited with ${status}")
endif()
execute_process(COMMAND "${PROGRAM}" --config "${config}" --csv "${DIR}/second.csv"
                WORKING_DIRECTORY "${DIR}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(READ "${config}" text)
  message(FATAL_ERROR "the run from the written configuration exited with ${status}:\n${err}\n${text}")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/csv_without.cmake")
csv_without("${DIR}/first.csv" "${WALL}" first)
csv_without("${DIR}/second.csv" "${WALL}" second)
if(NOT first STREQUAL second)
  file(READ "${config}" text)
  message(FATAL_ERROR "the CSVs differ\n--- first\n${first}\n--- second\n${second}\n--- configuration\n${text}")
endif()
message(STATUS "identical CSV from ${config}")
