// SPDX-License-Identifier: BSL-1.0
// study: runs a registered study (docs/results/studies/README.md) where it
// stopped, on every core, then writes its verdict. The one runner of every
// study; scripts/study builds the programs and calls it.
//
//   study NAME [--jobs N] [--max-batch B] [--parts D1,D3,D2] [--workloads W,...]
//              [--verdict-only] [--folder DIR] [--bin DIR] [--summary DIR]
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "study_kinds.hpp"
#include "study_others.hpp"
#include "study_runner.hpp"

namespace {

const char* const help_text =
    "usage: study NAME [--jobs N] [--max-batch B] [--parts P,...] [--workloads W,...]\n"
    "             [--verdict-only] [--folder DIR] [--bin DIR] [--summary DIR]\n"
    "\n"
    "Runs the registered study NAME's runs that its grid does not hold yet, N at\n"
    "a time, each a process of its own, appending each finished run's row to the\n"
    "grid as it ends (a run its program refuses, exit status 2, is recorded with\n"
    "the program's message in refused.csv and not run again); then the study's\n"
    "verdict program writes verdict.md. A stopped study goes on where it stopped.\n"
    "\n"
    "Studies (docs/results/studies/NAME/: design.csv, grid.csv, refused.csv,\n"
    "verdict.md):\n"
    "  figure9, figure9_onehop, figure9_exact   saturation runs on Anton 2's node\n"
    "                       (uniform, 1-hop neighbor, uniform traffic)\n"
    "  figure10             blend runs on Anton 2's node\n"
    "  anton2_decomposition saturation runs under the arbiter family's forms and\n"
    "                       the router's readings, conditional rows in later rounds\n"
    "  table5               table5_study's runs on SeaStar-shaped tori\n"
    "  switch_speedup       qos_switch runs of the QoS switch's crossbar speed-ups\n"
    "\n"
    "  --jobs N             runs at a time, 1..99 (default: the machine's cores)\n"
    "  --max-batch B        figure9*, figure10: leave runs of batches above B\n"
    "  --parts P,...        anton2_decomposition: its parts, in this order (default\n"
    "                       D1,D3,D2)\n"
    "  --workloads W,...    table5: only these workloads' runs\n"
    "  --verdict-only       no runs: the verdict from the grid as it is\n"
    "  --folder DIR         the study's files (default docs/results/studies/NAME)\n"
    "  --bin DIR            the programs (default: this program's folder)\n"
    "  --summary DIR        the verdicts' summaries (default build/experiments)\n"
    "\n"
    "Exit status: 0 done (the verdict may be pending); 1 a run failed (its message\n"
    "printed; not a run refused); 2 bad input; 3 a failed write.\n";

std::string own_folder() {
  std::string path(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  path.resize(static_cast<std::size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

int run(int argc, char** argv) {
  std::string name, parts = "D1,D3,D2", workloads, folder, bin = own_folder(),
                    summary = "build/experiments";
  std::size_t jobs = std::max(1u, std::thread::hardware_concurrency()), max_batch = 1000000;
  bool verdict_only = false;
  const auto is_switch = [](const std::string& flag) { return flag == "--verdict-only"; };
  cli::flags flags(argc, argv, is_switch);
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (flag == "--jobs") {
      jobs = cli::number(flag, value(), 1, 99);
    } else if (flag == "--max-batch") {
      max_batch = cli::number(flag, value(), 1, 9999999);
    } else if (flag == "--parts") {
      parts = value();
      for (const std::string& p : cli::split(parts))
        if (p != "D1" && p != "D2" && p != "D3")
          throw cli::bad_input{flag + ": '" + p.substr(0, 40) + "'; allowed: D1, D2, D3"};
    } else if (flag == "--workloads") {
      workloads = value();
      if (workloads.empty() || workloads.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyz_0123456789,") != std::string::npos)
        throw cli::bad_input{flag + ": '" + workloads.substr(0, 80) +
                             "' is not a list of workloads"};
    } else if (flag == "--verdict-only") {
      verdict_only = true;
    } else if (flag == "--folder") {
      folder = value();
    } else if (flag == "--bin") {
      bin = value();
    } else if (flag == "--summary") {
      summary = value();
    } else if (flag.compare(0, 2, "--") != 0 && name.empty()) {
      name = flag;
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  const std::vector<std::string> names = {"figure9",       "figure9_onehop",       "figure9_exact",
                                          "figure10",      "anton2_decomposition", "table5",
                                          "switch_speedup"};
  if (name.empty()) throw cli::bad_input{"name a study: " + cli::joined(names)};
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw cli::bad_input{"'" + name.substr(0, 40) +
                         "' is not a study; studies: " + cli::joined(names)};
  const bool anton2_figure = name.compare(0, 6, "figure") == 0;
  if (flags.given("--max-batch") && !anton2_figure)
    throw cli::bad_input{
        "--max-batch: applies to figure9, figure9_onehop, figure9_exact, figure10"};
  if (flags.given("--parts") && name != "anton2_decomposition")
    throw cli::bad_input{"--parts: applies to anton2_decomposition"};
  if (flags.given("--workloads") && name != "table5")
    throw cli::bad_input{"--workloads: applies to table5"};
  if (folder.empty()) folder = "docs/results/studies/" + name;
  if (access((folder + "/design.csv").c_str(), R_OK) != 0)
    throw cli::bad_input{folder +
                         "/design.csv: missing (a study's design is committed when it "
                         "is registered)"};
  if (std::system(("mkdir -p '" + summary + "'").c_str()) != 0)
    throw std::runtime_error("cannot make " + summary);
  const study::places where{folder, bin, summary, name};
  std::unique_ptr<study::study_kind> kind;
  if (name == "figure9" || name == "figure9_exact")
    kind = std::make_unique<study::figure9_kind>(where, "uniform", max_batch);
  else if (name == "figure9_onehop")
    kind = std::make_unique<study::figure9_kind>(where, "neighbor1", max_batch);
  else if (name == "figure10")
    kind = std::make_unique<study::figure10_kind>(where, max_batch);
  else if (name == "anton2_decomposition")
    kind = std::make_unique<study::decomposition_kind>(where, cli::split(parts));
  else if (name == "switch_speedup")
    kind = std::make_unique<study::switch_speedup_kind>(where);
  else
    kind = std::make_unique<study::table5_kind>(where, workloads);
  if (!verdict_only) {
    if (!kind->runs_itself()) study::prepare_files(*kind, folder);
    int status = kind->check();
    if (status != 0) return status;
    status = kind->runs_itself() ? kind->run_itself(jobs) : study::run_study(*kind, folder, jobs);
    if (status != 0) return status;
  }
  return kind->verdict();
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("study", help_text, "fewer --jobs", argc, argv,
                       [&] { return run(argc, argv); });
}
