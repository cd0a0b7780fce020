// SPDX-License-Identifier: BSL-1.0
// What the programs accept, in one list: every arbiter, allocator, routing
// scheme, node shape, traffic pattern and QoS scheduler, by the name the
// flags take, with what it is, the paper it comes from, its parameters (the
// flag, the range and the default) and the programs that take it.
// interlock_info prints it (as text or JSON); the parsers of netsim and
// qos_switch take their lists of allowed names from it (check()), so a name
// the list does not hold is refused with the list, and the list is what
// they accept.
#ifndef INTERLOCK_EXAMPLES_CLI_CATALOGUE_HPP
#define INTERLOCK_EXAMPLES_CLI_CATALOGUE_HPP

#include <string>
#include <vector>

#include "values.hpp"

namespace cli {
namespace catalogue {

struct parameter {
  const char* flag;
  const char* range;
  const char* default_value;
  const char* what;
};

struct entry {
  const char* kind;  // arbiter, allocator, routing, node, traffic, qos_scheduler
  const char* name;  // as the flag takes it
  const char* flag;  // the flag that names it
  const char* what;
  const char* reference;  // docs/references.md's short name and section
  std::vector<parameter> parameters;
  const char* programs;
};

/// The kinds, in the order interlock_info lists them.
inline const std::vector<std::string>& kinds() {
  static const std::vector<std::string> k = {"arbiter", "allocator", "routing",
                                             "node",    "traffic",   "qos_scheduler"};
  return k;
}

inline const std::vector<entry>& entries() {
  static const char* const torus_programs = "netsim, fairness_check";
  static const std::vector<entry> list = {
      {"arbiter",
       "round_robin",
       "--arbiter",
       "round robin over the requesting inputs (a thermometer-coded pointer)",
       "[Towles14] 3.4, Fig. 8",
       {},
       torus_programs},
      {"arbiter",
       "age",
       "--arbiter",
       "the Cray XT SeaStar's age-epoch arbiter: the oldest packet first, ages from an age "
       "clock with epochs (Procedures 1-3)",
       "[Abts07] 2-3",
       {{"--age-period", "1..4294967295 cycles", "Section 3.2's recommendation for the network",
         "AGE_CLK_PERIOD"},
        {"--age-bias", "0..7: one, one per dimension, or per dimension and the local port",
         "n, n-1, ..., 1 by dimension (Section 3.2)", "REQ_AGE_BIAS"},
        {"--rsp-age-bias", "as --age-bias", "as --age-bias", "RSP_AGE_BIAS"},
        {"--age-rr-select", "a 64-bit hexadecimal mask (0x...)", "0xffffffffffffffff",
         "AGE_RR_SELECT: bit c of the grant counter selects age (1) or round robin (0)"}},
       torus_programs},
      {"arbiter",
       "inverse_weighted",
       "--arbiter",
       "Anton 2's inverse-weighted arbiter (hardware model, Fig. 6): each input served in "
       "proportion to its load",
       "[Towles14] 3",
       {{"--weights-from", "a pattern or a mix of 2 labelled patterns", "the run's --traffic",
         "the loads the weights are programmed from (M = 8 bits; 12 on Anton 2's node)"}},
       torus_programs},
      {"arbiter",
       "iw:ORDERING.QUANTIZATION.HISTORY",
       "--arbiter",
       "the inverse-weighted family: exact Eq. 3 and the hardware model taken apart; ordering "
       "levels (two priority levels, round-robin ties) or full (by accumulator), quantization "
       "mbit or real, history window (Fig. 6's window and clamp), unbounded or lagL (an "
       "accumulator at most L quanta below the least requester's, L = 1..64); "
       "iw:levels.mbit.window decides as inverse_weighted, iw:full.real.unbounded as Eq. 3",
       "[Towles14] 3, 3.3",
       {{"--weights-from", "as inverse_weighted", "the run's --traffic",
         "the loads the weights are programmed from"}},
       "netsim, fairness_check, saturation, blend"},
      {"allocator",
       "separable_input_first",
       "--allocator",
       "separable allocation, each input's VC chosen first, then each output's input",
       "Dally & Towles 19",
       {},
       torus_programs},
      {"allocator",
       "separable_output_first",
       "--allocator",
       "separable allocation, each output's request chosen first",
       "Dally & Towles 19",
       {},
       torus_programs},
      {"allocator",
       "islip",
       "--allocator",
       "iSLIP: iterative round-robin matching (round_robin arbiter only)",
       "McKeown, ToN'99",
       {{"islip:K", "K = 1..16 iterations", "1", "the iterations"}},
       torus_programs},
      {"allocator",
       "wavefront",
       "--allocator",
       "wavefront allocation, priority rotating over the diagonals (round_robin arbiter only)",
       "Tamir & Chi, TPDS'93",
       {},
       torus_programs},
      {"routing",
       "dor",
       "--scheme",
       "dimension order with datelines (the SeaStar's)",
       "[Abts07]",
       {{"--orders", "all, or orders such as xyz,zyx (012,210 beyond 3 dimensions)", "012...",
         "dimension orders, one drawn per packet"},
        {"--no-datelines", "a switch", "off", "one VC per class, no dateline (deadlocks rings)"},
        {"--dateline-rule", "switch_at_wrap, booksim2", "switch_at_wrap",
         "where a packet changes VC on a ring"}},
       "netsim, fairness_check, deadlock_check"},
      {"routing",
       "t3e",
       "--scheme",
       "the Cray T3E's direction order: initial and final hops, route tags, VC tables",
       "[Scott96] 2-4",
       {{"--tables", "toc, optimized", "toc", "the VC tables (Table 1's optimized ones)"}},
       "netsim, fairness_check, deadlock_check"},
      {"routing",
       "t3e_adaptive",
       "--scheme",
       "the T3E's adaptive routing with the deterministic scheme as escape",
       "[Scott96] 5",
       {{"--tables", "toc, optimized", "toc", "the escape's VC tables"}},
       "netsim, fairness_check, deadlock_check"},
      {"routing",
       "vc_promotion",
       "--scheme",
       "Anton 2's VC promotion: n + 1 VCs per class for any dimension order",
       "[Towles14] 2.5",
       {{"--orders", "all, or orders such as xyz,zyx", "all", "dimension orders"}},
       "netsim, fairness_check, deadlock_check"},
      {"routing",
       "per_dimension",
       "--scheme",
       "the 2n-VC scheme VC promotion improves on",
       "[Towles14] 2.5",
       {{"--orders", "all, or orders such as xyz,zyx", "all", "dimension orders"}},
       "netsim, fairness_check, deadlock_check"},
      {"node",
       "router",
       "--node",
       "one router per node of the torus",
       "",
       {},
       "netsim, fairness_check, deadlock_check"},
      {"node",
       "anton2",
       "--node",
       "Anton 2's unified network: each node a 4x4 mesh of routers with channel adapters, one "
       "core per router (--scheme vc_promotion, 2 slices)",
       "[Towles14] 2",
       {{"--torus-bandwidth", "1/1024..1 flits per cycle", "0.311 (89.6/288)",
         "a torus link's bandwidth against a mesh channel's"},
        {"--torus-latency", "0..1000 cycles", "0",
         "a torus link's latency beyond a mesh channel's"}},
       "netsim, fairness_check, deadlock_check"},
      {"traffic",
       "uniform_random",
       "--traffic",
       "every other node equally likely",
       "",
       {},
       torus_programs},
      {"traffic",
       "tornado",
       "--traffic",
       "each dimension shifted by k/2 - 1",
       "[Towles14] 4",
       {},
       torus_programs},
      {"traffic",
       "reverse_tornado",
       "--traffic",
       "tornado the other way",
       "[Towles14] 4.2",
       {},
       torus_programs},
      {"traffic",
       "bit_complement",
       "--traffic",
       "each coordinate x to k - 1 - x",
       "",
       {},
       torus_programs},
      {"traffic", "transpose", "--traffic", "coordinates reversed", "", {}, torus_programs},
      {"traffic",
       "neighbor",
       "--traffic",
       "a random node within a few hops in each dimension",
       "[Towles14] 4",
       {{"--neighbor-hops", "0..128", "1", "hops per dimension at most"}},
       torus_programs},
      {"traffic",
       "all_to_one",
       "--traffic",
       "every node to one (the parking lot at network scale)",
       "[Abts07] 2",
       {{"--destination", "a node", "the last", "the node"}},
       torus_programs},
      {"traffic",
       "hotspot",
       "--traffic",
       "a share of the packets to one node, the rest uniform",
       "",
       {{"--destination", "a node", "the last", "the hot node"},
        {"--hotspot-fraction", "0..1", "0.5", "the share to it"}},
       torus_programs},
      {"qos_scheduler",
       "round_robin",
       "--scheduler",
       "round robin over the VLs with packets",
       "",
       {},
       "qos_switch, qos_network"},
      {"qos_scheduler",
       "sbt",
       "--scheduler",
       "the Simple Bandwidth Table (Algorithm 2)",
       "[QoSThesis] 4.3.2",
       {{"--table", "SL:WEIGHT,... summing to 100", "configuration A's 60/30/10",
         "each SL's share"}},
       "qos_switch, qos_network"},
      {"qos_scheduler",
       "dtable",
       "--scheduler",
       "the Deficit Table (Algorithm 3) planned by the configuration methodology",
       "[QoSThesis] 4.3.3, 5.4",
       {{"--dtable", "N,GMTU,W,K", "64,MTU,3,2", "the methodology's parameters"},
        {"--entries", "SL:N,...", "N split by weight", "entries per SL"}},
       "qos_switch, qos_network, qos_plan"},
      {"qos_scheduler",
       "ib",
       "--scheduler",
       "InfiniBand's dual-table VL arbitration with LimitOfHighPriority",
       "[QoSThesis] 6.2",
       {{"--ib-high", "SL,...", "none", "SLs whose VLs go in the high-priority table"},
        {"--ib-limit", "0..255", "255 (no limit)", "LimitOfHighPriority"}},
       "qos_switch"},
  };
  return list;
}

/// The names of one kind, in the list's order.
inline std::vector<std::string> names(const std::string& kind) {
  std::vector<std::string> out;
  for (const entry& e : entries())
    if (kind == e.kind) out.push_back(e.name);
  return out;
}

/// `value` if it is a name of `kind`; otherwise bad_input naming the flag
/// and listing the names.
inline std::string check(const std::string& flag, const std::string& kind,
                         const std::string& value) {
  std::string list;
  for (const std::string& n : names(kind)) {
    if (n == value) return value;
    list += (list.empty() ? "" : ", ") + n;
  }
  throw bad_input{flag + ": '" + value.substr(0, 80) + "'; allowed: " + list};
}

}  // namespace catalogue
}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_CATALOGUE_HPP
