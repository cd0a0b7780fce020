# SPDX-License-Identifier: BSL-1.0
# The pinned format check (clang-format 14, Debian's) over every C++ source of
# the repository, as a test, when INTERLOCK_FORMAT_CHECK is on.
option(INTERLOCK_FORMAT_CHECK "Check the sources with clang-format 14" OFF)
if(INTERLOCK_FORMAT_CHECK)
  find_program(INTERLOCK_CLANG_FORMAT NAMES clang-format-14 REQUIRED)
  file(GLOB_RECURSE _interlock_formatted CONFIGURE_DEPENDS
       "${PROJECT_SOURCE_DIR}/include/*.hpp" "${PROJECT_SOURCE_DIR}/tests/*.cpp"
       "${PROJECT_SOURCE_DIR}/tests/*.hpp" "${PROJECT_SOURCE_DIR}/examples/*.cpp"
       "${PROJECT_SOURCE_DIR}/examples/*.hpp"
       "${PROJECT_SOURCE_DIR}/benchmarks/*.cpp" "${PROJECT_SOURCE_DIR}/benchmarks/*.hpp")
  add_test(NAME "format: clang-format 14"
           COMMAND "${INTERLOCK_CLANG_FORMAT}" --dry-run --Werror ${_interlock_formatted})
endif()
