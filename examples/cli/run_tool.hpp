// SPDX-License-Identifier: BSL-1.0
// run_tool(): a program's main and its exit status. --help prints the help
// and --version the program's name, interlock's version and the git
// revision it was built from, each exiting 0; bad input (bad_input, interlock::config_error) exits
// 2 after the tool's name; running out of memory, a failed write (to a file or to standard output)
// or any other failure exits 3. run_demo(): the demos' main, which take
// only --help, --version and their own output files.
#ifndef INTERLOCK_EXAMPLES_CLI_RUN_TOOL_HPP
#define INTERLOCK_EXAMPLES_CLI_RUN_TOOL_HPP

#include <interlock/core/config_error.hpp>
#include <interlock/core/version.hpp>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "output.hpp"
#include "values.hpp"

/// The git revision the program was built from ("" outside a checkout):
/// generated at build time (examples/cli/CMakeLists.txt).
const char* interlock_revision();

namespace cli {

/// interlock's version, "MAJOR.MINOR.PATCH".
inline std::string version_text() {
  return std::to_string(INTERLOCK_VERSION_MAJOR) + "." + std::to_string(INTERLOCK_VERSION_MINOR) +
         "." + std::to_string(INTERLOCK_VERSION_PATCH);
}

/// What --version prints: the program, interlock's version and, when built
/// from a checkout, the git revision.
inline std::string version_line(const char* name) {
  std::string line = std::string(name) + " (interlock " + version_text();
  const std::string revision = interlock_revision();
  if (!revision.empty()) line += ", revision " + revision;
  return line + ")";
}

template <class Run>
int run_tool(const char* name, const char* help, const char* out_of_memory_hint, int argc,
             char** argv, Run&& run) {
  int status = 2;
  bool help_asked = false, version_asked = false;
  for (int i = 1; i < argc; ++i) {
    help_asked = help_asked || std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h";
    version_asked = version_asked || std::string(argv[i]) == "--version";
  }
  if (help_asked) {
    std::fputs(help, stdout);
    std::fputs(
        "\nEvery interlock program also takes:\n"
        "  --config FILE        flags from a file of 'key = value' lines (keys: the long\n"
        "                       flags without the dashes, '#' comments); the command\n"
        "                       line overrides the file\n"
        "  --write-config FILE  the configuration as run, as such lines, for --config\n"
        "  --version            the program, interlock's version and git revision\n",
        stdout);
    return stdout_written(name) ? 0 : 3;
  }
  if (version_asked) {
    std::printf("%s\n", version_line(name).c_str());
    return stdout_written(name) ? 0 : 3;
  }
  try {
    status = run();
  } catch (const bad_input& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.message.c_str());
  } catch (const interlock::config_error& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory (%s)\n", name, out_of_memory_hint);
    status = 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    status = 3;
  }
  return stdout_written(name) ? status : 3;
}

/// A demo's main: --help and --version as run_tool's; `outputs` names the
/// flags the demo takes, each with a file to write (inverse_weighted_demo's
/// --csv), handed to run(paths) in that order ("" when not given); any
/// other argument is refused (exit 2). A failed write, to a file or to
/// standard output, exits 3.
template <class Run>
int run_demo(const char* name, const char* help, int argc, char** argv, Run&& run,
             const std::vector<std::string>& outputs = {}) {
  std::vector<std::string> paths(outputs.size());
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--help" || word == "-h" || word == "--version") {
      if (word == "--version")
        std::printf("%s\n", version_line(name).c_str());
      else
        std::fputs(help, stdout);
      return stdout_written(name) ? 0 : 3;
    }
    std::size_t k = 0;
    while (k < outputs.size() && outputs[k] != word) ++k;
    if (k == outputs.size() || i + 1 >= argc || argv[i + 1][0] == '\0' || !paths[k].empty()) {
      std::fprintf(
          stderr, "%s: %s\n", name,
          k == outputs.size()
              ? ("'" + word.substr(0, 80) + "': not an argument of this demo (see --help)").c_str()
          : !paths[k].empty() ? (word + ": given twice").c_str()
                              : (word + ": needs a file").c_str());
      return 2;
    }
    paths[k] = argv[++i];
  }
  int status = 0;
  try {
    status = run(paths);
  } catch (const bad_input& e) {  // an output that cannot be opened
    std::fprintf(stderr, "%s: %s\n", name, e.message.c_str());
    status = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    status = 3;
  }
  return stdout_written(name) ? status : 3;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_RUN_TOOL_HPP
