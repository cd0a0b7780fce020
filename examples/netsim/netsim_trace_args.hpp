// SPDX-License-Identifier: BSL-1.0
// netsim's trace settings (--trace FILE and the --trace-* options, declared
// in netsim_settings.hpp), their checks together, the node-map file's
// reader, and the figures a trace run reports.
// The run itself is netsim_trace_run.hpp.
#ifndef INTERLOCK_EXAMPLES_NETSIM_TRACE_ARGS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_TRACE_ARGS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <interlock/model/config.hpp>
#include <interlock/traffic/netrace.hpp>

#include "cli.hpp"

namespace netsim_tool {

/// --cycles none: a run bounded by nothing but its own end (a trace's).
inline constexpr std::size_t no_cycle_limit = std::size_t{1} << 40;

struct trace_arguments {
  std::string path;                      // --trace FILE: a Netrace trace (.tra, or .tra.bz2)
  unsigned flit_bytes = 16;              // --trace-flit-bytes
  std::uint64_t dependency_delay = 0;    // --trace-dependency-delay
  bool dependencies = true;              // --trace-open-loop: false
  std::string node_map;                  // --trace-node-map FILE
  bool classes = false;                  // --trace-classes
  std::size_t region = ~std::size_t{0};  // --trace-region R

  bool on() const noexcept { return !path.empty(); }
};

/// What a trace run adds to the summary and the CSV row: the trace's
/// packets (from --trace-region on), those replayed (read), and whether the
/// replay was cut off before the last of them was delivered.
struct trace_figures {
  std::string benchmark;
  std::uint64_t packets = 0, replayed = 0, header_cycles = 0, trace_cycles = 0, completion = 0;
  std::uint64_t held = 0, held_cycles = 0, late_dependencies = 0;
  bool cut_off = false;
};

/// --trace: what its options need (the flags it excludes are refused by
/// their settings, netsim_settings.hpp); the cycle limit (--cycles +
/// --drain) unbounded unless given.
/// `refuse(flag, message)` makes the bad_input (with FILE:LINE:COLUMN when
/// a configuration file gave the flag).
template <class Given, class Refuse>
void check_trace_flags(trace_arguments& trace, const std::string& node,
                       interlock::model::config& model, const Given& given, const Refuse& refuse) {
  if (!trace.on()) return;
  if (node != "router")
    throw refuse("--node",
                 "--node: " + node + " with --trace; a trace runs on a network of routers");
  if (trace.classes && !(model.response_share > 0 && model.response_share < 1))
    throw refuse(
        "--trace-classes",
        "--trace-classes: needs --response-share strictly between 0 and 1, so the network has "
        "both classes' VCs (the share itself is not used: the trace's types decide)");
  // Virtual cut-through stores whole packets: the trace's largest (72
  // bytes) must fit every buffer it enters.
  const unsigned largest = *std::max_element(interlock::netrace::type_bytes.begin(),
                                             interlock::netrace::type_bytes.end());
  const unsigned flits = (largest + trace.flit_bytes - 1) / trace.flit_bytes;
  const auto refuse_if_short = [&](const char* flag, unsigned buffer) {
    if (buffer != 0 && flits > buffer)
      throw refuse("--trace-flit-bytes",
                   "--trace-flit-bytes: " + std::to_string(trace.flit_bytes) +
                       " makes the trace's " + std::to_string(largest) + "-byte packets " +
                       std::to_string(flits) + " flits, more than " + flag + " " +
                       std::to_string(buffer) +
                       " holds (virtual cut-through stores whole packets); allowed: at least " +
                       std::to_string((largest + buffer - 1) / buffer));
  };
  refuse_if_short("--buffer-flits", model.buffer_flits);
  refuse_if_short("--injection-buffer-flits", model.injection_buffer_flits);
  refuse_if_short("--staging-flits", model.staging_flits);
  if (!given("--cycles")) model.measure = no_cycle_limit;
  if (!given("--drain")) model.drain = 0;
}

/// The node map: one line per trace node, "TRACE_NODE NETWORK_NODE", '#'
/// starting a comment; every trace node exactly once. Errors name the file,
/// line and column.
inline std::vector<std::size_t> read_node_map(const std::string& path, std::size_t trace_nodes,
                                              std::size_t network_nodes) {
  std::ifstream in(path);
  if (!in) throw cli::bad_input{"--trace-node-map: " + path + ": cannot open"};
  std::vector<std::size_t> map(trace_nodes, ~std::size_t{0});
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const auto where = [&](std::size_t column) {
      return path + ":" + std::to_string(number) + ":" + std::to_string(column + 1) + ": ";
    };
    std::size_t at = line.find_first_not_of(" \t\r");
    if (at == std::string::npos) continue;
    std::size_t fields[2] = {};
    std::size_t starts[2] = {};
    for (int f = 0; f < 2; ++f) {
      if (at == std::string::npos || line[at] < '0' || line[at] > '9')
        throw cli::bad_input{where(at == std::string::npos ? line.size() : at) +
                             (f == 0 ? "a trace node" : "a network node") + " (a number) expected"};
      starts[f] = at;
      std::size_t v = 0;
      while (at < line.size() && line[at] >= '0' && line[at] <= '9') {
        v = v * 10 + static_cast<std::size_t>(line[at] - '0');
        if (v > (1u << 24)) throw cli::bad_input{where(starts[f]) + "a number too large"};
        ++at;
      }
      fields[f] = v;
      at = line.find_first_not_of(" \t\r", at);
    }
    if (at != std::string::npos)
      throw cli::bad_input{where(at) + "'" + line.substr(at) + "' after the two nodes"};
    if (fields[0] >= trace_nodes)
      throw cli::bad_input{where(starts[0]) + "trace node " + std::to_string(fields[0]) +
                           "; allowed 0.." + std::to_string(trace_nodes - 1)};
    if (fields[1] >= network_nodes)
      throw cli::bad_input{where(starts[1]) + "network node " + std::to_string(fields[1]) +
                           "; allowed 0.." + std::to_string(network_nodes - 1)};
    if (map[fields[0]] != ~std::size_t{0})
      throw cli::bad_input{where(starts[0]) + "trace node " + std::to_string(fields[0]) +
                           " mapped twice"};
    map[fields[0]] = fields[1];
  }
  for (std::size_t i = 0; i < trace_nodes; ++i)
    if (map[i] == ~std::size_t{0})
      throw cli::bad_input{path + ": trace node " + std::to_string(i) + " is not mapped (" +
                           std::to_string(trace_nodes) + " trace nodes, each on a line)"};
  return map;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_TRACE_ARGS_HPP
