// SPDX-License-Identifier: BSL-1.0
// The values of flags: bad_input (what every parser of the command-line
// layer throws, naming the flag, the text and what is allowed); number()
// and real() check a number against a range, in plain decimal notation only
// (no sign, blanks, hex or words; real() refuses what underflows or
// overflows); split() cuts a list; names() checks a list of names.
#ifndef INTERLOCK_EXAMPLES_CLI_VALUES_HPP
#define INTERLOCK_EXAMPLES_CLI_VALUES_HPP

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
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

/// A real number in lo..hi in decimal notation: digits with an optional
/// fraction and exponent ("0.25", ".5", "1e-3"); no sign, blanks, hex or
/// words such as "inf"; a value that underflows or overflows is refused
/// rather than rounded to 0 or infinity.
inline double real(const std::string& flag, const std::string& text, double lo, double hi) {
  std::size_t i = 0, digits = 0, nonzero = 0;
  const auto run = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') nonzero += text[i++] != '0';
    return i - start;
  };
  digits += run();
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += run();
  }
  bool ok = digits > 0 && text.size() <= 64;
  if (ok && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t mantissa_nonzero = nonzero;
    ok = run() > 0;
    nonzero = mantissa_nonzero;
  }
  ok = ok && i == text.size();
  double value = 0;
  if (ok) {
    errno = 0;
    value = std::strtod(text.c_str(), nullptr);
    // Out of double's range (or below its normal numbers): not the number typed.
    ok = errno != ERANGE && std::isfinite(value) && (value != 0 || nonzero == 0);
  }
  if (!ok || value < lo || value > hi) {
    char range[64];
    std::snprintf(range, sizeof range, "%g..%g", lo, hi);
    throw bad_input{flag + ": '" + text.substr(0, 80) + "' is not a number in " + range +
                    " (decimal notation, such as 0.25 or 1e-3)"};
  }
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

/// --name a,b,...: each one of `allowed`, none twice (bad_input naming the
/// flag otherwise).
inline std::vector<std::string> names(const std::string& flag, const std::string& text,
                                      const std::vector<std::string>& allowed) {
  std::vector<std::string> v = split(text);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string& x = v[i];
    for (std::size_t j = 0; j < i; ++j)
      if (v[j] == x) throw bad_input{flag + ": '" + x.substr(0, 80) + "' given twice"};
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

/// --name a,b,...: each a whole number in lo..hi, none twice.
inline std::vector<std::size_t> numbers(const std::string& flag, const std::string& text,
                                        std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  for (const std::string& part : split(text)) {
    const std::size_t x = number(flag, part, lo, hi);
    for (const std::size_t y : out)
      if (y == x) throw bad_input{flag + ": '" + part.substr(0, 80) + "' given twice"};
    out.push_back(x);
  }
  return out;
}

/// --name x,y,...: each a real number in lo..hi, none twice.
inline std::vector<double> reals(const std::string& flag, const std::string& text, double lo,
                                 double hi) {
  std::vector<double> out;
  for (const std::string& part : split(text)) {
    const double x = real(flag, part, lo, hi);
    for (const double y : out)
      if (y == x) throw bad_input{flag + ": '" + part.substr(0, 80) + "' given twice"};
    out.push_back(x);
  }
  return out;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_VALUES_HPP
