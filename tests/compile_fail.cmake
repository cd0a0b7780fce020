# SPDX-License-Identifier: BSL-1.0
# Misuse must not compile, and must fail with the message interlock wrote for
# it. Each tests/compile_fail/*.cpp starts with a line
#   // expect: <regular expression the compiler output must match>
# and is checked twice: as is (must fail, matching the expectation) and with
# INTERLOCK_COMPILE_FAIL_CONTROL defined (the misuse removed: must compile), so
# a test cannot pass because of an unrelated error.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  return()
endif()
if(DEFINED CMAKE_CXX_STANDARD)
  set(_interlock_cf_std ${CMAKE_CXX_STANDARD})
else()
  set(_interlock_cf_std 17)
endif()
file(GLOB _interlock_cf_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/*.cpp")
foreach(source IN LISTS _interlock_cf_sources)
  get_filename_component(name "${source}" NAME_WE)
  file(STRINGS "${source}" expect_line LIMIT_COUNT 1 REGEX "^// expect: ")
  if(NOT expect_line)
    message(FATAL_ERROR "${source}: the first line must be '// expect: <regex>'")
  endif()
  string(REGEX REPLACE "^// expect: " "" expect "${expect_line}")
  set(compile "${CMAKE_CXX_COMPILER}" -std=c++${_interlock_cf_std} -fsyntax-only
              "-I${PROJECT_SOURCE_DIR}/include" "${source}")
  add_test(NAME "compile_fail: ${name}" COMMAND ${compile})
  set_tests_properties("compile_fail: ${name}" PROPERTIES PASS_REGULAR_EXPRESSION "${expect}")
  add_test(NAME "compile_fail: ${name} (control compiles)"
           COMMAND ${compile} -DINTERLOCK_COMPILE_FAIL_CONTROL -Wall -Wextra -Werror)
endforeach()
