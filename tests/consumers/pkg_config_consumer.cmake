# SPDX-License-Identifier: BSL-1.0
# cmake -DPKG_CONFIG=... -DPREFIX=... -DCXX=... -DSOURCE=... -DOUTPUT=... -P pkg_config_consumer.cmake
# Compiles and runs the consumer with the flags the installed interlock.pc gives,
# and checks that its include path alone (--cflags-only-I) finds the headers.
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/share/pkgconfig")
execute_process(COMMAND "${PKG_CONFIG}" --cflags interlock
                OUTPUT_VARIABLE cflags RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags interlock failed (${status})")
endif()
message(STATUS "pkg-config --cflags interlock: ${cflags}")
if(NOT cflags MATCHES "-std=c\\+\\+17")
  message(FATAL_ERROR "interlock.pc's Cflags lack -std=c++17: ${cflags}")
endif()
# The BookSim2 build step (docs/integrations.md) takes only the include path.
execute_process(COMMAND "${PKG_CONFIG}" --cflags-only-I interlock
                OUTPUT_VARIABLE include_flags RESULT_VARIABLE status
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0 OR NOT include_flags MATCHES "^-I(.+)$")
  message(FATAL_ERROR "pkg-config --cflags-only-I interlock gave '${include_flags}' (${status})")
endif()
if(NOT EXISTS "${CMAKE_MATCH_1}/interlock/interlock.hpp")
  message(FATAL_ERROR "pkg-config --cflags-only-I interlock: no interlock/interlock.hpp under "
                      "${CMAKE_MATCH_1}")
endif()
separate_arguments(cflags UNIX_COMMAND "${cflags}")
# No -std here: the .pc's flags must be enough (clang 14 defaults to C++14).
execute_process(COMMAND "${CXX}" ${cflags} "${SOURCE}" -o "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "compiling with the pkg-config flags failed")
endif()
execute_process(COMMAND "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the pkg-config consumer failed (${status})")
endif()
