// SPDX-License-Identifier: BSL-1.0
// netsim --trace: a Netrace trace opened (bzip2 through libbz2 when netsim
// is built with it), replayed closed-loop on the run's network
// (interlock/model/trace_replay.hpp), and its figures for the summary and
// the CSV row.
#ifndef INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP
#define INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP

#include <interlock/model/trace_replay.hpp>
#include <interlock/traffic/netrace.hpp>
#if INTERLOCK_NETSIM_BZIP2
#include <interlock/traffic/netrace_bzip2.hpp>
#endif

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "cli.hpp"
#include "netsim_trace_args.hpp"

namespace netsim_tool {

#if INTERLOCK_NETSIM_BZIP2
using trace_file = interlock::netrace::trace_source;
#else
/// Without libbz2: uncompressed traces only, and a compressed one named.
class trace_file : public interlock::netrace::file_source {
 public:
  explicit trace_file(const std::string& path) : file_source(check(path)) {}

 private:
  static const std::string& check(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    char head[3] = {};
    const std::size_t k = f != nullptr ? std::fread(head, 1, 3, f) : 0;
    if (f != nullptr) std::fclose(f);
    if (k == 3 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h')
      throw cli::bad_input{"--trace: " + path +
                           " is bzip2-compressed and this netsim was built without libbz2; "
                           "decompress it (bzip2 -dk) or rebuild with libbz2-dev"};
    return path;
  }
};
#endif

/// A trace being replayed: its reader and the replay the network drives.
class trace_session {
 public:
  /// Opens --trace for a network of `nodes` nodes; bad_input for a trace,
  /// region or node map that cannot be used.
  trace_session(const trace_arguments& t, std::size_t nodes) {
    try {
      reader_ = std::make_unique<reader_type>(trace_file(t.path), t.path);
      if (t.region != ~std::size_t{0}) reader_->seek_region(t.region);
      interlock::model::trace_options o;
      o.flit_bytes = t.flit_bytes;
      o.dependency_delay = t.dependency_delay;
      o.dependencies = t.dependencies;
      o.classes = t.classes;
      if (!t.node_map.empty())
        for (const std::size_t n : read_node_map(t.node_map, reader_->info().nodes, nodes))
          o.node_map.push_back(static_cast<interlock::node_id>(n));
      replay_ = std::make_unique<replay_type>(*reader_, static_cast<interlock::node_id>(nodes),
                                              std::move(o));
    } catch (const interlock::netrace::error& e) {
      throw cli::bad_input{std::string("--trace: ") + e.what()};
    } catch (const interlock::config_error& e) {
      throw cli::bad_input{std::string("--trace: ") + e.what() +
                           (e.field() == "nodes" ? " (--trace-node-map FILE)" : "")};
    } catch (const std::runtime_error& e) {
      throw cli::bad_input{std::string("--trace: ") + e.what()};
    }
  }

  interlock::model::trace_replay<trace_file>& replay() { return *replay_; }

  trace_figures figures() const {
    trace_figures f;
    f.benchmark = reader_->info().benchmark;
    f.packets = replay_->packets();
    f.trace_cycles = replay_->trace_cycles();
    f.completion = replay_->completion();
    f.held = replay_->held();
    f.held_cycles = replay_->held_cycles();
    f.late_dependencies = replay_->late_dependencies();
    return f;
  }

 private:
  using reader_type = interlock::netrace::reader<trace_file>;
  using replay_type = interlock::model::trace_replay<trace_file>;
  std::unique_ptr<reader_type> reader_;
  std::unique_ptr<replay_type> replay_;
};

/// The summary's trace lines.
inline std::string trace_text(const trace_figures& f) {
  std::string out = cli::format(
      "trace: %s, %llu packets; the traced system took %llu cycles, the replay %llu "
      "(%.3f times)\n",
      f.benchmark.c_str(), static_cast<unsigned long long>(f.packets),
      static_cast<unsigned long long>(f.trace_cycles),
      static_cast<unsigned long long>(f.completion),
      f.trace_cycles > 0 ? static_cast<double>(f.completion) / static_cast<double>(f.trace_cycles)
                         : 0.0);
  out += cli::format(
      "dependencies: %llu packets waited past their trace cycle, %.1f cycles on average",
      static_cast<unsigned long long>(f.held),
      f.held > 0 ? static_cast<double>(f.held_cycles) / static_cast<double>(f.held) : 0.0);
  if (f.late_dependencies > 0)
    out += cli::format("; %llu dependencies on packets already read were ignored",
                       static_cast<unsigned long long>(f.late_dependencies));
  return out + "\n";
}

/// The CSV columns a trace run adds, and their values.
inline const char* trace_csv_header() {
  return ",trace_packets,trace_cycles,completion,held,held_cycles,late_dependencies";
}
inline std::string trace_csv_row(const trace_figures& f) {
  return cli::format(",%llu,%llu,%llu,%llu,%llu,%llu", static_cast<unsigned long long>(f.packets),
                     static_cast<unsigned long long>(f.trace_cycles),
                     static_cast<unsigned long long>(f.completion),
                     static_cast<unsigned long long>(f.held),
                     static_cast<unsigned long long>(f.held_cycles),
                     static_cast<unsigned long long>(f.late_dependencies));
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP
