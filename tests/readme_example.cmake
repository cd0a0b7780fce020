# SPDX-License-Identifier: BSL-1.0
# The README's usage example is compiled and run as a test: the code between
# the line "<!-- readme-example -->" and the end of the ```cpp block after it
# is extracted at configure time.
set(_readme "${PROJECT_SOURCE_DIR}/README.md")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_readme}")
file(READ "${_readme}" _readme_text)
string(FIND "${_readme_text}" "<!-- readme-example -->" _marker)
if(_marker EQUAL -1)
  message(FATAL_ERROR "README.md has no <!-- readme-example --> block")
endif()
string(SUBSTRING "${_readme_text}" ${_marker} -1 _rest)
string(FIND "${_rest}" "```cpp\n" _open)
string(SUBSTRING "${_rest}" ${_open} -1 _rest)
string(LENGTH "```cpp\n" _open_length)
string(SUBSTRING "${_rest}" ${_open_length} -1 _rest)
string(FIND "${_rest}" "```" _close)
string(SUBSTRING "${_rest}" 0 ${_close} _example)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp" "${_example}")
add_executable(readme_example "${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp")
target_link_libraries(readme_example PRIVATE interlock::interlock interlock_dev_flags)
add_test(NAME "readme: usage example" COMMAND readme_example)
