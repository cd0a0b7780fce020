// SPDX-License-Identifier: BSL-1.0
// Fuzzes the command-line parsing of the tools (deadlock_check, ib_analyze,
// vc_balance, netsim, qos_switch with its presets; --config and
// --write-config touch no file here), the configuration file parser they
// share ("config", then the file's text) and the real-number parser
// they share ("real", then the text): the input's first line names the tool,
// each further line is one argument. Parsing must accept, or refuse with bad_input naming what is
// wrong in at most a few hundred characters; nothing else may escape, crash
// or hang. deadlock_check's accepted orders are also expanded (--orders all
// on eight dimensions is 40,320 orders). Runs are not started: the tools
// bound their runs before starting them (deadlock_check's estimate).
//
// Built as a libFuzzer target with clang (INTERLOCK_LIBFUZZER) and, with
// any compiler, as a regression test replaying the corpus.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "deadlock_check_args.hpp"
#include "ib_analyze_args.hpp"
#include "netsim_args.hpp"
#include "qos_switch_args.hpp"
#include "vc_balance_args.hpp"

namespace {

void check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "tool_flags_fuzz: %s\n", what);
    std::abort();
  }
}

void check_message(const std::string& message) {
  check(!message.empty(), "an empty refusal");
  check(message.size() < 600, "a refusal that echoes too much");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines(1);
  for (std::size_t i = 0; i < size && lines.size() <= 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      lines.emplace_back();
    } else if (lines.back().size() < 256) {
      lines.back() += c;
    }
  }
  const std::string tool = lines.front();
  for (const std::string& line : lines)
    if (line == "--config" || line == "--write-config")
      return 0;  // reads or writes a file: the file's parser is the same loop
  std::vector<char*> argv;
  for (std::string& line : lines) argv.push_back(&line[0]);
  const int argc = static_cast<int>(argv.size());
  if (tool == "deadlock_check") {
    try {
      const deadlock_check_tool::arguments a = deadlock_check_tool::parse(argc, argv.data());
      check(!a.radix.empty() && a.radix.size() <= 8 && a.radix.size() == a.wrap.size(),
            "accepted radix and wrap that do not match");
      const auto orders = deadlock_check_tool::parse_orders(a.orders, a.radix.size(), true);
      for (const auto& o : orders) check(o.size() == a.radix.size(), "an order of another length");
    } catch (const deadlock_check_tool::bad_input& e) {
      check_message(e.message);
    }
  } else if (tool == "ib_analyze") {
    try {
      const ib_analyze_tool::arguments a = ib_analyze_tool::parse(argc, argv.data());
      check(!a.high.empty() && a.limit <= 255 && a.runs >= 1 && a.packet_bytes >= 1 &&
                a.packet_bytes <= 4222,
            "accepted arguments out of range");
    } catch (const ib_analyze_tool::bad_input& e) {
      check_message(e.message);
    }
  } else if (tool == "netsim") {
    try {
      const netsim_tool::arguments a = netsim_tool::parse(argc, argv.data());
      check(!a.radix.empty() && a.radix.size() <= 8 && a.radix.size() == a.wrap.size(),
            "accepted radix and wrap that do not match");
      check(a.model.load >= 0 && a.model.load <= 1, "accepted a load out of range");
      check(a.islip_iterations >= 1 && a.islip_iterations <= 16, "accepted iSLIP iterations");
      check(a.input_arbiter == "round_robin" || a.input_arbiter == a.arbiter,
            "accepted an input arbiter netsim does not build");
      a.model.check();
    } catch (const deadlock_check_tool::bad_input& e) {
      check_message(e.message);
    } catch (const interlock::config_error& e) {
      check_message(e.what());
    }
  } else if (tool == "real" && lines.size() >= 2) {
    // The real-number parser every tool's flags share: only decimal notation
    // within the range, and what it accepts is the finite number typed.
    const std::string& text = lines[1];
    try {
      const double x = cli::real("--load", text, 0, 1e6);
      check(!text.empty() && (text[0] == '.' || (text[0] >= '0' && text[0] <= '9')),
            "accepted a number that starts with neither a digit nor a point");
      check(text.find_first_not_of("0123456789.eE+-") == std::string::npos,
            "accepted a character outside decimal notation");
      check(std::isfinite(x) && x >= 0 && x <= 1e6, "accepted a number out of range");
      // What a configuration is written with reads back as the same number.
      const std::string written = cli::real_text(x);
      check(cli::real("--load", written, 0, 1e6) == x, "real_text does not read back");
      check(x != std::floor(x) || written.find_first_not_of("0123456789") == std::string::npos,
            "a whole number not written as digits");
    } catch (const cli::bad_input& e) {
      check_message(e.message);
    }
  } else if (tool == "config") {
    // A configuration file's text (the lines after the first): every token
    // names its file, line and column, a flag's key is a flag, and anything
    // else is refused naming its place.
    std::string text;
    for (std::size_t i = 1; i < lines.size(); ++i) text += lines[i] + "\n";
    try {
      const std::vector<cli::token> tokens =
          cli::config_tokens(text, "fuzz.conf", [](const std::string& f) { return f == "--full"; });
      // Flags, each followed by its value unless a switch.
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        check(tokens[i].where.compare(0, 10, "fuzz.conf:") == 0, "a token without its place");
        check(tokens[i].text.compare(0, 2, "--") == 0, "a value where a flag belongs");
        if (tokens[i].text == "--full") continue;
        check(i + 1 < tokens.size() && !tokens[i + 1].text.empty(), "a flag without its value");
        ++i;
        check(tokens[i].where.compare(0, 10, "fuzz.conf:") == 0, "a value without its place");
      }
    } catch (const cli::bad_input& e) {
      check_message(e.message);
      check(e.message.compare(0, 10, "fuzz.conf:") == 0, "a refusal that does not name its place");
    }
  } else if (tool == "qos_switch") {
    // Presets A and B under the file and the command line, KEY:VALUE lists,
    // and flags refused when no chosen scheduler reads them.
    try {
      const qos_switch_tool::options o = qos_switch_tool::parse(argc, argv.data());
      check(!o.sl2sc.empty() && o.generation.size() == o.sl2sc.size(),
            "accepted shares that do not match the SLs");
      check(!o.loads.empty() && o.seeds >= 1 && o.ib_limit <= 255 && o.shared.jobs >= 1,
            "accepted arguments out of range");
      check(!o.label.empty() && o.label.find(',') == std::string::npos,
            "accepted a label that breaks the CSV");
    } catch (const cli::bad_input& e) {
      check_message(e.message);
    }
  } else if (tool == "vc_balance") {
    try {
      const vc_balance_tool::arguments a = vc_balance_tool::parse(argc, argv.data());
      for (std::size_t k : a.rings) check(k >= 2 && k <= 64, "accepted a ring size out of range");
      check(a.iterations <= 1000000000, "accepted too many iterations");
    } catch (const vc_balance_tool::bad_input& e) {
      check_message(e.message);
    }
  }
  return 0;
}

#ifndef INTERLOCK_LIBFUZZER
#include "replay_main.hpp"
#endif
