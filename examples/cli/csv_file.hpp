// SPDX-License-Identifier: BSL-1.0
// The CSV files the registered studies keep (their designs and grids): a
// file's text read into data lines under a fixed header, and each field read
// as what its column holds, or refused naming the file, line and column.
//
// Contract
//   csv_lines(text, path, header) splits `text` into its data lines, each
//   field with the column (from 1) it starts at. It refuses, as a
//   bad_input "path:line:column: ...", an empty text, a first line other
//   than `header` and a line whose number of fields is not the header's.
//   Fields hold no quotes or commas (the studies' files never do).
//   csv_field{path, line, names} reads field k of one line: whole(k, lo,
//   hi) a whole number in lo..hi, digits only; real(k) a number of digits
//   with at most one point; one_of(k, allowed) one of the names; each
//   refusal names the file, line, column and the column's name.
//   unique_run(seen, key, path, line) records a run's key as read on `line`
//   and refuses ("path:line:1: the run of line N again") one read before.
//   file_text(flag, path) is a file's whole text, or a bad_input naming the
//   flag and the path when it cannot be opened or read.
#ifndef INTERLOCK_EXAMPLES_CLI_CSV_FILE_HPP
#define INTERLOCK_EXAMPLES_CLI_CSV_FILE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "values.hpp"

namespace cli {

/// The whole text of the file `path` (given with `flag`).
inline std::string file_text(const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input{flag + ": cannot open '" + path + "'"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw bad_input{flag + ": cannot read '" + path + "'"};
  return text.str();
}

/// One data line of a CSV file: its number (the header is line 1) and its
/// fields, each with the column it starts at.
struct csv_line {
  std::size_t number = 0;
  std::vector<std::pair<std::string, std::size_t>> fields;
};

/// The data lines of `text`, whose first line must be `header`.
inline std::vector<csv_line> csv_lines(const std::string& text, const std::string& path,
                                       const std::string& header) {
  const std::size_t columns =
      static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) + 1;
  std::vector<csv_line> out;
  std::size_t number = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string l = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (number == 1) {
      if (l != header)
        throw bad_input{path + ":1:1: the header is not the file's: expected '" + header + "'"};
      continue;
    }
    csv_line x{number, {}};
    for (std::size_t from = 0;;) {
      const std::size_t comma = l.find(',', from);
      x.fields.emplace_back(l.substr(from, comma - from), from + 1);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    if (x.fields.size() != columns)
      throw bad_input{path + ":" + std::to_string(number) +
                      ":1: " + std::to_string(x.fields.size()) + " fields; expected " +
                      std::to_string(columns)};
    out.push_back(std::move(x));
  }
  if (number == 0) throw bad_input{path + ":1:1: empty: expected the header"};
  return out;
}

/// Records the run `key` as read on line `number` of `path` in `seen` (a
/// map from key to line); refuses a run read before.
template <class Map, class Key>
void unique_run(Map& seen, const Key& key, const std::string& path, std::size_t number) {
  const auto [it, added] = seen.emplace(key, number);
  if (!added)
    throw bad_input{path + ":" + std::to_string(number) + ":1: the run of line " +
                    std::to_string(it->second) + " again"};
}

/// Reads the fields of line `x` of the file `path`, whose columns are `names`.
struct csv_field {
  const std::string& path;
  const csv_line& x;
  std::vector<std::string> names;

  std::string where(std::size_t k) const {
    return path + ":" + std::to_string(x.number) + ":" + std::to_string(x.fields[k].second) + ": " +
           names[k];
  }
  const std::string& text(std::size_t k) const { return x.fields[k].first; }
  std::uint64_t whole(std::size_t k, std::uint64_t lo, std::uint64_t hi) const {
    const std::string& t = text(k);
    if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos)
      throw bad_input{where(k) + ": '" + t.substr(0, 40) + "' is not a whole number"};
    const std::uint64_t v = std::stoull(t);
    if (v < lo || v > hi)
      throw bad_input{where(k) + ": " + t + " is not in " + std::to_string(lo) + ".." +
                      std::to_string(hi)};
    return v;
  }
  double real(std::size_t k) const {
    const std::string& t = text(k);
    if (t.empty() || t.find_first_not_of("0123456789.") != std::string::npos ||
        std::count(t.begin(), t.end(), '.') > 1 || t == ".")
      throw bad_input{where(k) + ": '" + t.substr(0, 40) +
                      "' is not a number (digits and at most one point)"};
    return std::stod(t);
  }
  const std::string& one_of(std::size_t k, const std::vector<std::string>& allowed) const {
    for (const std::string& a : allowed)
      if (a == text(k)) return a;
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw bad_input{where(k) + ": '" + text(k).substr(0, 40) + "'; allowed: " + list};
  }
};

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_CSV_FILE_HPP
