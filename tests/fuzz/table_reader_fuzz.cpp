// SPDX-License-Identifier: BSL-1.0
// Fuzzes the VL arbitration table reader and the analysis it feeds: any
// bytes must give either a table that analyze_vl_arbitration accepts or
// refuses with config_error, or a table_parse_error naming file, line and
// column; never a crash, a hang, undefined behaviour or unbounded memory.
//
// Built two ways: with clang and -fsanitize=fuzzer as a libFuzzer target
// (INTERLOCK_LIBFUZZER; scripts/test runs it for a minute), and with any
// compiler as a regression test that replays every file of the corpus
// given on its command line.
#include <interlock/qos/ib_analysis.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

void check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "table_reader_fuzz: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<interlock::qos::ib_vl_arbitration_entry> table;
  try {
    table = interlock::qos::read_vl_arbitration_table(in, "fuzz.csv");
  } catch (const interlock::qos::table_parse_error& e) {
    const std::string what = e.what();
    check(what.rfind("fuzz.csv:", 0) == 0, "an error that does not name the file");
    check(what.size() < 400, "an error that echoes too much");
    return 0;
  }
  check(table.size() <= 64, "more than 64 entries");
  for (const auto& entry : table) check(entry.vl <= 14, "a VL above 14");
  interlock::qos::ib_vl_arbitration_config config;
  config.high = table;
  config.low = table;
  config.limit_of_high_priority = static_cast<std::uint8_t>(size % 256);
  try {
    const auto bytes = static_cast<std::uint32_t>(1 + size % 4222);
    const auto a = interlock::qos::analyze_vl_arbitration(config, {3, bytes});
    double total = 0;
    for (const auto& vl : a.vls) total += vl.share;
    check(a.vls.empty() || (total > 0.999 && total < 1.001), "shares that do not sum to 1");
  } catch (const interlock::config_error&) {
  }
  return 0;
}

#ifndef INTERLOCK_LIBFUZZER
#include "replay_main.hpp"
#endif
