// SPDX-License-Identifier: BSL-1.0
// netsim: the reference network model (interlock/model/) from the command line.
//
//   netsim --radix 8,8,8 --scheme dor --arbiter round_robin --traffic uniform_random --load 0.3
//   netsim --radix 8 --wrap 0 --traffic all_to_one --load 1 --arbiter age --per-source lot.csv
//
// Exit status: 0 the run(s) finished, 1 the network deadlocked or a batch was cut off
// by the cycle limit, 2 bad input, 3 an output file could not be written.
// --help lists every flag.
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "netsim_args.hpp"
#include "netsim_run.hpp"

namespace {

using namespace netsim_tool;

const std::string help_text =
    "usage: netsim [options]\n"
    "\n"
    "Runs the reference network model: credit-based virtual cut-through routers\n"
    "on a torus or mesh, routing and output arbitration by interlock's policies.\n"
    "Prints a summary; --csv writes one row per run, whose first columns are\n"
    "every setting that changes a result (empty where it does not apply).\n"
    "\n"
    "  --preset NAME          seastar or anton2: the router shapes of the papers\n"
    "                         (interlock/model/presets.hpp); other flags override\n"
    "\n"
    "network (as deadlock_check)\n" +
    settings().help("--radix", "--arbiter") + "\nrouter\n" +
    settings().help("--arbiter", "--traffic") + "\ntraffic\n" +
    settings().help("--traffic", "--trace") + "\ntrace (instead of the traffic flags)\n" +
    settings().help("--trace", "--warmup") + "\nrun\n" + settings().help("--warmup") +
    "\n"
    "Exit status: 0 the run(s) finished; 1 the network deadlocked (the measurement\n"
    "window then ends at the cycle it was found), or a batch or trace was cut off\n"
    "by --cycles + --drain; 2 bad input (a malformed trace included); 3 an output\n"
    "could not be written.\n"
    "\n"
    "Throughput is in flits per node per cycle; 'normalized' divides it by the\n"
    "pattern's ideal (1 / the load of the busiest channel, injection or ejection\n"
    "port per unit offered), computed from interlock's channel loads.\n";

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("netsim", help_text.c_str(), "a smaller network, or fewer --cycles", argc,
                       argv, [&] {
                         try {
                           return run_network(parse(argc, argv));
                         } catch (const interlock::config_error& e) {
                           // The model names its fields; say them as flags.
                           throw bad_input{flag_of_field(e.field()) + " = " + e.value() +
                                           "; allowed: " + e.allowed()};
                         }
                       });
}
