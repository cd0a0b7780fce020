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

const char* const help_text =
    "usage: netsim [options]\n"
    "\n"
    "Runs the reference network model: credit-based virtual cut-through routers\n"
    "on a torus or mesh, routing and output arbitration by interlock's policies.\n"
    "Prints a summary; --csv writes one row per run.\n"
    "\n"
    "  --preset NAME          seastar or anton2: the router shapes of the papers\n"
    "                         (interlock/model/presets.hpp); other flags override\n"
    "\n"
    "network (as deadlock_check)\n"
    "  --radix K0,K1,...      radix of each dimension (2..256), 1 to 8 dimensions;\n"
    "                         default 8,8,8\n"
    "  --wrap W0,W1,...       1: ring (torus), 0: line (mesh); default all 1\n"
    "  --slices N             parallel copies of every link (Anton 2: 2); default 1\n"
    "  --node NAME            router (default): one router per node; anton2: each\n"
    "                         node Anton 2's 4x4 mesh of routers with skip channels\n"
    "                         and torus-channel adapters, one core per router (a\n"
    "                         3-D torus of 2 slices, --scheme vc_promotion; the\n"
    "                         anton2 preset's); rates are then per core\n"
    "    --torus-bandwidth F  anton2: flits per cycle of a torus link, a mesh\n"
    "                         channel carrying 1 (default 89.6/288 = 0.311)\n"
    "    --torus-latency N    anton2: cycles a torus link takes beyond a mesh\n"
    "                         channel's (default 0); credits take it back too\n"
    "    --adapter-buffer-flits N  anton2: each VC's buffer at the channel adapters'\n"
    "                         inputs, from their router and from the torus link\n"
    "                         (default --buffer-flits: then the mesh routers')\n"
    "  --scheme NAME          dor (default), t3e, t3e_adaptive, vc_promotion, per_dimension\n"
    "    --orders LIST        dor, vc_promotion, per_dimension: dimension orders packets\n"
    "                         take, chosen at random per packet (xyz,zyx,... or all)\n"
    "    --no-datelines       dor: one VC per class, no dateline (deadlocks on rings\n"
    "                         of 5 or more; the model reports the cycle)\n"
    "    --dateline-rule R    dor: switch_at_wrap (default: VC0, VC1 from the wrap\n"
    "                         link on) or booksim2 (BookSim2's dim_order_torus: the VC\n"
    "                         chosen on entering a ring by whether the route wraps)\n"
    "    --tables toc|optimized  t3e, t3e_adaptive: VC tables\n"
    "\n"
    "router\n"
    "  --arbiter NAME         output arbiter: round_robin (default), age (the Cray XT\n"
    "                         age-epoch arbiter, every grant by age), inverse_weighted\n"
    "                         (Anton 2, weights from the pattern's loads, M = 8)\n"
    "    --age-period N       age: AGE_CLK_PERIOD in cycles (default: Section 3.2's\n"
    "                         recommendation for the network, recommend_age_clock)\n"
    "    --age-bias B|B0,..   age: REQ_AGE_BIAS (0..7) of every input port, or of\n"
    "                         the ports of each dimension [and the local port]\n"
    "                         (default: Section 3.2's n, n-1, ..., 1 by dimension)\n"
    "    --rsp-age-bias B|B0,..  age: RSP_AGE_BIAS likewise (default as --age-bias)\n"
    "    --age-rr-select 0xM  age: AGE_RR_SELECT, bit c of the grant counter's\n"
    "                         value selects age (1) or round robin (0); default all 1s\n"
    "    --weights-from NAME  inverse_weighted: program the weights from this\n"
    "                         pattern's loads ([Towles14] uses uniform_random's for\n"
    "                         every pattern; default the run's --traffic)\n"
    "  --input-arbiter NAME   which VC of an input port competes: round_robin\n"
    "                         (default), or age with --arbiter age (the SeaStar\n"
    "                         compares every (input, VC) head by age), or\n"
    "                         inverse_weighted with --arbiter inverse_weighted\n"
    "                         (weights from each VC's load at the port)\n"
    "  --allocator NAME       switch allocation: separable_input_first (default),\n"
    "                         separable_output_first, islip[:K] (K iterations, 1..16)\n"
    "                         or wavefront; islip and wavefront with --arbiter\n"
    "                         round_robin only (they grant by their own pointers)\n"
    "  --vcs N                physical VCs per channel: a multiple of what the scheme\n"
    "                         uses for the classes sent (default exactly that)\n"
    "  --buffer-flits N       input buffer per (port, VC), >= the longest packet\n"
    "                         (default 16)\n"
    "  --injection-buffer-flits N  the local (injection) port's, per VC (default\n"
    "                         as --buffer-flits)\n"
    "  --staging-flits N      output staging buffers: at every output, N flits for\n"
    "                         each (input port, VC); the output arbiter chooses among\n"
    "                         their heads (default 0: none; seastar preset 16)\n"
    "  --channel-latency N    cycles on a channel (default 1)\n"
    "  --endpoint-bandwidth F flits per cycle of each node's injection and ejection\n"
    "                         port, 1/1024..1 (default 1; seastar preset 2.1/4.8)\n"
    "  --router-delay N       cycles from a head's arrival to its allocation (default 1)\n"
    "  --endpoints N          endpoints per node, 1..8 (Anton 2 injects from many cores):\n"
    "                         each its own injection and ejection port at the router,\n"
    "                         fed by the node's source queue (default 1)\n"
    "  --head-cycles N        cycles each packet spends at the head of its buffer before\n"
    "                         it competes (route computation and VC allocation as\n"
    "                         stages, BookSim2's iq_router: routing_delay +\n"
    "                         vc_alloc_delay); a queued packet waits them after the\n"
    "                         one before it leaves (default 0)\n"
    "  --switch-stages N      1 (default): switch allocation in one cycle; 2: an\n"
    "                         input's pick (SA1) reaches its output's arbiter (SA2)\n"
    "                         a cycle later, Anton 2's pipeline (Towles et al. Fig.\n"
    "                         12; with --head-cycles 2: RC, VA, SA1, SA2);\n"
    "                         separable_input_first only\n"
    "\n"
    "traffic\n"
    "  --traffic NAME         uniform_random (default), tornado, reverse_tornado,\n"
    "                         bit_complement, transpose, neighbor, all_to_one, hotspot;\n"
    "                         or a mix NAME:SHARE,NAME:SHARE (up to 4): each packet\n"
    "                         draws a pattern by share, its label the pattern's index\n"
    "                         (inverse_weighted: 2 patterns, weights per label)\n"
    "    --destination N      all_to_one, hotspot: the node (default the last)\n"
    "    --hotspot-fraction F hotspot: share of packets to it (default 0.5)\n"
    "    --neighbor-hops H    neighbor: at most H hops per dimension (default 1)\n"
    "  --load L               offered flits per node per cycle, 0..1 (default 0.1)\n"
    "  --sweep L1,L2,...      one run per load, one CSV row each, in the list's order\n"
    "  --jobs N               a sweep's loads run N at a time (default: the machine's\n"
    "                         cores); the results equal --jobs 1's\n"
    "  --batch B              every source sends B packets as fast as it can; the run\n"
    "                         ends at the last delivery\n"
    "  --packet-flits N|N:S,..  packet length, or lengths with shares (default 1)\n"
    "  --response-share F     share of packets in the response class (default 0)\n"
    "\n"
    "run\n"
    "  --warmup N             cycles before measuring (default 1000)\n"
    "  --cycles N             measured cycles (default 10000)\n"
    "  --drain N              at most N more cycles for measured packets (default 50000)\n"
    "  --seed N               the run's seed (default 1)\n"
    "  --csv FILE             one row per run, with a header line\n"
    "  --per-source FILE      one row per source: source,hops,accepted,share,\n"
    "                         latency_mean,latency_sd,network_latency_mean,completion\n"
    "                         (completion: a batch's last delivery from the source)\n"
    "  --json FILE            the configuration as run and every run's results\n"
    "                         (per source too) as one JSON document\n"
    "  --write-config FILE    the configuration as run, resolved (defaults, preset,\n"
    "                         VC count, age parameters), as 'key = value' lines\n"
    "                         that --config FILE reads back\n"
    "  --no-progress          no progress bar (it is shown only on a terminal)\n"
    "  --max-work N           refuse a run estimated to step more router-cycles\n"
    "                         (routers x (warm-up + window + drain) x loads;\n"
    "                         default 100000000000, about 9 hours)\n"
    "  --max-memory MIB       refuse a run whose latency samples could take more\n"
    "                         (8 bytes per packet of the window; default 4096)\n"
    "  --config FILE          flags from a file of 'key = value' lines (keys: the\n"
    "                         long flags without the dashes); the command line\n"
    "                         overrides it\n"
    "  --help                 this text\n"
    "\n"
    "Exit status: 0 the run(s) finished; 1 the network deadlocked (the measurement\n"
    "window then ends at the cycle it was found), or a batch was cut off by\n"
    "--cycles + --drain; 2 bad input; 3 an output could not be written.\n"
    "\n"
    "Throughput is in flits per node per cycle; 'normalized' divides it by the\n"
    "pattern's ideal (1 / the load of the busiest channel, injection or ejection\n"
    "port per unit offered), computed from interlock's channel loads.\n";

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("netsim", help_text, "a smaller network, or fewer --cycles", argc, argv,
                       [&] {
                         try {
                           return run_network(parse(argc, argv));
                         } catch (const interlock::config_error& e) {
                           // The model names its fields; say them as flags.
                           throw bad_input{flag_of_field(e.field()) + " = " + e.value() +
                                           "; allowed: " + e.allowed()};
                         }
                       });
}
