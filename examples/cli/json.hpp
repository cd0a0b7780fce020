// SPDX-License-Identifier: BSL-1.0
// The programs' JSON output (--json FILE), written without a library:
//   - json::string(): a quoted, escaped JSON string;
//   - json::value(): the text of a CSV cell or a flag's value as JSON: a
//     number when it is one in JSON's grammar, null when empty, otherwise a
//     string ("0x5555", "uniform_random", "8,8,8");
//   - json::object(): {"key": value, ...} from pairs of key and text;
//   - json::row(): a CSV header and one of its rows as an object;
//   - json::header(): the fields every program's JSON starts with: the
//     program, interlock's version and the git revision.
// A program assembles its document from these and writes it with
// cli::output_file, so a failed write exits 3 like every other output.
#ifndef INTERLOCK_EXAMPLES_CLI_JSON_HPP
#define INTERLOCK_EXAMPLES_CLI_JSON_HPP

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "run_tool.hpp"
#include "values.hpp"

namespace cli {
namespace json {

inline std::string string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// Whether `text` is a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
inline bool is_number(const std::string& text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  const std::size_t first = i;
  const std::size_t whole = digits();
  if (whole == 0 || (whole > 1 && text[first] == '0')) return false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

inline std::string value(const std::string& text) {
  if (text.empty()) return "null";
  return is_number(text) ? text : string(text);
}

/// {"key": value(text), ...}
inline std::string object(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out = "{";
  for (std::size_t i = 0; i < fields.size(); ++i)
    out += (i ? ", " : "") + string(fields[i].first) + ": " + value(fields[i].second);
  return out + "}";
}

/// A CSV header and one of its rows (same number of cells) as an object.
inline std::string row(const std::string& header, const std::string& line) {
  const std::vector<std::string> keys = split(header), cells = split(line);
  std::vector<std::pair<std::string, std::string>> fields;
  for (std::size_t i = 0; i < keys.size() && i < cells.size(); ++i)
    if (!keys[i].empty()) fields.emplace_back(keys[i], cells[i]);
  return object(fields);
}

/// "program": ..., "interlock_version": ..., "revision": ... (no braces).
inline std::string header(const char* program) {
  return string("program") + ": " + string(program) + ", " + string("interlock_version") + ": " +
         string(version_text()) + ", " + string("revision") + ": " + string(interlock_revision());
}

}  // namespace json
}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_JSON_HPP
