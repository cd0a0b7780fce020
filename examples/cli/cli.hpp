// SPDX-License-Identifier: BSL-1.0
// The command-line layer every example tool shares (deadlock_check, netsim,
// ib_analyze, vc_balance, parking_lot): one argument loop, the parsers of
// numbers and lists, the network flags and main.
//   - flags: the words of a configuration file (--config FILE, `key = value`
//     lines whose keys are the long flags without the dashes, or a name the
//     tool gives its own configurations, such as qos_switch's A and B) and then of
//     the command line, which overrides the file. for_each() hands each
//     flag to the tool with a reader of its value; a flag given twice, a
//     missing value and anything the tool refuses throw bad_input naming the
//     flag, prefixed for a file by FILE:LINE:COLUMN.
//   - number(), real(), split(), names(): values checked against a range or
//     a list of names, or refused naming the flag, the text and what is allowed.
//   - network: --radix, --wrap and --slices, as every tool of a torus reads them.
//   - output_file: a CSV (or any) output opened before the run (a path that
//     cannot be written is bad input), every line checked; format() is
//     printf into a std::string.
//   - run_tool(): --help prints the help and exits 0; bad input (bad_input,
//     config_error) exits 2 after the tool's name; running out of memory or
//     any other failure exits 3.
// Nothing here reads a file but read_config(), and it refuses one over 1 MiB.
#ifndef INTERLOCK_EXAMPLES_CLI_HPP
#define INTERLOCK_EXAMPLES_CLI_HPP

#include <interlock/core/config_error.hpp>
#include <interlock/topology/torus.hpp>

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cli {

struct bad_input {
  std::string message;
};

/// A whole number in lo..hi, digits only (no sign, no spaces).
inline std::size_t number(const std::string& flag, const std::string& text, std::size_t lo,
                          std::size_t hi) {
  std::size_t value = 0;
  bool ok = !text.empty() && text.size() <= 18;
  for (const char c : text) {
    ok = ok && c >= '0' && c <= '9';
    if (ok) value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  if (!ok || value < lo || value > hi)
    throw bad_input{flag + ": '" + text.substr(0, 80) + "' is not a number in " +
                    std::to_string(lo) + ".." + std::to_string(hi)};
  return value;
}

/// A finite real number in lo..hi.
inline double real(const std::string& flag, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  const double value = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(value) || value < lo ||
      value > hi)
    throw bad_input{flag + ": '" + text.substr(0, 80) + "' is not a number in " +
                    std::to_string(lo).substr(0, 4) + ".." + std::to_string(hi).substr(0, 4)};
  return value;
}

/// The parts of a comma list ("8,8,8": three; "": one empty part), or of
/// a list with another separator.
inline std::vector<std::string> split(const std::string& text, char separator = ',') {
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == separator) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

/// --name a,b,...: each one of `allowed` (bad_input naming the flag otherwise).
inline std::vector<std::string> names(const std::string& flag, const std::string& text,
                                      const std::vector<std::string>& allowed) {
  std::vector<std::string> v = split(text);
  for (const std::string& x : v) {
    bool known = false;
    for (const std::string& a : allowed) known = known || a == x;
    if (!known) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw bad_input{flag + ": '" + x.substr(0, 80) + "'; allowed: " + list};
    }
  }
  if (v.empty()) throw bad_input{flag + ": names nothing"};
  return v;
}

/// One word of the command line, or of a configuration file (`where`:
/// "FILE:LINE:COLUMN", empty on the command line).
struct token {
  std::string text;
  std::string where;
};

/// Whether a flag takes no value (in a configuration file `key = true`).
using switch_test = bool (*)(const std::string& flag);

/// A configuration file's flags and values as tokens that name their place.
inline std::vector<token> read_config(const std::string& path, switch_test is_switch) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) throw bad_input{"--config: cannot read '" + path + "'"};
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
  std::fclose(f);
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
    tokens.push_back({value, value_at});
  }
  return tokens;
}

/// A tool's named configurations: the flags `--config NAME` stands for, or
/// none when NAME is not one (then it is a file).
using named_configs = std::vector<token> (*)(const std::string& name);

/// The flags of a configuration file (--config FILE, or a name `named`
/// knows) and then of the command line, which override the file's.
inline std::vector<token> gather(int argc, char** argv, switch_test is_switch,
                                 named_configs named = nullptr, std::string* config_out = nullptr) {
  std::vector<token> command_line;
  std::string config;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--config") {
      if (!config.empty()) throw bad_input{"--config: given twice"};
      if (i + 1 >= argc) throw bad_input{"--config: needs a value"};
      config = argv[++i];
      if (config.empty()) throw bad_input{"--config: needs a value"};
      continue;
    }
    command_line.push_back({word, ""});
  }
  if (config_out != nullptr) *config_out = config;
  if (config.empty()) return command_line;
  std::vector<token> file = named != nullptr ? named(config) : std::vector<token>{};
  if (file.empty()) file = read_config(config, is_switch);
  std::vector<token> all;
  for (std::size_t i = 0; i < file.size(); ++i) {
    const bool has_value = !is_switch(file[i].text);
    bool overridden = false;
    for (const token& t : command_line) overridden = overridden || t.text == file[i].text;
    if (!overridden) {
      all.push_back(file[i]);
      if (has_value) all.push_back(file[i + 1]);
    }
    if (has_value) ++i;
  }
  all.insert(all.end(), command_line.begin(), command_line.end());
  return all;
}

/// The argument loop.
class flags {
 public:
  flags(int argc, char** argv, switch_test is_switch, named_configs named = nullptr)
      : words_(gather(argc, argv, is_switch, named, &config_)) {}

  /// Calls on(flag, value) for every word that is not a flag's value, in
  /// order (file first); `value()` reads the flag's value. Words starting
  /// with "--" may be given once. on() throws bad_input to refuse.
  template <class On>
  void for_each(On&& on) {
    for (std::size_t i = 0; i < words_.size(); ++i) {
      const std::string flag = words_[i].text;
      std::string where = words_[i].where;  // of the word an error is about
      try {
        if (flag.size() > 2 && flag[0] == '-' && flag[1] == '-') {
          if (given(flag)) throw bad_input{flag + ": given twice"};
          seen_.push_back(flag);
        }
        const auto value = [&]() -> std::string {
          if (i + 1 >= words_.size()) throw bad_input{flag + ": needs a value"};
          ++i;
          if (!words_[i].where.empty()) where = words_[i].where;
          return words_[i].text;
        };
        on(flag, value);
      } catch (const bad_input& e) {
        if (where.empty()) throw;
        throw bad_input{where + ": " + e.message};  // a configuration file's line and column
      }
    }
  }
  /// Whether `flag` was given (in the file or on the command line).
  bool given(const std::string& flag) const {
    for (const std::string& f : seen_)
      if (f == flag) return true;
    return false;
  }
  /// The words read, file first (a run echoes its configuration from them).
  const std::vector<token>& words() const noexcept { return words_; }
  /// What --config named (a file or one of the tool's names), or "".
  const std::string& config() const noexcept { return config_; }

 private:
  std::string config_;
  std::vector<token> words_;
  std::vector<std::string> seen_;
};

/// A switch-less tool: every flag takes a value.
inline bool no_switches(const std::string&) { return false; }

/// The network flags: --radix (2..max_radix per dimension, 1 to 8
/// dimensions), --wrap (one 0/1 per dimension, default all 1), --slices.
struct network {
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  std::size_t slices = 1;
  bool wrap_given = false;

  /// Reads the flag if it is one of these; false otherwise.
  template <class Value>
  bool parse(const std::string& flag, Value&& value, std::size_t max_radix) {
    if (flag == "--radix") {
      radix.clear();
      for (const std::string& part : split(value()))
        radix.push_back(number(flag, part, 2, max_radix));
    } else if (flag == "--wrap") {
      wrap_given = true;
      wrap.clear();
      for (const std::string& part : split(value())) wrap.push_back(number(flag, part, 0, 1) != 0);
    } else if (flag == "--slices") {
      slices = number(flag, value(), 1, 8);
    } else {
      return false;
    }
    return true;
  }
  /// Checks the flags together once all are read.
  void finish() {
    if (radix.empty()) throw bad_input{"--radix: missing (e.g. --radix 8,8,8)"};
    if (radix.size() > interlock::max_dimensions)
      throw bad_input{"--radix: " + std::to_string(radix.size()) + " dimensions; allowed 1..8"};
    if (!wrap_given) wrap.assign(radix.size(), true);
    if (wrap.size() != radix.size())
      throw bad_input{"--wrap: " + std::to_string(wrap.size()) + " values for " +
                      std::to_string(radix.size()) + " dimensions"};
  }
};

// An output file: opened before the run (a path that cannot be written is
// bad input), every write checked (a failed one fails the run).
class output_file {
 public:
  output_file(const std::string& flag, const std::string& path) : flag_(flag), path_(path) {
    if (path.empty()) return;
    f_ = std::fopen(path.c_str(), "w");
    if (f_ == nullptr) throw bad_input{flag + ": cannot write '" + path + "'"};
  }
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() {
    if (f_ != nullptr) std::fclose(f_);
  }
  bool open() const { return f_ != nullptr; }
  void line(const std::string& text) {
    if (f_ == nullptr) return;
    if (std::fputs(text.c_str(), f_) < 0 || std::fputc('\n', f_) == EOF || std::fflush(f_) != 0)
      fail();
  }
  void close() {
    if (f_ == nullptr) return;
    const int status = std::fclose(f_);
    f_ = nullptr;
    if (status != 0) fail();
  }

 private:
  [[noreturn]] void fail() {
    throw std::runtime_error(flag_ + ": writing '" + path_ + "' failed: " + std::strerror(errno));
  }
  std::string flag_, path_;
  std::FILE* f_ = nullptr;
};

inline std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char* pattern, ...) {
  char text[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(text, sizeof text, pattern, args);
  va_end(args);
  return text;
}

/// A tool's main: --help prints `help` and exits 0; otherwise run() gives
/// the exit status. Bad input exits 2, running out of memory or any other
/// exception 3, each reported on stderr after the tool's name.
template <class Run>
int run_tool(const char* name, const char* help, const char* out_of_memory_hint, int argc,
             char** argv, Run&& run) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(help, stdout);
      return 0;
    }
  try {
    return run();
  } catch (const bad_input& e) {
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

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_HPP
