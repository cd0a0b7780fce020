// SPDX-License-Identifier: BSL-1.0
// study: runs a registered study (docs/results/studies/README.md) where it
// stopped, on every core, then writes its verdict. The one runner of every
// study; scripts/study builds the programs and calls it.
//
//   study NAME [--jobs N] [--max-batch B] [--parts D1,D3,D2] [--workloads W,...]
//              [--verdict-only] [--folder DIR] [--bin DIR] [--summary DIR]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "settings.hpp"
#include "study_kinds.hpp"
#include "study_others.hpp"
#include "study_runner.hpp"

namespace {

const std::vector<std::string> study_names = {
    "figure9",  "figure9_onehop",       "figure9_exact",
    "figure10", "anton2_decomposition", "anton2_decomposition_f",
    "table5",   "switch_speedup"};

std::string own_folder() {
  std::string path(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  path.resize(static_cast<std::size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

// The reading the decomposition study's rule 6 selects for its part F,
// from that study's files beside `folder`.
std::string part_f_reading(const std::string& folder, const std::string& bin) {
  const std::string d = folder.substr(0, folder.find_last_of('/') + 1) + "anton2_decomposition";
  study::scratch_folder s;
  const int status =
      study::run_to({bin + "/decomposition_verdict", "--design", d + "/design.csv", "--grid",
                     d + "/grid.csv", "--refused", d + "/refused.csv", "--part-f-reading"},
                    s.file("reading.txt"));
  std::ifstream in(s.file("reading.txt"));
  std::string reading;
  std::getline(in, reading);
  if (status != 0) throw std::runtime_error("decomposition_verdict failed on " + d);
  if (reading == "pending" || reading == "none" || reading.empty())
    throw cli::bad_input{"anton2_decomposition_f: rule 6 of " + d +
                         "/registration.md selects no reading yet ('" + reading + "')"};
  return reading;
}

struct arguments {
  std::string name, parts = "D1,D3,D2", workloads, folder, bin = own_folder(),
                    summary = "build/experiments";
  std::size_t jobs = std::max(1u, std::thread::hardware_concurrency()),
              max_batch = std::numeric_limits<std::size_t>::max();
  bool verdict_only = false;
};

bool anton2_figure(const arguments& s) {
  return s.name.compare(0, 6, "figure") == 0 || s.name == "anton2_decomposition_f";
}

const cli::setting_table<arguments>& settings() {
  using a = arguments;
  static const cli::setting_table<a> table = [] {
    cli::setting_table<a> t({
        cli::whole<a>(
            "--jobs", "N", [](auto& s) -> auto& { return s.jobs; }, 1, 99, "runs at a time, 1..99")
            .local()
            .defaults("the machine's cores"),
        cli::limit<a>(
            "--max-batch", "B", [](auto& s) -> auto& { return s.max_batch; }, 1, 9999999,
            "leave runs of batches above B")
            .control()
            .when(anton2_figure,
                  "figure9, figure9_onehop, figure9_exact, figure10, anton2_decomposition_f"),
        cli::custom<a>(
            "--parts", "P,...", "its parts, in this order",
            [](a& s, const std::string& v) {
              for (const std::string& p : cli::split(v))
                if (p != "D1" && p != "D2" && p != "D3")
                  throw cli::bad_input{"--parts: '" + p.substr(0, 40) + "'; allowed: D1, D2, D3"};
              s.parts = v;
            },
            [](const a& s) { return s.parts; })
            .control()
            .when([](const a& s) { return s.name == "anton2_decomposition"; },
                  "anton2_decomposition"),
        cli::custom<a>(
            "--workloads", "W,...", "only these workloads' runs",
            [](a& s, const std::string& v) {
              if (v.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789,") !=
                  std::string::npos)
                throw cli::bad_input{"--workloads: '" + v.substr(0, 80) +
                                     "' is not a list of workloads"};
              s.workloads = v;
            },
            [](const a& s) { return s.workloads; })
            .control()
            .when([](const a& s) { return s.name == "table5"; }, "table5")
            .defaults("all"),
        cli::toggle<a>(
            "--verdict-only", [](auto& s) -> auto& { return s.verdict_only; },
            "no runs: the verdict from the grid as it is")
            .control(),
        cli::input<a>(
            "--folder", [](auto& s) -> auto& { return s.folder; }, "the study's files")
            .defaults("docs/results/studies/NAME"),
        cli::input<a>(
            "--bin", [](auto& s) -> auto& { return s.bin; }, "the programs")
            .defaults("this program's folder"),
        cli::output<a>(
            "--summary", [](auto& s) -> auto& { return s.summary; },
            "the folder of the verdicts' summaries"),
    });
    t.operand("a study: " + cli::joined(study_names), [](a& s, const std::string& v) {
      if (std::find(study_names.begin(), study_names.end(), v) == study_names.end())
        throw cli::bad_input{"'" + v.substr(0, 40) +
                             "' is not a study; studies: " + cli::joined(study_names)};
      s.name = v;
    });
    return t;
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: study NAME [--jobs N] [--max-batch B] [--parts P,...] [--workloads W,...]\n"
      "             [--verdict-only] [--folder DIR] [--bin DIR] [--summary DIR]\n",
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
      "  anton2_decomposition_f  its part F: figure10's blend runs under the router\n"
      "                       reading its rule 6 selects\n"
      "  table5               table5_study's runs on SeaStar-shaped tori\n"
      "  switch_speedup       qos_switch runs of the QoS switch's crossbar speed-ups\n",
      settings(),
      "Exit status: 0 done (the verdict may be pending); 1 a run failed (its message\n"
      "printed; not a run refused); 2 bad input; 3 a failed write.\n");
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string& name = given.name;
  std::string folder = given.folder;
  const std::string &summary = given.summary, &bin = given.bin;
  const std::size_t jobs = given.jobs, max_batch = given.max_batch;
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
  else if (name == "anton2_decomposition_f")
    kind = std::make_unique<study::figure10_kind>(where, max_batch, part_f_reading(folder, bin));
  else if (name == "anton2_decomposition")
    kind = std::make_unique<study::decomposition_kind>(where, cli::split(given.parts));
  else if (name == "switch_speedup")
    kind = std::make_unique<study::switch_speedup_kind>(where);
  else
    kind = std::make_unique<study::table5_kind>(where, given.workloads);
  if (!given.verdict_only) {
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
  const std::string help = help_text();
  return cli::run_tool("study", help.c_str(), "fewer --jobs", argc, argv,
                       [&] { return run(argc, argv); });
}
