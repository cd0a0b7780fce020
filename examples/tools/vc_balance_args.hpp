// SPDX-License-Identifier: BSL-1.0
// vc_balance's command line: ring sizes, --seed, --iterations and
// --max-steps, declared once in settings() (settings.hpp) and read by the
// tools' shared layer (cli.hpp; --config FILE too).
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
#include "settings.hpp"

namespace vc_balance_tool {

using cli::bad_input;

struct arguments {
  std::vector<std::size_t> rings{4, 8, 16, 32};  // Table 1's unless given
  std::uint64_t seed = 1;
  std::size_t iterations = 0;           // 0: the optimizer's default
  std::uint64_t max_steps = 100000000;  // refuse a longer search (about 30 s)
};

/// vc_balance's settings, each declared once: the parser, --help and
/// --write-config come from this table.
inline const cli::setting_table<arguments>& settings() {
  using a = arguments;
  static const cli::setting_table<arguments> table({
      cli::custom<a>(
          "--rings", "N,N,...", "ring sizes, 2..64 each (also given as words: vc_balance 4 8)",
          [](a& s, const std::string& v) {
            s.rings.clear();
            for (const std::string& part : cli::split(v))
              s.rings.push_back(cli::number("--rings", part, 2, 64));
          },
          [](const a& s) { return cli::joined(s.rings); }),
      cli::whole<a>(
          "--seed", "N", [](auto& s) -> auto& { return s.seed; }, 0, 1000000000000000000,
          "the annealing's seed"),
      // Left out of the configuration unless given: its default is per table.
      cli::whole<a>(
          "--iterations", "N", [](auto& s) -> auto& { return s.iterations; }, 1, 1000000000,
          "annealing steps")
          .when([](const a& s) { return s.iterations != 0; }, "")
          .defaults("4000 per free table entry"),
      cli::whole<a>(
          "--max-steps", "N", [](auto& s) -> auto& { return s.max_steps; }, 1, 1000000000000,
          "refuse a search estimated to take more steps (about 30 s)")
          .control(),
  });
  return table;
}

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
  const cli::flags flags = settings().parse(static_cast<int>(args.size()), args.data(), a);
  flags.write_resolved(settings().resolved(a));
  return a;
}

}  // namespace vc_balance_tool

#endif  // INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
