// SPDX-License-Identifier: BSL-1.0
// The files of a registered study's verdict programs, declared once for
// all of them: --design FILE (the registered design) and --grid FILE (the
// study's runs), both required and read relative to a configuration file's
// folder, and, where the program writes its summaries, --csv FILE. A
// program whose settings S hold them as `files` takes
// study_file_settings<S>() into its setting_table.
#ifndef INTERLOCK_EXAMPLES_CLI_STUDY_FILES_HPP
#define INTERLOCK_EXAMPLES_CLI_STUDY_FILES_HPP

#include <string>
#include <vector>

#include "settings.hpp"

namespace cli {

struct study_files {
  std::string design, grid, csv;
};

/// --design (its help: `design_help`) and --grid; then --csv FILE with
/// `csv_help` unless it is empty.
template <class S>
std::vector<setting<S>> study_file_settings(
    const std::string& design_help = "the registered design (the study's design.csv)",
    const std::string& csv_help = "") {
  std::vector<setting<S>> list = {
      input<S>(
          "--design", [](auto& s) -> auto& { return s.files.design; }, design_help)
          .required("the registered design"),
      input<S>(
          "--grid", [](auto& s) -> auto& { return s.files.grid; },
          "the runs (the study's grid.csv, one row per run)")
          .required("the study's runs"),
  };
  if (!csv_help.empty())
    list.push_back(output<S>(
        "--csv", [](auto& s) -> auto& { return s.files.csv; }, csv_help));
  return list;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_STUDY_FILES_HPP
