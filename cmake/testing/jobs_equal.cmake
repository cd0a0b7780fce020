# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> -DARGS=a;b;c -DDIR=<folder> -DWALL=col;col -P jobs_equal.cmake
# Runs PROGRAM with ARGS and --jobs 1, then --jobs 2: what it prints and its
# CSV must be equal but for the wall-clock figures (netsim's speed line; the
# CSV columns WALL).
cmake_policy(SET CMP0007 NEW)  # lists keep empty cells
include("${CMAKE_CURRENT_LIST_DIR}/csv_without.cmake")
file(MAKE_DIRECTORY "${DIR}")
foreach(jobs 1 2)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} --jobs ${jobs} --csv "${DIR}/jobs${jobs}.csv"
                  OUTPUT_VARIABLE out RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "--jobs ${jobs} exited with ${status}")
  endif()
  string(REGEX REPLACE "speed: [^\n]*" "speed" out "${out}")
  csv_without("${DIR}/jobs${jobs}.csv" "${WALL}" kept)
  set(text${jobs} "${out}")
  set(csv${jobs} "${kept}")
endforeach()
if(NOT text1 STREQUAL text2)
  message(FATAL_ERROR "the printed results differ\n--- --jobs 1\n${text1}\n--- --jobs 2\n${text2}")
endif()
if(NOT csv1 STREQUAL csv2)
  message(FATAL_ERROR "the CSV rows differ\n--- --jobs 1\n${csv1}\n--- --jobs 2\n${csv2}")
endif()
message(STATUS "--jobs 2 equals --jobs 1")
