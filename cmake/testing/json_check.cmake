# SPDX-License-Identifier: BSL-1.0
# cmake -DPROGRAM=<exe> -DARGS=a;b;c -DJSON=<file> -DCHECKS=path=regex;... -P json_check.cmake
# Runs PROGRAM with ARGS (which write JSON to the file JSON, or to standard
# output when JSON is "stdout"), parses it with
# CMake's JSON reader, and checks each "path=regex": path is a
# space-separated member path (array indexes as numbers) whose value must
# match regex. A document that does not parse fails.
execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE status)
if(NOT status EQUAL 0 AND NOT status EQUAL 1)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}\n${err}")
endif()
if(JSON STREQUAL "stdout")
  set(doc "${out}")
else()
  file(READ "${JSON}" doc)
endif()
string(JSON type ERROR_VARIABLE error TYPE "${doc}")
if(error)
  message(FATAL_ERROR "${JSON} does not parse: ${error}\n${doc}")
endif()
foreach(check IN LISTS CHECKS)
  string(FIND "${check}" "=" eq)
  string(SUBSTRING "${check}" 0 ${eq} path)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${check}" ${start} -1 regex)
  separate_arguments(members UNIX_COMMAND "${path}")
  string(JSON value ERROR_VARIABLE error GET "${doc}" ${members})
  if(error)
    message(FATAL_ERROR "${path}: ${error}")
  endif()
  if(NOT value MATCHES "${regex}")
    message(FATAL_ERROR "${path} = '${value}' does not match '${regex}'")
  endif()
endforeach()
