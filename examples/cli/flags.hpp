// SPDX-License-Identifier: BSL-1.0
// The argument loop: the words of a configuration file (--config FILE,
// `key = value` lines whose keys are the long flags without the dashes, or a
// name the tool gives its own configurations, such as qos_switch's A and B)
// and then of the command line, which overrides the file. flags::for_each()
// hands each flag to the tool with a reader of its value; a flag given twice,
// a missing value and anything the tool refuses throw bad_input naming the
// flag, prefixed for a file by FILE:LINE:COLUMN; so do an empty value and
// two outputs (--csv, --json, --write-config, ...) naming one file.
// read_config() is the only reader of a file: it refuses one that is not a
// regular file, that it cannot read to the end, or over 1 MiB. A file the
// program reads (--trace, --trace-node-map, --high, --low) named by a
// relative path in a configuration file is found relative to that file,
// and a written configuration names it by its absolute path, so that the
// file reads back from anywhere.
#ifndef INTERLOCK_EXAMPLES_CLI_FLAGS_HPP
#define INTERLOCK_EXAMPLES_CLI_FLAGS_HPP

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "output.hpp"
#include "values.hpp"

namespace cli {

/// One word of the command line, or of a configuration file (`where`:
/// "FILE:LINE:COLUMN", empty on the command line).
struct token {
  std::string text;
  std::string where;
};

/// Whether a flag takes no value (in a configuration file `key = true`).
using switch_test = std::function<bool(const std::string& flag)>;

/// The flags that name a file a program reads.
inline bool is_input(const std::string& flag) {
  return flag == "--trace" || flag == "--trace-node-map" || flag == "--high" || flag == "--low";
}

/// `path` relative to the folder of `file` (unchanged when absolute, or
/// when `file` names no folder).
inline std::string beside(const std::string& file, const std::string& path) {
  const std::size_t slash = file.find_last_of('/');
  if (path.empty() || path[0] == '/' || slash == std::string::npos) return path;
  return file.substr(0, slash + 1) + path;
}

/// `path` as an absolute path (relative to the working folder).
inline std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  std::vector<char> folder(4096);
  if (::getcwd(folder.data(), folder.size()) == nullptr) return path;
  std::string out = folder.data();
  std::string rest = path;
  while (rest.compare(0, 2, "./") == 0) rest = rest.substr(2);
  return out + (out.size() > 1 ? "/" : "") + rest;
}

inline std::vector<token> config_tokens(const std::string& text, const std::string& path,
                                        switch_test is_switch, switch_test reads = nullptr);

/// A configuration file's flags and values as tokens that name their place;
/// the value of a flag that names a file read (`reads`, else is_input())
/// taken relative to the file's folder.
inline std::vector<token> read_config(const std::string& path, switch_test is_switch,
                                      switch_test reads = nullptr) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw bad_input{"--config: cannot read '" + path + "': " + std::strerror(errno)};
  if (!S_ISREG(info.st_mode)) throw bad_input{"--config: '" + path + "' is not a regular file"};
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr)
    throw bad_input{"--config: cannot read '" + path + "': " + std::strerror(errno)};
  std::string text;
  char chunk[4096];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
    text.append(chunk, n);
    if (text.size() > (std::size_t{1} << 20)) {
      std::fclose(f);
      throw bad_input{"--config: '" + path + "' is larger than 1 MiB"};
    }
  }
  const bool failed = std::ferror(f) != 0;
  const int read_errno = errno;
  std::fclose(f);
  if (failed)
    throw bad_input{"--config: reading '" + path + "' failed: " + std::strerror(read_errno)};
  return config_tokens(text, path, is_switch, reads);
}

/// The text of a configuration file named `path` as tokens (read_config's
/// parser, apart from the file so that the fuzz harness reaches it).
inline std::vector<token> config_tokens(const std::string& text, const std::string& path,
                                        switch_test is_switch, switch_test reads) {
  std::vector<token> tokens;
  std::size_t line_number = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::string at = path + ":" + std::to_string(line_number) + ":";
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t equals = line.find('=');
    if (equals == std::string::npos)
      throw bad_input{at + std::to_string(first + 1) + ": expected 'key = value'"};
    std::size_t key_end = equals;
    while (key_end > first && (line[key_end - 1] == ' ' || line[key_end - 1] == '\t')) --key_end;
    const std::string key = line.substr(first, key_end - first);
    if (key.empty()) throw bad_input{at + std::to_string(first + 1) + ": a key is missing"};
    for (std::size_t i = 0; i < key.size(); ++i) {
      const char c = key[i];
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
        throw bad_input{at + std::to_string(first + i + 1) + ": '" + key.substr(0, 80) +
                        "' is not a key (the long flag names without the dashes)"};
    }
    std::size_t value_start = line.find_first_not_of(" \t", equals + 1);
    std::size_t value_end = line.find_last_not_of(" \t\r");
    const std::string value = value_start == std::string::npos || value_end < value_start
                                  ? std::string()
                                  : line.substr(value_start, value_end - value_start + 1);
    if (value_start == std::string::npos) value_start = equals + 1;
    const std::string flag = "--" + key;
    const std::string key_at = at + std::to_string(first + 1);
    const std::string value_at = at + std::to_string(value_start + 1);
    if (flag == "--config" || flag == "--help")
      throw bad_input{key_at + ": " + key + ": not in a configuration file"};
    if (is_switch(flag)) {
      if (value == "true" || value == "1") {
        tokens.push_back({flag, key_at});
      } else if (value != "false" && value != "0") {
        throw bad_input{value_at + ": " + flag + ": '" + value.substr(0, 80) +
                        "'; allowed: true, false"};
      }
      continue;
    }
    if (value.empty()) throw bad_input{value_at + ": " + flag + ": needs a value"};
    tokens.push_back({flag, key_at});
    const bool read_file = reads ? reads(flag) : is_input(flag);
    tokens.push_back({read_file ? beside(path, value) : value, value_at});
  }
  return tokens;
}

/// A tool's presets: the flags `--preset NAME` stands for (each token's
/// `where` saying "--preset NAME"), or none when NAME is not one.
using named_configs = std::vector<token> (*)(const std::string& name);

/// The flags of `lower` that no token of `higher` gives again (a flag and,
/// unless a switch, its value).
inline std::vector<token> not_overridden(const std::vector<token>& lower,
                                         const std::vector<token>& higher, switch_test is_switch) {
  std::vector<token> kept;
  for (std::size_t i = 0; i < lower.size(); ++i) {
    const bool has_value = !is_switch(lower[i].text) && i + 1 < lower.size();
    bool overridden = false;
    for (const token& t : higher) overridden = overridden || t.text == lower[i].text;
    if (!overridden) {
      kept.push_back(lower[i]);
      if (has_value) kept.push_back(lower[i + 1]);
    }
    if (has_value) ++i;
  }
  return kept;
}

/// The flags of a preset (--preset NAME, for a tool with `presets`), then
/// of a configuration file (--config FILE), then of the command line, each
/// overriding the ones before.
inline std::vector<token> gather(int argc, char** argv, switch_test is_switch,
                                 named_configs presets = nullptr, std::string* config_out = nullptr,
                                 std::string* preset_out = nullptr, switch_test reads = nullptr) {
  std::vector<token> command_line;
  std::string config, preset;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const bool is_preset = presets != nullptr && word == "--preset";
    if (word == "--config" || is_preset) {
      std::string& target = is_preset ? preset : config;
      if (!target.empty()) throw bad_input{word + ": given twice"};
      if (i + 1 >= argc) throw bad_input{word + ": needs a value"};
      target = argv[++i];
      if (target.empty()) throw bad_input{word + ": needs a value"};
      continue;
    }
    command_line.push_back({word, ""});
  }
  if (config_out != nullptr) *config_out = config;
  if (preset_out != nullptr) *preset_out = preset;
  std::vector<token> preset_tokens;
  if (!preset.empty()) {
    preset_tokens = presets(preset);
    if (preset_tokens.empty())
      throw bad_input{"--preset: '" + preset.substr(0, 80) +
                      "' is not one of the presets (see --help)"};
  }
  const std::vector<token> file =
      config.empty() ? std::vector<token>{} : read_config(config, is_switch, reads);
  // In order: the preset's, the file's, the command line's, each flag once.
  std::vector<token> all =
      not_overridden(not_overridden(preset_tokens, file, is_switch), command_line, is_switch);
  const std::vector<token> from_file = not_overridden(file, command_line, is_switch);
  all.insert(all.end(), from_file.begin(), from_file.end());
  all.insert(all.end(), command_line.begin(), command_line.end());
  return all;
}

/// The argument loop.
class flags {
 public:
  /// `reads`: the flags that name a file the program reads (default
  /// is_input()), taken relative to a configuration file's folder.
  flags(int argc, char** argv, switch_test is_switch, named_configs presets = nullptr,
        switch_test reads = nullptr)
      : words_(gather(argc, argv, is_switch, presets, &config_, &preset_, std::move(reads))) {}

  /// Calls on(flag, value) for every word that is not a flag's value, in
  /// order (file first); `value()` reads the flag's value. Words starting
  /// with "--" may be given once. on() throws bad_input to refuse.
  /// --write-config FILE is read here (unless the tool reads it itself:
  /// tool_writes_config()): after the loop, every flag read, file first, is
  /// written as a `key = value` line that --config FILE reads back (a switch
  /// as `key = true`), but the paths of outputs (--csv, --json,
  /// --per-source); a tool that resolves_config() writes its own list with
  /// write_resolved() instead.
  template <class On>
  void for_each(On&& on) {
    std::string write_path;
    for (std::size_t i = 0; i < words_.size(); ++i) {
      const std::string flag = words_[i].text;
      std::string where = words_[i].where;  // of the word an error is about
      try {
        if (flag.empty())
          throw bad_input{"an empty argument ('') where a flag was expected (see --help)"};
        if (flag.size() > 2 && flag[0] == '-' && flag[1] == '-') {
          if (given(flag)) throw bad_input{flag + ": given twice"};
          seen_.push_back(flag);
        }
        bool took = false;
        std::string taken;
        const auto value = [&]() -> std::string {
          if (i + 1 >= words_.size()) throw bad_input{flag + ": needs a value"};
          ++i;
          if (!words_[i].where.empty()) where = words_[i].where;
          // An empty value is refused, never read as the default.
          if (words_[i].text.empty()) throw bad_input{flag + ": needs a value, not ''"};
          took = true;
          taken = words_[i].text;
          return words_[i].text;
        };
        if (flag == "--write-config" && (generic_write_ || resolves_)) {
          write_path = value();
          continue;
        }
        on(flag, value);
        read_.emplace_back(flag, took ? taken : std::string("true"));
        if (took && (writes_ ? writes_(flag) : is_output(flag))) outputs_.emplace_back(flag, taken);
      } catch (const bad_input& e) {
        if (where.empty()) throw;
        throw bad_input{where + ": " + e.message};  // a configuration file's line and column
      }
    }
    if (!write_path.empty()) outputs_.emplace_back("--write-config", write_path);
    check_outputs();
    if (resolves_) {
      write_path_ = write_path;
    } else if (!write_path.empty()) {
      write_config(write_path, read_);
    }
  }
  /// The flags read by for_each(), file first, without the dashes, each with
  /// its value ("true" for a switch): a program's configuration as given.
  std::vector<std::pair<std::string, std::string>> settings() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& r : read_)
      if (r.first.compare(0, 2, "--") == 0) out.emplace_back(r.first.substr(2), r.second);
    return out;
  }
  /// The flags that name a file the program writes (default is_output()),
  /// before for_each(): two of them on one file are refused.
  void writes(switch_test test) { writes_ = std::move(test); }
  /// The tool reads --write-config itself (it writes a resolved configuration).
  void tool_writes_config() noexcept { generic_write_ = false; }
  /// The tool resolves its configuration: for_each() keeps --write-config's
  /// path, and write_resolved() writes the settings the tool gives.
  void resolves_config() noexcept { resolves_ = true; }
  /// Writes `resolved` (every key the run reads, after the defaults, in the
  /// flags' syntax) as `key = value` lines to --write-config's file, if given.
  void write_resolved(const std::vector<std::pair<std::string, std::string>>& resolved) const {
    if (write_path_.empty()) return;
    output_file out("--write-config", write_path_);
    out.line("# the configuration as run; read it back with --config FILE");
    for (const auto& r : resolved)
      out.line(r.first + " = " + (is_input("--" + r.first) ? absolute(r.second) : r.second));
    out.close();
  }
  /// Whether `flag` was given (in the file or on the command line).
  bool given(const std::string& flag) const {
    for (const std::string& f : seen_)
      if (f == flag) return true;
    return false;
  }
  /// The words read, file first (a run echoes its configuration from them).
  const std::vector<token>& words() const noexcept { return words_; }
  /// What --config named (a file), or "".
  const std::string& config() const noexcept { return config_; }
  /// What --preset named, or "".
  const std::string& preset() const noexcept { return preset_; }

 private:
  /// The flags that name a file a program writes.
  static bool is_output(const std::string& flag) {
    for (const char* f : {"--csv", "--json", "--per-source", "--write-config", "--timeline",
                          "--positions", "--counts", "--counts-timeline"})
      if (flag == f) return true;
    return false;
  }
  /// Two outputs on one file would lose one: refused, naming both flags.
  void check_outputs() const {
    for (std::size_t i = 0; i < outputs_.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (same_file(outputs_[i].second, outputs_[j].second))
          throw bad_input{outputs_[i].first + ": '" + outputs_[i].second.substr(0, 200) +
                          "' is also " + outputs_[j].first + "'s file; give each output its own"};
  }
  /// Whether two paths name one file: the same text, or an existing file
  /// reached both ways.
  static bool same_file(const std::string& a, const std::string& b) {
    if (a == b) return true;
    struct stat x {
    }, y{};
    return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev &&
           x.st_ino == y.st_ino;
  }
  static void write_config(const std::string& path,
                           const std::vector<std::pair<std::string, std::string>>& read) {
    for (const auto& r : read)
      if (r.first.compare(0, 2, "--") != 0)
        throw bad_input{"--write-config: '" + r.first.substr(0, 80) +
                        "' is not a flag, and a configuration file holds only flags"};
    output_file out("--write-config", path);
    out.line("# the flags as read; read them back with --config FILE");
    for (const auto& r : read) {
      if (r.first == "--csv" || r.first == "--json" || r.first == "--per-source") continue;
      out.line(r.first.substr(2) + " = " + (is_input(r.first) ? absolute(r.second) : r.second));
    }
    out.close();
  }

  std::string config_, preset_, write_path_;
  std::vector<token> words_;
  std::vector<std::string> seen_;
  std::vector<std::pair<std::string, std::string>> read_;
  std::vector<std::pair<std::string, std::string>> outputs_;  // flag, path
  switch_test writes_;
  bool generic_write_ = true, resolves_ = false;
};

/// A switch-less tool: every flag takes a value.
inline bool no_switches(const std::string&) { return false; }

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_FLAGS_HPP
