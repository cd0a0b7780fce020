// SPDX-License-Identifier: BSL-1.0
// vc_balance: Table 1 of Scott & Thorson, "The Cray T3E Network" (HOTI'96).
//
// For each ring size, prints the VC balance (Section 4) of three VC
// assignments, for the whole ring and each power-of-two subring:
//   time_of_crossing  every route starts on VC0 (all-zero tables)
//   optimized_t3e     simulated annealing with the T3E's 8-entry tables
//   optimized_full    simulated annealing with one entry per destination
// as CSV: ring,subring,assignment,avg,max.
//
// For the ring sizes of Table 1 (4, 8, 16, 32) the search is asked to do at
// least as well as the T3E at every level (Table 1's values as caps), then
// to improve the sum; for other sizes it minimizes the weighted sum of the
// levels' balances (the whole ring counting double).
#include <interlock/routing/vc_table.hpp>

#include "vc_balance_args.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <set>
#include <string>
#include <vector>

namespace {

struct paper_row {
  std::size_t ring, subring;
  interlock::vc_balance limited, full;
};
const paper_row table1[] = {
    {4, 4, {0, 0}, {0, 0}},
    {8, 8, {.031, .250}, {.031, .250}},
    {8, 4, {.125, .250}, {.125, .250}},
    {16, 16, {.137, .563}, {.133, .563}},
    {16, 8, {.063, .313}, {.063, .313}},
    {16, 4, {.125, .250}, {.125, .250}},
    {32, 32, {.220, .875}, {.173, .797}},
    {32, 16, {.246, .609}, {.062, .250}},
    {32, 8, {.488, 1}, {.031, .063}},
    {32, 4, {.594, 1}, {.125, .250}},
};

std::vector<interlock::vc_balance> table1_caps(std::size_t ring, bool full) {
  std::vector<interlock::vc_balance> caps;
  for (const paper_row& row : table1)
    if (row.ring == ring) {
      const interlock::vc_balance v = full ? row.full : row.limited;
      caps.push_back({v.average + 0.0005, v.maximum + 0.0005});  // at most the printed value
    }
  return caps;
}

void print(std::size_t ring, const char* name, const interlock::ring_vc_assignment& a) {
  for (std::size_t level : interlock::balance_levels(ring)) {
    const interlock::vc_balance b = interlock::measure_balance(a, level);
    std::printf("%zu,%zu,%s,%.3f,%.3f\n", ring, level, name, b.average + 1e-12, b.maximum + 1e-12);
  }
}

const std::string help_text =
    "usage: vc_balance [RING_SIZE ...] [options]\n"
    "  Prints the VC balance of the T3E's VC assignments (HOTI'96, Table 1) as CSV:\n"
    "  ring,subring,assignment,avg,max.\n" +
    vc_balance_tool::settings().help() +
    "  exit status: 0 done, 2 bad input or over the limit, 3 another failure\n";

int run(int argc, char** argv) {
  const vc_balance_tool::arguments args = vc_balance_tool::parse(argc, argv);
  std::vector<std::size_t> rings = args.rings;
  interlock::vc_optimizer_options options;
  options.seed = args.seed;
  if (args.iterations != 0) options.iterations = args.iterations;
  // The annealing steps, bounded above before starting: per ring two
  // searches (T3E tables, full tables) of --iterations steps, or by
  // default 4000 per free entry (at most ring x entries).
  double steps = 0;
  for (std::size_t ring : rings)
    for (std::size_t entries : {interlock::ring_vc_assignment::t3e_entries, ring})
      steps += args.iterations != 0 ? static_cast<double>(args.iterations)
                                    : 4000.0 * static_cast<double>(ring * entries);
  if (steps > static_cast<double>(args.max_steps))
    throw cli::bad_input{"--max-steps: the search could take " + cli::format("%.3g", steps) +
                         " annealing steps (about 0.3 us each); lower --iterations or raise "
                         "--max-steps"};
  std::printf("ring,subring,assignment,avg,max\n");
  for (std::size_t ring : rings) {
    print(ring, "time_of_crossing", interlock::ring_vc_assignment(ring));
    for (bool full : {false, true}) {
      interlock::vc_optimizer_options o = options;
      o.caps = table1_caps(ring, full);
      const auto a = interlock::optimize_vc_assignment(
          ring, full ? ring : interlock::ring_vc_assignment::t3e_entries, o);
      interlock::validate(a);
      print(ring, full ? "optimized_full" : "optimized_t3e", a);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("vc_balance", help_text.c_str(), "fewer or smaller rings", argc, argv,
                       [&] { return run(argc, argv); });
}
