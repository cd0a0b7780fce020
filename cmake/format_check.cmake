# SPDX-License-Identifier: BSL-1.0
# The pinned format check (clang-format 14, Debian's) over every C++ source of
# the repository, and the mutations' check, as tests, when INTERLOCK_FORMAT_CHECK
# is on.
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
  # scripts/mutations.txt's mutations name code by its text: each must still
  # occur exactly once in its file, or scripts/mutate would skip it as invalid.
  find_program(INTERLOCK_PYTHON3 NAMES python3 REQUIRED)
  add_test(NAME "mutations: each applies to its file once"
           COMMAND "${INTERLOCK_PYTHON3}" "${PROJECT_SOURCE_DIR}/scripts/mutate" --check)
endif()
