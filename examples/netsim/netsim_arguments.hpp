// SPDX-License-Identifier: BSL-1.0
// netsim's settings as one struct: what its flags set (netsim_settings.hpp
// declares each flag over it) and the hooks of a driver that runs netsim's
// runs (fairness_check).
#ifndef INTERLOCK_EXAMPLES_NETSIM_ARGUMENTS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_ARGUMENTS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <interlock/model/config.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/model/results.hpp>
#include <interlock/topology/anton2_node.hpp>
#include "cli.hpp"
#include "netsim_trace_args.hpp"
#include "netsim_values.hpp"

namespace netsim_tool {

using cli::token;

struct arguments {
  std::vector<std::size_t> radix{8, 8, 8};
  std::vector<bool> wrap;  // empty: all 1
  std::size_t slices = 1;
  std::string scheme = "dor";
  std::string node = "router";  // router: one per node; anton2: Anton 2's on-chip mesh
  interlock::anton2_links links;
  std::string orders;
  bool no_datelines = false;
  std::string dateline_rule = "switch_at_wrap";
  std::string tables = "toc";
  std::string arbiter = "round_robin";
  std::string input_arbiter = "round_robin";  // round_robin, or the same as --arbiter
  std::string allocator = "separable_input_first";
  std::size_t islip_iterations = 1;
  std::string traffic = "uniform_random";
  std::size_t destination = ~std::size_t{0};  // all_to_one / hotspot node; default the last
  double hotspot_fraction = 0.5;
  std::size_t neighbor_hops = 1;
  std::vector<double> sweep;
  std::uint32_t age_period = 0;        // 0: Section 3.2's recommendation for the network
  std::vector<unsigned> age_bias;      // one value, one per dimension, or per dimension + local
  std::vector<unsigned> rsp_age_bias;  // as age_bias; empty: as age_bias
  std::uint64_t age_rr_select = ~std::uint64_t{0};  // AGE_RR_SELECT: every grant by age
  std::string weights_from;  // inverse-weighted arbiters: the pattern of the loads
  std::vector<mix_component> mix{{"uniform_random", 1}};  // --traffic, parsed
  std::vector<mix_component> weights_mix;                 // --weights-from, parsed
  unsigned weight_headroom = 0;  // inverse-weighted: bits of M the weights leave unused
  std::string csv;
  std::string per_source;
  std::string json;           // --json FILE: configuration and results
  std::string write_config;   // --write-config FILE: the configuration as run
  std::size_t jobs = 0;       // --jobs: a sweep's points at once (0: the cores)
  std::vector<token> config;  // what was given, file then command line
  bool progress = true;
  std::uint64_t max_work = 100000000000;  // router-cycles a run may take (about 9 h)
  std::uint64_t max_memory_mib = 4096;    // latency samples a run may keep
  interlock::model::config model;
  trace_arguments trace;            // --trace FILE and its options
  interlock::model::preset preset;  // --preset, if given
  // A driver's hooks (fairness_check): no summary printed, and each run's
  // results handed over.
  bool quiet = false;
  std::function<void(const interlock::model::results&)> on_results;
  // A driver's: the configuration as run (key, value), once per run.
  std::function<void(const std::vector<std::pair<std::string, std::string>>&)> on_resolved;
  // A driver's: each row's configuration columns (settings().columns()), as run.
  std::function<void(const std::string&)> on_config_values;

  /// A batch or a trace: every packet measured, the run ends at the last delivery.
  bool finite() const noexcept { return model.batch > 0 || trace.on(); }
};

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_ARGUMENTS_HPP
