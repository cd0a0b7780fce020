// SPDX-License-Identifier: BSL-1.0
// What a program writes: output_file, a CSV (or any) output opened before
// the run (a path that cannot be written is bad input), every line checked,
// a failed write an exception; format(), printf into a std::string;
// real_text(), a real number as the shortest text that reads back exactly;
// joined(), a list as a value is written back (numbers, reals or names);
// figure() and cell(), a measured figure as text and as a CSV cell, "none"
// and empty where nothing was measured (NaN);
// stdout_written(), whether every write to standard output succeeded.
#ifndef INTERLOCK_EXAMPLES_CLI_OUTPUT_HPP
#define INTERLOCK_EXAMPLES_CLI_OUTPUT_HPP

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "values.hpp"

namespace cli {

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

/// The shortest decimal text that reads back as `x` exactly (as real()
/// takes it: "0.1", "1e-05"), for configurations written to be read again.
inline std::string real_text(double x) {
  char text[40] = "";
  // A whole number as digits (100, not 1e+02).
  // (The range first: a cast of a value beyond long long, or of NaN, is undefined.)
  if (x > -1e15 && x < 1e15 && x == static_cast<double>(static_cast<long long>(x))) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(x));
    return text;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  return text;
}

/// `values` joined by `separator`, each as it reads back: whole numbers
/// and truth values in decimal, reals by real_text(), names as they are.
template <class Values>
std::string joined(const Values& values, const char* separator = ",") {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) text += separator;
    using value = std::decay_t<decltype(values[i])>;
    if constexpr (std::is_floating_point<value>::value) {
      text += real_text(values[i]);
    } else if constexpr (std::is_arithmetic<value>::value) {
      text += std::to_string(values[i]);
    } else {
      text += values[i];
    }
  }
  return text;
}

inline std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char* pattern, ...) {
  char text[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(text, sizeof text, pattern, args);
  va_end(args);
  return text;
}

/// A measured figure as text: `pattern` (one double), or "none" where
/// nothing was measured (NaN), padded to `width` columns (0: none).
inline std::string figure(const char* pattern, double x, int width = 0) {
  char text[64];
  if (x == x) {
    std::snprintf(text, sizeof text, pattern, x);
  } else {
    std::snprintf(text, sizeof text, "%*s", width, "none");
  }
  return text;
}
/// The same as a CSV cell: empty where nothing was measured.
inline std::string cell(const char* pattern, double x) {
  return x == x ? figure(pattern, x) : std::string();
}

/// Flushes standard output: false (after saying so on stderr) when any
/// write to it failed, such as on a full device.
inline bool stdout_written(const char* name) {
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return true;
  std::fprintf(stderr, "%s: writing standard output failed: %s\n", name, std::strerror(errno));
  return false;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_OUTPUT_HPP
