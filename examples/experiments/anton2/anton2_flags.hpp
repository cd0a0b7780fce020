// SPDX-License-Identifier: BSL-1.0
// The flags saturation and blend take for the network a run is given: its
// buffers by kind, torus latency, pipeline, the router's readings, the
// switch allocator and the seed (network_flags: help, parsing into a
// run_settings, checks and the resolved values for --write-config).
#ifndef INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP
#define INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <interlock/model/router_allocators.hpp>
#include "anton2_experiment.hpp"
#include "cli.hpp"
#include "experiment.hpp"
#include "prefetch_flag.hpp"

namespace anton2_experiment {

/// The flags both experiments take for the network a run is given (its
/// buffers by kind, torus latency, pipeline and seed): their help, their
/// parsing into a run_settings and the torus latency, and their resolved
/// values for --write-config.
struct network_flags {
  run_settings run;
  unsigned torus_latency = 0;

  static std::string help() {
    return "  --buffer-flits N     input buffer per VC at the mesh routers' ports (router:\n"
           "                       the network ports), 1..4096 (default 8)\n"
           "  --adapter-buffer-flits N  anton2: per VC at the channel adapters' inputs,\n"
           "                       from their router and from the torus link, 1..4096\n"
           "                       (default --buffer-flits)\n"
           "  --injection-buffer-flits N  per VC at the cores' injection ports, 1..4096\n"
           "                       (default --buffer-flits)\n"
           "  --torus-latency N    cycles a torus link takes beyond an on-chip channel,\n"
           "                       0..1000 (default 0); its credits take it back too\n"
           "  --pipeline N         router stages a head passes: 1 (default) or 4 (route\n"
           "                       computation, VC allocation, input and output switch\n"
           "                       arbitration, each a cycle: Figure 12's RC, VA, SA1, SA2)\n"
           "  --pipelined-heads    a VC's next packet passes RC and VA while the one before\n"
           "                       it is in switch allocation, and SA1 overlaps its SA2\n"
           "                       (lookahead): 1-flit packets leave a VC one a cycle\n"
           "                       (default: once the one before has left)\n"
           "  --persistent-picks   an input port whose head lost at its output offers it\n"
           "                       again next cycle (default: its input arbiter picks again)\n"
           "  --allocator A        the switch allocator: input_first (default: each input's\n"
           "                       arbiter picks a head, each output's grants one),\n"
           "                       output_first, or islip:K (output first in K rounds,\n"
           "                       1..16, iSLIP's iterations over the same arbiters)\n"
           "  --seed N             the runs' seed (default 1)\n" +
           cli::prefetch_help(23);
  }

  /// The switch allocator --allocator names: input_first, output_first or
  /// islip:K (output first in K rounds).
  static interlock::model::separable_allocator parse_allocator(const std::string& flag,
                                                               const std::string& text) {
    if (text == "input_first") return {false, 1};
    if (text == "output_first") return {true, 1};
    if (text.compare(0, 6, "islip:") == 0)
      return {true, cli::number(flag + " (islip:K, rounds)", text.substr(6), 1, 16)};
    throw cli::bad_input{flag + ": '" + text.substr(0, 80) +
                         "'; allowed: input_first, output_first, islip:K (K = 1..16 rounds of "
                         "output-first allocation over the ports' arbiters; the matrix "
                         "allocators, wavefront among them, grant by their own round-robin "
                         "state, not by the arbiters under study)"};
  }
  std::string allocator_name() const {
    if (!run.allocator.output_first) return "input_first";
    if (run.allocator.iterations == 1) return "output_first";
    return "islip:" + std::to_string(run.allocator.iterations);
  }

  /// The flags that take no value: these and the shared ones (--full).
  static bool is_switch(const std::string& flag) {
    return cli::experiment_flags::is_switch(flag) || flag == "--pipelined-heads" ||
           flag == "--persistent-picks";
  }

  /// Reads `flag` if it is one of these (value() gives its value).
  template <class Value>
  bool read(const std::string& flag, const Value& value) {
    if (flag == "--pipelined-heads") {
      run.pipelined_heads = true;
    } else if (flag == "--persistent-picks") {
      run.persistent_picks = true;
    } else if (flag == "--allocator") {
      run.allocator = parse_allocator(flag, value());
    } else if (flag == "--buffer-flits") {
      run.buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--adapter-buffer-flits") {
      run.adapter_buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--injection-buffer-flits") {
      run.injection_buffer_flits = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--torus-latency") {
      torus_latency = static_cast<unsigned>(cli::number(flag, value(), 0, 1000));
    } else if (flag == "--pipeline") {
      const std::string v = value();
      if (v != "1" && v != "4")
        throw cli::bad_input{flag + ": '" + v.substr(0, 80) + "'; allowed: 1, 4"};
      run.pipeline = v == "1" ? 1 : 4;
    } else if (flag == "--seed") {
      run.seed = cli::number(flag, value(), 0, 1000000000);
    } else if (flag == "--prefetch") {
      run.prefetch = cli::prefetch_mode(flag, value());
    } else {
      return false;
    }
    return true;
  }

  /// Refuses what the node shapes run cannot take.
  void check(const cli::flags& given, const std::vector<std::string>& nodes) const {
    if (run.allocator.output_first && run.pipeline == 4)
      throw cli::bad_input{"--allocator: " + allocator_name() +
                           " with --pipeline 4: Figure 12's SA1 is the input stage and SA2 "
                           "the output's; allowed with --pipeline 4: input_first"};
    if (run.allocator.output_first && run.persistent_picks)
      throw cli::bad_input{"--persistent-picks: with --allocator " + allocator_name() +
                           ": the picks that persist are an input-first allocator's"};
    if (given.given("--adapter-buffer-flits") &&
        std::find(nodes.begin(), nodes.end(), "anton2") == nodes.end())
      throw cli::bad_input{
          "--adapter-buffer-flits: applies only to --nodes anton2 (the router "
          "shape has no channel adapters)"};
  }

  unsigned adapter_flits() const {
    return run.adapter_buffer_flits != 0 ? run.adapter_buffer_flits : run.buffer_flits;
  }
  unsigned injection_flits() const {
    return run.injection_buffer_flits != 0 ? run.injection_buffer_flits : run.buffer_flits;
  }

  /// Every value that applies to `nodes`, defaults resolved, for
  /// --write-config (the adapters' buffers only with anton2 among them).
  std::vector<std::pair<std::string, std::string>> resolved(
      const std::vector<std::string>& nodes) const {
    std::vector<std::pair<std::string, std::string>> out{
        {"buffer-flits", std::to_string(run.buffer_flits)}};
    if (std::find(nodes.begin(), nodes.end(), "anton2") != nodes.end())
      out.emplace_back("adapter-buffer-flits", std::to_string(adapter_flits()));
    const std::vector<std::pair<std::string, std::string>> rest{
        {"injection-buffer-flits", std::to_string(injection_flits())},
        {"torus-latency", std::to_string(torus_latency)},
        {"pipeline", std::to_string(run.pipeline)},
        {"pipelined-heads", run.pipelined_heads ? "true" : "false"},
        {"persistent-picks", run.persistent_picks ? "true" : "false"},
        {"allocator", allocator_name()},
        {"seed", std::to_string(run.seed)}};
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }

  /// The lines the tables' headers say of the network.
  std::string described() const {
    return cli::format(
        "buffers per VC: %u flits at the mesh routers, %u at the channel adapters,\n"
        "%u at the cores; torus links %u cycles longer than on-chip channels; a\n"
        "%u-stage router pipeline%s%s; %s switch allocation.\n",
        run.buffer_flits, adapter_flits(), injection_flits(), torus_latency, run.pipeline,
        run.pipelined_heads ? ", heads pipelined" : "",
        run.persistent_picks ? ", persistent picks" : "", allocator_name().c_str());
  }
};

}  // namespace anton2_experiment

#endif  // INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP
