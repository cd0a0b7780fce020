# SPDX-License-Identifier: BSL-1.0
# Configures, builds and installs interlock as a machine without Catch2,
# RapidCheck and Google Benchmark would (their find_package disabled), with
# tests and benchmarks left on: configuring must succeed, say in one line
# each that they are skipped, and the install must hold the headers.
#   cmake -DSOURCE=<interlock> -DWORK=<scratch dir> -P no_test_tools.cmake
file(REMOVE_RECURSE "${WORK}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/build" -DINTERLOCK_BUILD_EXAMPLES=OFF
          -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON
          -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configure failed without the test tools:\n${out}\n${err}")
endif()
foreach(expected "tests skipped: Catch2 2 and RapidCheck are needed"
                 "benchmarks skipped: Google Benchmark is needed")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no message '${expected}' in:\n${out}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/build" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "build failed without the test tools")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${WORK}/build" --prefix "${WORK}/prefix"
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0 OR NOT EXISTS "${WORK}/prefix/include/interlock/interlock.hpp")
  message(FATAL_ERROR "install failed without the test tools")
endif()
if(NOT EXISTS "${WORK}/prefix/share/doc/interlock/LICENSE")
  message(FATAL_ERROR "the install does not hold the licence (share/doc/interlock/LICENSE)")
endif()
