// SPDX-License-Identifier: BSL-1.0
// netsim --trace: a Netrace trace opened (bzip2 through libbz2 when netsim
// is built with it), replayed closed-loop on the run's network
// (interlock/model/trace_replay.hpp), and its figures for the summary and
// the CSV row.
#ifndef INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP
#define INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP

#include <interlock/model/results.hpp>
#include <interlock/model/trace_replay.hpp>
#include <interlock/traffic/netrace.hpp>
#if INTERLOCK_NETSIM_BZIP2
#include <interlock/traffic/netrace_bzip2.hpp>
#endif

#include <cstdint>
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
/// The file is opened and read once (a pipe cannot be read twice).
class trace_file : public interlock::netrace::file_source {
 public:
  explicit trace_file(const std::string& path) : file_source(opened(path)) {}

 private:
  static file_source opened(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return file_source(path);  // (which names the failure)
    char head[3] = {};
    const std::size_t k = std::fread(head, 1, 3, f);
    if (k == 3 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h') {
      std::fclose(f);
      throw cli::bad_input{"--trace: " + path +
                           " is bzip2-compressed and this netsim was built without libbz2; "
                           "decompress it (bzip2 -dk) or rebuild with libbz2-dev"};
    }
    return file_source(f, path, std::string(head, k));
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
      const interlock::netrace::header& h = reader_->info();
      packets_ = h.packets;
      cycles_ = h.cycles;
      if (t.region != ~std::size_t{0}) {
        reader_->seek_region(t.region);
        packets_ = cycles_ = 0;
        for (std::size_t r = t.region; r < h.regions.size(); ++r) {
          packets_ += h.regions[r].packets;
          cycles_ += h.regions[r].cycles;
        }
      }
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

  /// The packets and cycles of the trace from --trace-region on (its
  /// header's figures), known before the replay.
  std::uint64_t packets() const noexcept { return packets_; }
  std::uint64_t cycles() const noexcept { return cycles_; }

  trace_figures figures() const {
    trace_figures f;
    f.benchmark = reader_->info().benchmark;
    f.packets = packets_;
    f.replayed = replay_->packets();
    f.header_cycles = cycles_;
    f.cut_off = !replay_->done() || replay_->delivered_packets() < replay_->packets();
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
  std::uint64_t packets_ = 0, cycles_ = 0;
};

/// The summary's trace lines; a replay cut off says how much of the trace
/// it replayed, and that every figure after it is of that part.
inline std::string trace_text(const trace_figures& f, const interlock::model::results& r) {
  const auto count = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
  std::string out;
  if (f.cut_off) {
    // Read from the file is not yet sent: a packet read may still wait for
    // a dependency, outside the network and its source queue.
    const std::uint64_t sent = r.measured_packets;
    const std::uint64_t waiting = f.replayed > sent ? f.replayed - sent : 0;
    out += cli::format(
        "TRACE CUT OFF at cycle %llu (--cycles + --drain): %llu of the trace's %llu packets "
        "read (%.1f%%): %zu delivered, %zu still in source queues, %zu in the network, %llu "
        "waiting for a dependency; every figure below is of the part replayed (partial)\n",
        count(r.cycles), count(f.replayed), count(f.packets),
        f.packets > 0 ? 100.0 * static_cast<double>(f.replayed) / static_cast<double>(f.packets)
                      : 100.0,
        r.measured_delivered, r.measured_in_source_queues, r.measured_in_network, count(waiting));
    out += cli::format(
        "trace: %s, %llu packets over %llu cycles (its header); the replay was cut off\n",
        f.benchmark.c_str(), count(f.packets), count(f.header_cycles));
  } else {
    out += cli::format(
        "trace: %s, %llu packets; the traced system took %llu cycles, the replay %llu%s\n",
        f.benchmark.c_str(), count(f.packets), count(f.trace_cycles), count(f.completion),
        f.trace_cycles > 0 ? cli::format(" (%.3f times)", static_cast<double>(f.completion) /
                                                              static_cast<double>(f.trace_cycles))
                                 .c_str()
                           : "");
  }
  out += cli::format("dependencies: %llu packets waited past their trace cycle", count(f.held));
  if (f.held > 0)
    out += cli::format(", %.1f cycles on average",
                       static_cast<double>(f.held_cycles) / static_cast<double>(f.held));
  if (f.late_dependencies > 0)
    out += cli::format("; %llu dependencies on packets already read were ignored",
                       count(f.late_dependencies));
  return out + "\n";
}

/// The CSV columns a trace run adds, and their values (the replay's
/// trace cycles and completion empty when it was cut off).
inline const char* trace_csv_header() {
  return ",trace_packets,replayed_packets,trace_cycles,completion,held,held_cycles,"
         "late_dependencies";
}
inline std::string trace_csv_row(const trace_figures& f) {
  const auto count = [](std::uint64_t x) { return std::to_string(x); };
  return "," + count(f.packets) + "," + count(f.replayed) + "," +
         (f.cut_off ? std::string() : count(f.trace_cycles)) + "," +
         (f.cut_off ? std::string() : count(f.completion)) + "," + count(f.held) + "," +
         count(f.held_cycles) + "," + count(f.late_dependencies);
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_TRACE_RUN_HPP
