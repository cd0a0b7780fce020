# SPDX-License-Identifier: BSL-1.0
# cmake -DINCLUDE_DIR=<include> -P check_umbrella.cmake
# Fails, naming the header, when interlock/interlock.hpp misses a public header.
file(GLOB_RECURSE headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/interlock/*.hpp")
file(READ "${INCLUDE_DIR}/interlock/interlock.hpp" umbrella)
set(missing "")
foreach(header IN LISTS headers)
  if(header STREQUAL "interlock/interlock.hpp" OR header MATCHES "/detail/")
    continue()
  endif()
  # The reference model is opt-in (interlock::model), and so is the bzip2
  # trace reader (it needs libbz2's header): never in the umbrella.
  if(header MATCHES "^interlock/model/" OR header STREQUAL "interlock/traffic/netrace_bzip2.hpp")
    string(FIND "${umbrella}" "${header}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "interlock/interlock.hpp includes the opt-in ${header}")
    endif()
    continue()
  endif()
  string(FIND "${umbrella}" "#include \"${header}\"" at)
  if(at EQUAL -1)
    list(APPEND missing "${header}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "interlock/interlock.hpp does not include: ${missing}")
endif()
list(LENGTH headers count)
message(STATUS "umbrella header includes all ${count} public headers")
