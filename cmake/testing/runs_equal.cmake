# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> -DARGS=a;b -DFIRST=c;d -DSECOND=e;f -DDIR=<folder> -DIGNORE=col;col
#       -P runs_equal.cmake
# Runs PROGRAM with ARGS and FIRST, then with ARGS and SECOND, each writing
# --csv: the two tables must be equal but for the columns IGNORE (the
# settings that differ by name only, and the wall-clock figures). Two
# spellings of one model are checked so, decision for decision.
cmake_policy(SET CMP0007 NEW)  # lists keep empty cells
include("${CMAKE_CURRENT_LIST_DIR}/csv_without.cmake")
file(MAKE_DIRECTORY "${DIR}")
foreach(run FIRST SECOND)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} ${${run}} --csv "${DIR}/${run}.csv"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${run} (${${run}}) exited with ${status}\n${out}\n${err}")
  endif()
  csv_without("${DIR}/${run}.csv" "${IGNORE}" kept)
  set(csv_${run} "${kept}")
endforeach()
if(NOT csv_FIRST STREQUAL csv_SECOND)
  message(FATAL_ERROR "the CSV rows differ\n--- ${FIRST}\n${csv_FIRST}\n--- ${SECOND}\n${csv_SECOND}")
endif()
message(STATUS "${SECOND} equals ${FIRST}")
