# SPDX-License-Identifier: BSL-1.0
# The study runner on a small design (tests/data/study/decomposition_design.csv,
# 2x2x2 tori): in a fresh folder it runs every run the design lists now (two
# rows of 3 seeds), records the three a program refuses, leaves the row whose
# condition is not met, writes the verdict; run again, it finds nothing due
# and the grid is as it was.
#   cmake -DSTUDY=... -DBIN=... -DDESIGN=... -DDIR=... -P study_runs.cmake
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
configure_file("${DESIGN}" "${DIR}/design.csv" COPYONLY)
foreach(round 1 2)
  execute_process(COMMAND "${STUDY}" anton2_decomposition --folder "${DIR}" --bin "${BIN}"
                          --summary "${DIR}" --jobs 2
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "round ${round}: exit ${status}\n${out}\n${err}")
  endif()
  file(STRINGS "${DIR}/grid.csv" grid)
  file(STRINGS "${DIR}/refused.csv" refused)
  list(LENGTH grid g)
  list(LENGTH refused f)
  if(NOT g EQUAL 7 OR NOT f EQUAL 4)
    message(FATAL_ERROR "round ${round}: ${g} grid lines and ${f} refused lines, not 7 and 4\n${out}")
  endif()
  if(round EQUAL 1)
    set(first "${grid}")
    if(NOT out MATCHES "6 due" AND NOT out MATCHES "9 due")
      message(FATAL_ERROR "round 1: not the runs due\n${out}")
    endif()
  elseif(NOT grid STREQUAL first OR out MATCHES "due")
    message(FATAL_ERROR "round 2 ran again:\n${out}")
  endif()
endforeach()
file(READ "${DIR}/refused.csv" text)
if(NOT text MATCHES "wavefront,iw:levels.mbit.window,4,1,saturation: --allocator: 'wavefront'")
  message(FATAL_ERROR "refused.csv does not hold saturation's message:\n${text}")
endif()
file(READ "${DIR}/verdict.md" verdict)
if(NOT verdict MATCHES "6 runs in the grid, 3 refused")
  message(FATAL_ERROR "verdict.md:\n${verdict}")
endif()
