// SPDX-License-Identifier: BSL-1.0
// How the study runner runs one program: a process of its own, its standard
// output discarded, its messages kept, in a scratch folder of its own.
//
// Contract
//   scratch_folder() makes a fresh folder under the system's temporary
//   folder, removed with the object. run_program(argv, output, messages,
//   error) runs argv[0] (a path, or a name looked up on PATH) with argv,
//   standard output to the file `output` ("": discarded; "-": the runner's)
//   and standard error
//   to the file `messages`, waits for it and returns its exit status (128 +
//   the signal when one ended it; -1 when it could not be started, errno in
//   `error`). one_line(text) folds a
//   program's messages into one line without commas, for a CSV field.
#ifndef INTERLOCK_EXAMPLES_STUDY_PROCESS_HPP
#define INTERLOCK_EXAMPLES_STUDY_PROCESS_HPP

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"

extern char** environ;

namespace study {

class scratch_folder {
 public:
  scratch_folder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "interlock-study.XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot make a scratch folder under " + pattern);
    path_ = pattern;
  }
  ~scratch_folder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline int run_program(const std::vector<std::string>& argv, const std::string& output,
                       const std::string& messages, int& error) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (output.empty())
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  else if (output != "-")
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, messages.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

inline std::string one_line(const std::string& text) {
  std::string s;
  for (const char c : text) {
    const char d = c == '\n' || c == ',' || c == '\r' ? ' ' : c;
    if (d == ' ' && (s.empty() || s.back() == ' ')) continue;
    s += d;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace study

#endif  // INTERLOCK_EXAMPLES_STUDY_PROCESS_HPP
