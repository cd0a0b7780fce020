// SPDX-License-Identifier: BSL-1.0
// An experiment's table, written as CSV (--csv FILE) and as JSON
// (--json FILE): the JSON document holds the program, interlock's version and
// git revision, the configuration as given (the flags read, as cli::flags
// settings() lists them) and the CSV's rows as objects, numbers as numbers
// and empty cells as null. Both files are opened before the run (a path that
// cannot be written is bad input) and every write is checked.
#ifndef INTERLOCK_EXAMPLES_CLI_TABLE_OUTPUT_HPP
#define INTERLOCK_EXAMPLES_CLI_TABLE_OUTPUT_HPP

#include <string>
#include <utility>
#include <vector>

#include "json.hpp"
#include "output.hpp"

namespace cli {

class table_output {
 public:
  table_output(const std::string& csv_path, const std::string& json_path, const char* program,
               std::vector<std::pair<std::string, std::string>> configuration)
      : csv_("--csv", csv_path),
        json_("--json", json_path),
        program_(program),
        configuration_(std::move(configuration)) {}

  /// The CSV's header line, then its rows.
  void line(const std::string& text) {
    csv_.line(text);
    if (!json_.open()) return;
    if (header_.empty()) {
      header_ = text;
    } else {
      rows_ += (rows_.empty() ? "" : ",\n    ") + json::row(header_, text);
    }
  }
  void close() {
    csv_.close();
    if (!json_.open()) return;
    json_.line("{" + json::header(program_) + ",\n  \"configuration\": " +
               json::object(configuration_) + ",\n  \"rows\": [\n    " + rows_ + "\n  ]\n}");
    json_.close();
  }

 private:
  output_file csv_, json_;
  const char* program_;
  std::vector<std::pair<std::string, std::string>> configuration_;
  std::string header_, rows_;
};

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_TABLE_OUTPUT_HPP
