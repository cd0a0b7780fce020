// vc_balance's command line: ring sizes, --seed and --iterations. Shared by
// the tool and by the fuzz harness of its flag parsing
// (tests/fuzz/tool_flags_fuzz.cpp): parse() throws bad_input naming the flag
// for anything it refuses and nothing else.
#ifndef INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
#define INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace vc_balance_tool {

struct bad_input {
  std::string message;
};

struct arguments {
  std::vector<std::size_t> rings;  // empty: the default sizes
  std::uint64_t seed = 1;
  std::size_t iterations = 0;           // 0: the optimizer's default
  std::uint64_t max_steps = 100000000;  // refuse a longer search (about 30 s)
  bool help = false;
};

/// Digits only, within 0..hi: strtoull alone would turn "-1" into 2^64 - 1
/// and saturate "99999999999999999999".
inline bool whole_number(const std::string& text, unsigned long long hi,
                         unsigned long long& value) {
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtoull(text.c_str(), &end, 10);
  return end != nullptr && *end == '\0' && errno != ERANGE && value <= hi;
}

inline arguments parse(int argc, char** argv) {
  arguments a;
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      a.help = true;
      continue;
    }
    if (arg == "--max-steps") {
      if (i + 1 >= argc) throw bad_input{arg + " needs a value"};
      if (!seen.insert(arg).second) throw bad_input{arg + ": given twice"};
      const std::string text = argv[++i];
      unsigned long long v = 0;
      if (!whole_number(text, 1000000000000ull, v) || v == 0)
        throw bad_input{arg + ": '" + text.substr(0, 80) +
                        "' is not a whole number in 1..1000000000000"};
      a.max_steps = v;
      continue;
    }
    if (arg == "--seed" || arg == "--iterations") {
      if (i + 1 >= argc) throw bad_input{arg + " needs a value"};
      if (!seen.insert(arg).second) throw bad_input{arg + ": given twice"};
      const std::string text = argv[++i];
      const bool seed = arg == "--seed";
      unsigned long long v = 0;
      if (!whole_number(text, seed ? ~0ull : 1000000000ull, v) || (!seed && v == 0))
        throw bad_input{arg + ": '" + text.substr(0, 80) + "' is not a whole number in " +
                        (seed ? "0..2^64-1" : "1..1000000000")};
      if (seed)
        a.seed = v;
      else
        a.iterations = static_cast<std::size_t>(v);
      continue;
    }
    unsigned long long v = 0;
    if (!whole_number(arg, 64, v) || v < 2)
      throw bad_input{"ring size must be a whole number in 2..64, not \"" + arg.substr(0, 80) +
                      "\""};
    a.rings.push_back(static_cast<std::size_t>(v));
  }
  return a;
}

}  // namespace vc_balance_tool

#endif  // INTERLOCK_EXAMPLES_VC_BALANCE_ARGS_HPP
