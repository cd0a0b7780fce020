# SPDX-License-Identifier: BSL-1.0
# interlock_rtl_cosim.cmake: check an RTL arbiter against an interlock policy, cycle by cycle.
#
#   include(interlock_rtl_cosim)   # after find_package(interlock) or add_subdirectory
#   interlock_add_rtl_cosim(<name>
#     TOP <module> SOURCES <file.sv>...
#     POLICY <C++ type>                 e.g. "interlock::round_robin_arbiter<8, interlock::rr_order::ascending>"
#     [POLICY_ARGS <C++ arguments>]     the policy's constructor arguments (default: none)
#     [PARAMETERS <NAME=VALUE>...]      the top's parameters (verilator -G)
#     [CYCLES <n>] [SEEDS <n>]          cycles per random stream (default 1000000), streams (3)
#     [WAIT_BOUND <n>]                  the oracle's wait bound (default: none checked)
#     [EXPECT_MISMATCH])                the test passes only if a difference is found
#
# Verilator compiles the top into a C++ model; a generated program drives the
# model and the policy with the same random stimulus (verify/rtl_stimulus.hpp)
# through verify/rtl_cosim.hpp, which compares the grant every cycle and each
# state port the top exposes after every clock edge, and checks the
# arbiter_oracle properties. The top follows the port convention of
# examples/integrations/rtl/README.md. The program is <name>; the ctest test
# is named "rtl: <name>". On a difference it prints the cycle, the signal,
# both values and the stimulus.
#
#   interlock_rtl_mutant(<out-variable> SOURCE <file.sv> TEXT <text> REPLACEMENT <text>)
# writes a copy of SOURCE into the build tree with TEXT (which must occur
# exactly once) replaced, and sets <out-variable> to its path: a
# deliberately wrong RTL, for a co-simulation that must fail.
include_guard(GLOBAL)

set(_interlock_rtl_dir "${CMAKE_CURRENT_LIST_DIR}")

function(interlock_rtl_mutant out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;TEXT;REPLACEMENT" "")
  file(READ "${arg_SOURCE}" text)
  string(FIND "${text}" "${arg_TEXT}" first)
  string(FIND "${text}" "${arg_TEXT}" last REVERSE)
  if(first EQUAL -1 OR NOT first EQUAL last)
    message(FATAL_ERROR "interlock_rtl_mutant: \"${arg_TEXT}\" must occur exactly once in ${arg_SOURCE}")
  endif()
  string(REPLACE "${arg_TEXT}" "${arg_REPLACEMENT}" text "${text}")
  get_filename_component(name "${arg_SOURCE}" NAME_WE)
  string(MD5 tag "${arg_TEXT}${arg_REPLACEMENT}")
  string(SUBSTRING "${tag}" 0 8 tag)
  set(path "${CMAKE_CURRENT_BINARY_DIR}/rtl_mutants/${name}_${tag}.sv")
  file(WRITE "${path}" "${text}")
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

function(interlock_add_rtl_cosim name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXPECT_MISMATCH"
                        "TOP;POLICY;POLICY_ARGS;CYCLES;SEEDS;WAIT_BOUND" "SOURCES;PARAMETERS")
  foreach(required TOP POLICY SOURCES)
    if(NOT arg_${required})
      message(FATAL_ERROR "interlock_add_rtl_cosim(${name}): ${required} is required")
    endif()
  endforeach()
  set(INTERLOCK_RTL_PREFIX "V${name}")
  set(INTERLOCK_RTL_POLICY "${arg_POLICY}")
  set(INTERLOCK_RTL_POLICY_ARGS "${arg_POLICY_ARGS}")
  set(INTERLOCK_RTL_CYCLES 1000000)
  if(arg_CYCLES)
    set(INTERLOCK_RTL_CYCLES ${arg_CYCLES})
  endif()
  set(INTERLOCK_RTL_SEEDS 3)
  if(arg_SEEDS)
    set(INTERLOCK_RTL_SEEDS ${arg_SEEDS})
  endif()
  set(INTERLOCK_RTL_WAIT_BOUND "interlock::verify::arbiter_properties::unbounded")
  if(NOT "${arg_WAIT_BOUND}" STREQUAL "")
    set(INTERLOCK_RTL_WAIT_BOUND "${arg_WAIT_BOUND}")
  endif()
  set(INTERLOCK_RTL_EXPECT_MISMATCH false)
  if(arg_EXPECT_MISMATCH)
    set(INTERLOCK_RTL_EXPECT_MISMATCH true)
  endif()
  set(main "${CMAKE_CURRENT_BINARY_DIR}/${name}_cosim.cpp")
  configure_file("${_interlock_rtl_dir}/interlock_rtl_cosim_main.cpp.in" "${main}" @ONLY)
  interlock_verilate(${name}_rtl TOP ${arg_TOP} PREFIX ${INTERLOCK_RTL_PREFIX} SOURCES ${arg_SOURCES}
                     PARAMETERS ${arg_PARAMETERS})
  add_executable(${name} "${main}")
  target_link_libraries(${name} PRIVATE interlock::interlock ${name}_rtl)
  target_compile_features(${name} PRIVATE cxx_std_17)
  add_test(NAME "rtl: ${name}" COMMAND ${name})
endfunction()

# interlock_verilate(<library> TOP <module> PREFIX <class> SOURCES <file.sv>...
#                    [PARAMETERS <NAME=VALUE>...])
# A static library holding Verilator's C++ model of TOP as class PREFIX (and
# Verilator's runtime); called again with the same library, it adds another
# model (another PREFIX) to it. Lint warnings do not stop the build. Its headers reach the targets that link it as system
# headers, so their warning flags do not apply to Verilator's code.
function(interlock_verilate library)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TOP;PREFIX" "SOURCES;PARAMETERS")
  if(NOT COMMAND verilate)
    find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
  endif()
  set(parameters "")
  foreach(p IN LISTS arg_PARAMETERS)
    list(APPEND parameters "-G${p}")
  endforeach()
  if(NOT TARGET ${library})
    add_library(${library} STATIC)
    # Every file Verilator writes starts by including verilated.h: parsed once.
    target_precompile_headers(${library} PRIVATE <verilated.h>)
  endif()
  verilate(${library} SOURCES ${arg_SOURCES} TOP_MODULE ${arg_TOP} PREFIX ${arg_PREFIX}
           VERILATOR_ARGS ${parameters} -Wno-fatal)
  get_target_property(includes ${library} INTERFACE_INCLUDE_DIRECTORIES)
  set_target_properties(${library} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${includes}")
endfunction()
