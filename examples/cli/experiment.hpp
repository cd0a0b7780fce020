// SPDX-License-Identifier: BSL-1.0
// What every experiment of examples/experiments/ shares beside its own flags:
//   --full          the paper's size (each experiment says what it sets;
//                   flags given explicitly keep their value)
//   --csv FILE      the table, one row per run, with a header
//   --json FILE     the same rows as JSON, with the version and the resolved
//                   configuration (table_output.hpp)
//   --jobs N        the grid's runs N at a time (default: the machine's
//                   cores); what is printed and written equals --jobs 1's
//   --max-work N    refuse a grid estimated to take more router-cycles
//   --write-config FILE  the resolved configuration: every flag after --full
//                   and the defaults, read back by --config FILE
// An experiment declares them with its own in one setting_table
// (settings.hpp), from experiment_flags::settings<S>(), and calls resolve()
// with its resolved settings, which writes --write-config;
// output() opens the table; check_work() refuses a grid past --max-work;
// grid() runs it.
#ifndef INTERLOCK_EXAMPLES_CLI_EXPERIMENT_HPP
#define INTERLOCK_EXAMPLES_CLI_EXPERIMENT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flags.hpp"
#include "grid.hpp"
#include "output.hpp"
#include "settings.hpp"
#include "table_output.hpp"
#include "values.hpp"

namespace cli {

/// An experiment's resolved configuration: (key, value) in flag syntax.
using settings_list = std::vector<std::pair<std::string, std::string>>;

/// Refuses runs whose estimate, `work` in `unit` (router-cycles, a
/// switch's port-cycles: about 3e6 a second), passes --max-work's
/// `max_work`, saying what to `lower`.
inline void refuse_work(double work, std::uint64_t max_work, const char* unit, const char* lower) {
  if (work > static_cast<double>(max_work))
    throw bad_input{format(
        "--max-work: the runs could take %.3g %s (about %.3g hours at 3e6 %s/s); %s or raise "
        "--max-work (now %.3g)",
        work, unit, work / 3e6 / 3600, unit, lower, static_cast<double>(max_work))};
}

class experiment_flags {
 public:
  /// The shared flags as settings of a program whose settings S hold them
  /// as `shared`, in --help's order: --full when `full_help` (what the
  /// paper's size sets) is not empty, --csv, --json, --jobs, --max-work.
  template <class S>
  static std::vector<setting<S>> settings(const std::string& full_help) {
    std::vector<setting<S>> list;
    if (!full_help.empty())
      list.push_back(cli::toggle<S>(
                         "--full", [](auto& s) -> auto& { return s.shared.full; }, full_help)
                         .local());
    list.push_back(cli::output<S>(
        "--csv", [](auto& s) -> auto& { return s.shared.csv; }, "one row per run, with a header"));
    list.push_back(cli::output<S>(
        "--json", [](auto& s) -> auto& { return s.shared.json; },
        "the rows as JSON, with the version and the configuration"));
    list.push_back(cli::whole<S>(
                       "--jobs", "N", [](auto& s) -> auto& { return s.shared.jobs; }, 1, 1024,
                       "runs N at a time; the output equals --jobs 1's")
                       .local()
                       .defaults("the machine's cores"));
    list.push_back(cli::whole<S>(
                       "--max-work", "N", [](auto& s) -> auto& { return s.shared.max_work; }, 1,
                       1000000000000000000, "refuse a run estimated past N router-cycles")
                       .control()
                       .defaults("1e11, about 9 hours"));
    return list;
  }

  /// The resolved configuration, written to --write-config if given; the
  /// JSON's "configuration" too. --max-work is included when given (a
  /// table's list holds it already).
  void resolve(const flags& f, settings_list resolved) {
    bool listed = false;
    for (const auto& r : resolved) listed = listed || r.first == "max-work";
    if (!listed && f.given("--max-work"))
      resolved.emplace_back("max-work", std::to_string(max_work));
    resolved_ = std::move(resolved);
    f.write_resolved(resolved_);
  }

  /// The table's CSV and JSON outputs (both opened now: a path that cannot
  /// be written is bad input before any run).
  table_output output(const char* program) const {
    return table_output(csv, json, program, resolved_);
  }

  /// Refuses a grid whose estimate, `work` router-cycles, passes --max-work.
  void check_work(double work, const char* lower) const {
    refuse_work(work, max_work, "router-cycles", lower);
  }

  /// Runs `cells` runs on --jobs threads (run_grid).
  template <class Run, class Emit>
  void grid(std::size_t cells, Run&& run, Emit&& emit) const {
    run_grid(cells, jobs, std::forward<Run>(run), std::forward<Emit>(emit), "runs");
  }

  bool full = false;
  std::string csv, json;
  std::size_t jobs = default_jobs();
  std::uint64_t max_work = 100000000000;

 private:
  settings_list resolved_;
};

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_EXPERIMENT_HPP
