# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<netsim> -DARGS=a;b;c -DDIR=<folder> -P jobs_equal.cmake
# Runs a sweep with --jobs 1 and --jobs 2: the printed results and the CSV
# must be equal but for the wall-clock figures (the speed line; the wall_s
# and router_cycles_per_s columns).
cmake_policy(SET CMP0007 NEW)  # lists keep empty cells
file(MAKE_DIRECTORY "${DIR}")
foreach(jobs 1 2)
  execute_process(COMMAND "${PROGRAM}" ${ARGS} --jobs ${jobs} --csv "${DIR}/jobs${jobs}.csv"
                  OUTPUT_VARIABLE out RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "--jobs ${jobs} exited with ${status}")
  endif()
  string(REGEX REPLACE "speed: [^\n]*" "speed" out "${out}")
  file(STRINGS "${DIR}/jobs${jobs}.csv" rows)
  set(kept "")
  foreach(row IN LISTS rows)
    string(REPLACE "," ";" cells "${row}")
    list(LENGTH cells n)
    # wall_s and router_cycles_per_s follow simulated_cycles
    list(FIND cells "wall_s" header)
    if(header GREATER -1)
      set(wall ${header})
    endif()
    math(EXPR rate "${wall} + 1")
    list(REMOVE_AT cells ${rate})
    list(REMOVE_AT cells ${wall})
    string(APPEND kept "${cells}\n")
  endforeach()
  set(text${jobs} "${out}")
  set(csv${jobs} "${kept}")
endforeach()
if(NOT text1 STREQUAL text2)
  message(FATAL_ERROR "the printed results differ\n--- --jobs 1\n${text1}\n--- --jobs 2\n${text2}")
endif()
if(NOT csv1 STREQUAL csv2)
  message(FATAL_ERROR "the CSV rows differ\n--- --jobs 1\n${csv1}\n--- --jobs 2\n${csv2}")
endif()
