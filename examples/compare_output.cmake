# cmake -DPROGRAM=<exe> [-DARGS=a;b;c] -DEXPECTED=<file> -P compare_output.cmake
# Runs PROGRAM with ARGS and fails, showing both, unless its output equals EXPECTED.
execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE actual RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}\n--- expected\n${expected}\n--- actual\n${actual}")
endif()
