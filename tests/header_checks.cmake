# SPDX-License-Identifier: BSL-1.0
# Every public header compiles on its own, with strict warnings as errors, in
# a translation unit of its own that includes it twice (the include guard must
# hold), at C++17, the standard the library requires (a newer standard's
# library headers include more of each other and can hide a missing include).
# The headers are found anew at each configure, so a new header is checked
# without editing this file.
file(GLOB_RECURSE INTERLOCK_PUBLIC_HEADERS RELATIVE "${PROJECT_SOURCE_DIR}/include"
     CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/include/*.hpp")

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  foreach(header IN LISTS INTERLOCK_PUBLIC_HEADERS)
    string(MAKE_C_IDENTIFIER "${header}" id)
    set(tu "${CMAKE_CURRENT_BINARY_DIR}/header_checks/${id}.cpp")
    file(WRITE "${tu}" "#include <${header}>\n#include <${header}>\n")
    add_test(NAME "header: ${header}"
      COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17
              -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Werror
              -fsyntax-only "-I${PROJECT_SOURCE_DIR}/include" "${tu}")
  endforeach()
endif()

add_test(NAME "header: umbrella includes every header"
  COMMAND "${CMAKE_COMMAND}" "-DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/check_umbrella.cmake")

# Below C++17 the umbrella header stops with one clear error.
add_test(NAME "header: the umbrella header refuses C++14 by name"
  COMMAND "${CMAKE_CXX_COMPILER}" -std=c++14 -fsyntax-only "-I${PROJECT_SOURCE_DIR}/include"
          "${PROJECT_SOURCE_DIR}/tests/umbrella_cxx14.cpp")
set_tests_properties("header: the umbrella header refuses C++14 by name" PROPERTIES
  PASS_REGULAR_EXPRESSION "interlock needs C\\+\\+17 or later")
