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
#include <utility>
#include <vector>

#include "cli.hpp"

namespace vc_balance_tool {

using cli::bad_input;

struct arguments {
  std::vector<std::size_t> rings;  // Table 1's 4, 8, 16, 32 unless given
  std::uint64_t seed = 1;
  std::size_t iterations = 0;           // 0: the optimizer's default
  std::uint64_t max_steps = 100000000;  // refuse a longer search (about 30 s)
};

inline arguments parse(int argc, char** argv) {
  arguments a;
  // Ring sizes may be given as words (vc_balance 4 8 16) or as --rings 4,8,16;
  // the words become --rings, so that --write-config writes them as a key.
  std::vector<std::string> words{argv[0]};
  std::string rings;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const bool positional = !word.empty() && word[0] != '-';
    const bool is_value = i > 1 && std::string(argv[i - 1]).compare(0, 2, "--") == 0;
    if (positional && !is_value) {
      rings += (rings.empty() ? "" : ",") + word;
    } else {
      words.push_back(word);
    }
  }
  if (!rings.empty()) {
    words.push_back("--rings");
    words.push_back(rings);
  }
  std::vector<char*> args;
  for (std::string& w : words) args.push_back(&w[0]);
  cli::flags flags(static_cast<int>(args.size()), args.data(), cli::no_switches);
  flags.resolves_config();
  flags.for_each([&](const std::string& word, const auto& value) {
    if (word == "--max-steps") {
      a.max_steps = cli::number(word, value(), 1, 1000000000000);
    } else if (word == "--seed") {
      a.seed = cli::number(word, value(), 0, 1000000000000000000);
    } else if (word == "--iterations") {
      a.iterations = cli::number(word, value(), 1, 1000000000);
    } else if (word == "--rings") {
      // Ring sizes given as words arrive here as --rings too.
      for (const std::string& part : cli::split(value()))
        a.rings.push_back(cli::number("--rings", part, 2, 64));
    } else {
      throw bad_input{word + ": unknown option (see --help)"};
    }
  });
  if (a.rings.empty()) a.rings = {4, 8, 16, 32};  // Table 1's
  // --iterations stays out unless given: its default is per table (4000 steps
  // per free entry).
  std::string sizes;
  for (const std::size_t k : a.rings) sizes += (sizes.empty() ? "" : ",") + std::to_string(k);
  std::vector<std::pair<std::string, std::string>> resolved = {{"rings", sizes},
                                                               {"seed", std::to_string(a.seed)}};
  if (a.iterations != 0) resolved.emplace_back("iterations", std::to_string(a.iterations));
  resolved.emplace_back("max-steps", std::to_string(a.max_steps));
  flags.write_resolved(resolved);
  return a;
}

}  // namespace vc_balance_tool

#endif  // INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
