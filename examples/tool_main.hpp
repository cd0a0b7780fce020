// The main of a command-line tool: --help prints the help text and exits 0;
// otherwise run() gives the exit status. Bad input (bad_input, config_error)
// is reported on stderr after the tool's name and exits 2; running out of
// memory or any other exception exits 3.
#ifndef INTERLOCK_EXAMPLES_TOOL_MAIN_HPP
#define INTERLOCK_EXAMPLES_TOOL_MAIN_HPP

#include <interlock/core/config_error.hpp>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "deadlock_check_args.hpp"

namespace example_tools {

template <class Run>
int tool_main(const char* name, const char* help, const char* out_of_memory_hint, int argc,
              char** argv, Run&& run) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(help, stdout);
      return 0;
    }
  try {
    return run();
  } catch (const deadlock_check_tool::bad_input& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.message.c_str());
  } catch (const interlock::config_error& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory (%s)\n", name, out_of_memory_hint);
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 3;
  }
  return 2;
}

}  // namespace example_tools

#endif  // INTERLOCK_EXAMPLES_TOOL_MAIN_HPP
