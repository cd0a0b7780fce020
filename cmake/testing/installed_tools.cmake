# SPDX-License-Identifier: BSL-1.0
# cmake -DBUILD=<build tree> -DPREFIX=<empty folder> -P installed_tools.cmake
# Installs the build tree under PREFIX, then runs every installed program
# (bin/interlock-*) with --version: each must exit 0 and name interlock's
# version. Fails when no program was installed.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}"
                OUTPUT_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status})")
endif()
file(GLOB programs "${PREFIX}/bin/interlock-*")
if(NOT programs)
  message(FATAL_ERROR "no interlock-* program under ${PREFIX}/bin")
endif()
foreach(program IN LISTS programs)
  execute_process(COMMAND "${program}" --version OUTPUT_VARIABLE out RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT out MATCHES "[(]interlock [0-9]+[.][0-9]+[.][0-9]+")
    message(FATAL_ERROR "${program} --version: exit ${status}, '${out}'")
  endif()
  message(STATUS "${out}")
endforeach()
