// SPDX-License-Identifier: BSL-1.0
// The settings saturation and blend share for the network a run is given
// (cli/settings.hpp): its buffers by kind, torus latency, pipeline, the
// router's readings, the switch allocator, the seed and the cache hints,
// each declared once in network_settings(); network_flags holds their
// values, refuses the combinations the router cannot take and describes
// them for the tables' headers.
#ifndef INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP
#define INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <interlock/model/router_allocators.hpp>
#include "anton2_experiment.hpp"
#include "cli.hpp"
#include "flags.hpp"
#include "prefetch_flag.hpp"
#include "settings.hpp"

namespace anton2_experiment {

/// The values of the network settings (network_settings() reads them).
struct network_flags {
  run_settings run;
  unsigned torus_latency = 0;

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

  /// Refuses what the router cannot take (at FILE:LINE:COLUMN when a
  /// configuration file gave the flag blamed).
  void check(const cli::flags& given) const {
    using table = cli::setting_table<network_flags>;
    if (run.allocator.output_first && run.pipeline == 4)
      throw table::refusal(given, "--allocator",
                           "--allocator: " + allocator_name() +
                               " with --pipeline 4: Figure 12's SA1 is the input stage and "
                               "SA2 the output's; allowed with --pipeline 4: input_first");
    if (run.allocator.output_first && run.persistent_picks)
      throw table::refusal(given, "--persistent-picks",
                           "--persistent-picks: with --allocator " + allocator_name() +
                               ": the picks that persist are an input-first allocator's");
  }

  unsigned adapter_flits() const {
    return run.adapter_buffer_flits != 0 ? run.adapter_buffer_flits : run.buffer_flits;
  }
  unsigned injection_flits() const {
    return run.injection_buffer_flits != 0 ? run.injection_buffer_flits : run.buffer_flits;
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

/// Whether `nodes` runs Anton 2's node (the shape with channel adapters).
inline bool has_anton2(const std::vector<std::string>& nodes) {
  return std::find(nodes.begin(), nodes.end(), "anton2") != nodes.end();
}

/// The network's settings of a program whose settings S hold them as
/// `net` (network_flags) and the node shapes run as `nodes`, in --help's
/// order; every one a result setting (a CSV column) but --prefetch.
template <class S>
std::vector<cli::setting<S>> network_settings() {
  using cli::whole;
  // The adapters' and the cores' buffers default to --buffer-flits: each is
  // written back as the run resolves it.
  cli::setting<S> adapter = whole<S>(
      "--adapter-buffer-flits", "N",
      [](auto& s) -> auto& { return s.net.run.adapter_buffer_flits; }, 1, 4096,
      "anton2: per VC at the channel adapters' inputs, from their router and from the torus "
      "link, 1..4096");
  adapter.write = [](const S& s) { return std::to_string(s.net.adapter_flits()); };
  cli::setting<S> injection = whole<S>(
      "--injection-buffer-flits", "N",
      [](auto& s) -> auto& { return s.net.run.injection_buffer_flits; }, 1, 4096,
      "per VC at the cores' injection ports, 1..4096");
  injection.write = [](const S& s) { return std::to_string(s.net.injection_flits()); };
  return {
      whole<S>(
          "--buffer-flits", "N", [](auto& s) -> auto& { return s.net.run.buffer_flits; }, 1, 4096,
          "input buffer per VC at the mesh routers' ports (router: the network ports), "
          "1..4096"),
      adapter
          .when([](const S& s) { return has_anton2(s.nodes); },
                "--nodes anton2 (the router shape has no channel adapters)")
          .defaults("--buffer-flits"),
      injection.defaults("--buffer-flits"),
      whole<S>(
          "--torus-latency", "N", [](auto& s) -> auto& { return s.net.torus_latency; }, 0, 1000,
          "cycles a torus link takes beyond an on-chip channel, 0..1000; its credits take it "
          "back too"),
      cli::custom<S>(
          "--pipeline", "N",
          "router stages a head passes: 1 or 4 (route computation, VC allocation, input and "
          "output switch arbitration, each a cycle: Figure 12's RC, VA, SA1, SA2)",
          [](S& s, const std::string& v) {
            if (v != "1" && v != "4")
              throw cli::bad_input{"--pipeline: '" + v.substr(0, 80) + "'; allowed: 1, 4"};
            s.net.run.pipeline = v == "1" ? 1 : 4;
          },
          [](const S& s) { return std::to_string(s.net.run.pipeline); }),
      cli::toggle<S>(
          "--pipelined-heads", [](auto& s) -> auto& { return s.net.run.pipelined_heads; },
          "a VC's next packet passes RC and VA while the one before it is in switch "
          "allocation, and SA1 overlaps its SA2 (lookahead): 1-flit packets leave a "
          "VC one a cycle (default: once the one before has left)"),
      cli::toggle<S>(
          "--persistent-picks", [](auto& s) -> auto& { return s.net.run.persistent_picks; },
          "an input port whose head lost at its output offers it again next cycle (default: "
          "its input arbiter picks again)"),
      cli::custom<S>(
          "--allocator", "A",
          "the switch allocator: input_first (each input's arbiter picks a head, each "
          "output's grants one), output_first, or islip:K (output first in K rounds, 1..16, "
          "iSLIP's iterations over the same arbiters)",
          [](S& s, const std::string& v) {
            s.net.run.allocator = network_flags::parse_allocator("--allocator", v);
          },
          [](const S& s) { return s.net.allocator_name(); }),
      whole<S>(
          "--seed", "N", [](auto& s) -> auto& { return s.net.run.seed; }, 0, 1000000000,
          "the runs' seed"),
      cli::custom<S>(
          "--prefetch", "MODE",
          "automatic, always or never: the model's cache hints (automatic: where the routers' "
          "input buffers exceed 1 MiB); the same results, only the time differs",
          [](S& s, const std::string& v) {
            s.net.run.prefetch = cli::prefetch_mode("--prefetch", v);
          },
          [](const S& s) { return cli::prefetch_name(s.net.run.prefetch); })
          .control(),
  };
}

}  // namespace anton2_experiment

#endif  // INTERLOCK_EXAMPLES_ANTON2_FLAGS_HPP
