// SPDX-License-Identifier: BSL-1.0
// vc_balance's command line: ring sizes, --seed, --iterations and
// --max-steps, read by the tools' shared layer (cli.hpp; --config FILE too).
// Shared by the tool and by the fuzz harness of its flag parsing
// (tests/fuzz/tool_flags_fuzz.cpp): parse() throws bad_input naming the flag
// for anything it refuses and nothing else.
#ifndef INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
#define INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace vc_balance_tool {

using cli::bad_input;

struct arguments {
  std::vector<std::size_t> rings;  // empty: the default sizes
  std::uint64_t seed = 1;
  std::size_t iterations = 0;           // 0: the optimizer's default
  std::uint64_t max_steps = 100000000;  // refuse a longer search (about 30 s)
  bool help = false;
};

inline arguments parse(int argc, char** argv) {
  arguments a;
  cli::flags flags(argc, argv, cli::no_switches);
  flags.for_each([&](const std::string& word, const auto& value) {
    if (word == "--help" || word == "-h") {
      a.help = true;
    } else if (word == "--max-steps") {
      a.max_steps = cli::number(word, value(), 1, 1000000000000);
    } else if (word == "--seed") {
      a.seed = cli::number(word, value(), 0, 1000000000000000000);
    } else if (word == "--iterations") {
      a.iterations = cli::number(word, value(), 1, 1000000000);
    } else if (word.size() > 1 && word[0] == '-' && (word[1] < '0' || word[1] > '9')) {
      throw bad_input{word + ": unknown option (see --help)"};
    } else {
      try {
        a.rings.push_back(cli::number("ring size", word, 2, 64));
      } catch (const bad_input&) {
        throw bad_input{"ring size must be a whole number in 2..64, not \"" + word.substr(0, 80) +
                        "\""};
      }
    }
  });
  return a;
}

}  // namespace vc_balance_tool

#endif  // INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
