# SPDX-License-Identifier: BSL-1.0
# Every public header's "// Example" block is compiled and run, as docs'
# code blocks are (doc_blocks.cmake), so the examples cannot drift from the
# API. The block is the comment lines after "// Example" that are indented
# code ("//   ..."), up to the include guard. Each becomes the body of a
# function in one program that includes every public header and runs them
# in turn; #line directives point errors at the header. A heading that says
# "not compiled" (a definition meant before the first include) skips the
# block; "not run" (it reads a file) compiles it only. Unused names are
# allowed: an example names what it shows.
file(GLOB_RECURSE _headers RELATIVE "${PROJECT_SOURCE_DIR}/include" CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/include/interlock/*.hpp")
list(SORT _headers)
set(_includes "")
set(_bodies "")
set(_calls "")
set(_count 0)
foreach(_header IN LISTS _headers)
  if(_header MATCHES "netrace_bzip2" AND NOT BZIP2_FOUND)
    continue()
  endif()
  string(APPEND _includes "#include <${_header}>\n")
  # (read whole, never as a CMake list: code has semicolons and brackets)
  file(READ "${PROJECT_SOURCE_DIR}/include/${_header}" _text)
  string(FIND "${_text}" "\n// Example" _at)
  if(_at EQUAL -1)
    continue()
  endif()
  string(SUBSTRING "${_text}" 0 ${_at} _before)
  string(REGEX MATCHALL "\n" _newlines "${_before}")
  list(LENGTH _newlines _first)
  math(EXPR _first "${_first} + 3")  # the line after the heading
  math(EXPR _at "${_at} + 1")
  string(SUBSTRING "${_text}" ${_at} -1 _rest)
  string(FIND "${_rest}" "\n#ifndef" _end)
  string(SUBSTRING "${_rest}" 0 ${_end} _rest)
  string(FIND "${_rest}" "\n" _eol)
  string(SUBSTRING "${_rest}" 0 ${_eol} _mode)
  math(EXPR _eol "${_eol} + 1")
  string(SUBSTRING "${_rest}" ${_eol} -1 _body)
  # (CMake's ^ matches again after each replacement: newlines only)
  string(REGEX REPLACE "\n//  ? ?" "\n" _body "\n${_body}")
  string(SUBSTRING "${_body}" 1 -1 _body)
  string(APPEND _body "\n")
  if(_body STREQUAL "" OR _mode MATCHES "not compiled")
    continue()
  endif()
  math(EXPR _count "${_count} + 1")
  string(APPEND _bodies
    "static void header_example_${_count}() {\n#line ${_first} \"${PROJECT_SOURCE_DIR}/include/${_header}\"\n${_body}}\n\n")
  if(_mode MATCHES "not run")
    string(APPEND _calls "  std::printf(\"== ${_header}: compiled, not run\\n\");\n  static_cast<void>(&header_example_${_count});\n")
  else()
    string(APPEND _calls "  std::printf(\"== ${_header}\\n\");\n  header_example_${_count}();\n")
  endif()
endforeach()
set(_source "${_includes}\n#include <array>\n#include <cassert>\n#include <cstdint>\n#include <cstdio>\n#include <iostream>\n#include <string>\n#include <type_traits>\n#include <vector>\n\n${_bodies}int main() {\n${_calls}  std::printf(\"every one of ${_count} header examples ran\\n\");\n}\n")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/header_examples.cpp.new" "${_source}")
configure_file("${CMAKE_CURRENT_BINARY_DIR}/header_examples.cpp.new"
               "${CMAKE_CURRENT_BINARY_DIR}/header_examples.cpp" COPYONLY)
add_executable(header_examples "${CMAKE_CURRENT_BINARY_DIR}/header_examples.cpp")
target_link_libraries(header_examples PRIVATE interlock::model)
if(BZIP2_FOUND)
  target_link_libraries(header_examples PRIVATE BZip2::BZip2)
endif()
target_compile_options(header_examples PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-UNDEBUG -Wno-unused -Wno-unused-parameter
  -Wno-missing-field-initializers>
  $<$<CXX_COMPILER_ID:GNU>:-Wno-unused-but-set-variable>)
add_test(NAME "headers: every header's example compiles and runs" COMMAND header_examples)
set_tests_properties("headers: every header's example compiles and runs" PROPERTIES
  PASS_REGULAR_EXPRESSION "every one of [0-9]+ header examples ran")
