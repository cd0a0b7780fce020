// SPDX-License-Identifier: BSL-1.0
// table5_study: the runs of the registered Table 5 study ([Abts07] Section 4), appended to its
// grid as each ends; a study stopped goes on where it stopped.
//
//   table5_study --design FILE --grid FILE [--jobs N] [--workloads W,...] [--max-runs N]
//                [--seeds S,...] [--list]
//
// Each run is one point of the design (table5_study.hpp: a workload on a
// SeaStar-shaped torus, a load as a share of the workload's capacity, an
// arbitration setting, a queue depth) with one seed: the seastar preset's
// router (dimension order with datelines, 4 VCs, 9-flit packets, the
// age-epoch arbiter at the input and at the output; round robin is the same
// arbiter with AGE_RR_SELECT = 0), 8,000 cycles of warm-up, 16,000 measured,
// then up to 64,000 for the measured packets to arrive while the sources go
// on. Runs already in the grid are skipped; the rest run N at a time, each
// row appended (and flushed) the moment its run ends.
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/pattern_mix.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include "cli.hpp"
#include "csv_file.hpp"
#include "grid.hpp"
#include "study_files.hpp"
#include "table5_study.hpp"

namespace {

using interlock::node_id;
using age_arbiter = interlock::age_epoch_arbiter<64>;
using namespace table5;

struct arguments {
  cli::study_files files;
  std::size_t jobs = cli::default_jobs(), max_runs = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> seeds = {1, 2, 3};
  std::set<std::string> only;
  bool list = false;
};

const cli::setting_table<arguments>& settings() {
  using a = arguments;
  static const cli::setting_table<a> table = [] {
    std::vector<cli::setting<a>> list = cli::study_file_settings<a>(
        "the registered design (CSV: workload, load, period, bias, queue)");
    list[1].help = "the runs so far; created with its header when missing";
    cli::append(
        list,
        {
            cli::whole<a>(
                "--jobs", "N", [](auto& s) -> auto& { return s.jobs; }, 1, 256, "runs at a time")
                .local()
                .defaults("the machine's cores"),
            cli::custom<a>(
                "--workloads", "LIST", "run only these workloads' points",
                [](a& s, const std::string& v) {
                  std::vector<std::string> names;
                  for (const workload& x : workloads()) names.push_back(x.name);
                  const std::vector<std::string> chosen = cli::names("--workloads", v, names);
                  s.only = std::set<std::string>(chosen.begin(), chosen.end());
                },
                [](const a& s) {
                  std::string out;
                  for (const std::string& w : s.only) out += (out.empty() ? "" : ",") + w;
                  return out;
                })
                .defaults("all"),
            cli::limit<a>(
                "--max-runs", "N", [](auto& s) -> auto& { return s.max_runs; }, 1, 1000000,
                "stop after starting N runs")
                .control(),
            cli::custom<a>(
                "--seeds", "LIST", "the seeds of each point",
                [](a& s, const std::string& v) { s.seeds = cli::numbers("--seeds", v, 1, 1000); },
                [](const a& s) {
                  std::string out;
                  for (const std::size_t x : s.seeds)
                    out += (out.empty() ? "" : ",") + std::to_string(x);
                  return out;
                })
                .defaults("1,2,3, the study's"),
            cli::toggle<a>(
                "--list", [](auto& s) -> auto& { return s.list; },
                "print the runs still to make, one per line, and stop")
                .control(),
        });
    return cli::setting_table<a>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: table5_study --design FILE --grid FILE [options]\n",
      "The Table 5 study (docs/results.md, \"The Table 5 study\"; Abts & Weisser,\n"
      "SC'07, Section 4): runs each point of the registered design with each seed\n"
      "on a SeaStar-shaped torus and appends its row to the grid the moment it\n"
      "ends; runs already in the grid are skipped, so a stopped study goes on where\n"
      "it stopped. A run: 8000 cycles of warm-up, 16000 measured, then up to 64000\n"
      "more for the measured packets to arrive.\n",
      settings(),
      "Exit status: 0 done; 1 a run deadlocked (its row says so); 2 bad input (a\n"
      "flag, or the file, line and column); 3 the grid could not be written.\n");
}

struct one_run {
  planned p;
  std::uint64_t seed = 0;
};

// The workload's capacity in flits per node per cycle: the least of what
// its busiest torus channel, its busiest ejection port and a processor port
// can carry.
double capacity_of(const workload& w, const interlock::dimension_order_routing& dor, double port) {
  const interlock::torus_topology& t = dor.topology();
  const auto bound = [&](const auto& pattern) {
    const std::vector<double> loads = interlock::channel_loads(dor, pattern);
    const double busiest = *std::max_element(loads.begin(), loads.end());
    std::vector<double> ejected(t.node_count(), 0.0);
    pattern.for_each_flow(t, [&](node_id, node_id d, double rate) { ejected[d] += rate; });
    const double eject = *std::max_element(ejected.begin(), ejected.end());
    return std::min({1.0 / busiest, port / eject, port});
  };
  if (w.pattern == traffic::uniform) return bound(interlock::traffic::uniform_random{});
  return bound(hotspot_mix());
}

measured run_one(const one_run& r) {
  const workload& w = workload_named(r.p.workload);
  const queue_depth& q = queue_named(r.p.queue);
  const interlock::model::preset pre = interlock::model::seastar_preset();
  const interlock::torus_topology t(w.radix, {}, 1);
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c = pre.model;
  c.buffer_flits = q.input;
  c.staging_flits = q.staging;
  c.endpoint_bandwidth = w.processor_port_is_seastar ? pre.model.endpoint_bandwidth : 1.0;
  c.response_share = w.response_share;
  measured m;
  m.capacity = capacity_of(w, dor, c.endpoint_bandwidth);
  c.load = r.p.load_fraction() * m.capacity;
  c.warmup = 8000;
  c.measure = 16000;
  c.drain = 64000;
  c.seed = r.seed;
  const std::vector<unsigned> bias = r.p.bias_values();
  interlock::model::age_config age;
  age.port_bias = interlock::model::biases_by_dimension(t, bias);
  if (r.p.round_robin()) {
    age.period = interlock::model::hardware_age_clk_period;
  } else if (r.p.period == "predicted") {
    // Section 3.2 for this torus, these queues and this bias.
    interlock::age_tuning::age_clock_inputs in;
    for (std::size_t d = 0; d < t.dimensions(); ++d)
      in.dimensions.push_back({t.radix(d), interlock::age_tuning::wrap::torus});
    for (const unsigned b : bias) in.biases.push_back(static_cast<std::uint8_t>(b));
    in.input_buffer_flits = q.input;
    in.staging_buffer_flits = q.staging;
    in.max_packet_flits = c.max_flits();
    in.vcs_per_link = 2;
    age.period = interlock::age_tuning::recommend_age_clock(in).age_clk_period;
  } else {
    age.period = static_cast<std::uint32_t>(std::stoul(r.p.period));
  }
  m.age_period = r.p.round_robin() ? 0 : age.period;
  const std::uint64_t select = r.p.round_robin() ? 0 : age_arbiter::all_age;
  const auto arbiter = [select](node_id, std::size_t) { return age_arbiter(select); };
  const auto run_with = [&](const auto& pattern) {
    interlock::model::network<interlock::dimension_order_routing, age_arbiter,
                              interlock::model::separable_input_first, age_arbiter>
        net(
            dor, c,
            [&](node_id n, interlock::splitmix64& g) { return pattern.destination(t, n, g); },
            arbiter, age, {}, arbiter);
    return net.run();
  };
  const interlock::model::results res = w.pattern == traffic::uniform
                                            ? run_with(interlock::traffic::uniform_random{})
                                            : run_with(hotspot_mix());
  m.offered = res.offered;
  m.accepted = res.accepted;
  m.latency_mean = res.network_latency_mean;
  m.latency_sd = res.network_latency_sd;
  m.latency_p99 = res.network_latency_p99;
  m.latency_max = res.network_latency_max;
  // Below capacity the sources' queues are stable, so creation to delivery
  // does not depend on the run's length; at and past it, it does.
  if (r.p.load_fraction() < 1) m.latency_total_mean = res.latency_mean;
  m.source_spread = res.source_network_latency_max_min;
  for (std::size_t d = 0; d < 3; ++d)
    for (std::size_t s = 0; s < 2; ++s) m.stall[d][s] = res.occupancy_by_direction[d][s];
  for (std::size_t b = 0; b < 4; ++b) m.ages[b] = res.age_histogram[b];
  m.inhibited = res.inhibited_share;
  m.complete = res.complete;
  m.deadlocked = res.deadlock.deadlocked;
  m.seconds = res.wall_s;
  return m;
}

// The grid file, appended to one whole line at a time.
class grid_appender {
 public:
  explicit grid_appender(const std::string& path) : path_(path) {
    f_ = std::fopen(path.c_str(), "a");
    if (f_ == nullptr) fail();
  }
  grid_appender(const grid_appender&) = delete;
  grid_appender& operator=(const grid_appender&) = delete;
  ~grid_appender() {
    if (f_ != nullptr) std::fclose(f_);
  }
  void line(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::fputs(text.c_str(), f_) < 0 || std::fputc('\n', f_) == EOF || std::fflush(f_) != 0)
      fail();
  }

 private:
  [[noreturn]] void fail() {
    throw std::runtime_error("--grid: writing '" + path_ + "' failed: " + std::strerror(errno));
  }
  std::string path_;
  std::FILE* f_ = nullptr;
  std::mutex mutex_;
};

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &design_path = given.files.design, &grid_path = given.files.grid;
  const std::size_t jobs = given.jobs, max_runs = given.max_runs;
  const std::set<std::string>& only = given.only;
  const bool list = given.list;
  const std::vector<planned> design =
      read_design(cli::file_text("--design", design_path), design_path);
  // A grid that does not exist yet, or is empty, holds no runs; it gets its
  // header before the first run (not for --list, which writes nothing).
  bool grid_empty = true;
  if (std::FILE* probe = std::fopen(grid_path.c_str(), "r")) {
    grid_empty = std::fgetc(probe) == EOF;
    std::fclose(probe);
  }
  std::set<std::pair<detail::run_key, std::uint64_t>> done;
  if (!grid_empty)
    for (const row& r : read_grid(cli::file_text("--grid", grid_path), grid_path))
      done.emplace(detail::key_of(r.run), r.seed);
  std::vector<one_run> todo;
  for (const planned& p : design) {
    if (!only.empty() && only.count(p.workload) == 0) continue;
    for (const std::uint64_t s : given.seeds)
      if (done.count({detail::key_of(p), s}) == 0) todo.push_back({p, s});
  }
  if (todo.size() > max_runs) todo.resize(max_runs);
  if (list) {
    for (const one_run& r : todo)
      std::printf("%s,%s,%s,%s,%s,%llu\n", r.p.workload.c_str(), r.p.load.c_str(),
                  r.p.period.c_str(), r.p.bias.c_str(), r.p.queue.c_str(),
                  static_cast<unsigned long long>(r.seed));
    return 0;
  }
  std::printf("table5_study: %zu runs in %s; %zu to run on %zu jobs\n", done.size(),
              grid_path.c_str(), todo.size(),
              std::min(jobs, std::max<std::size_t>(1, todo.size())));
  std::fflush(stdout);
  grid_appender grid(grid_path);
  if (grid_empty) grid.line(grid_header());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> deadlocked{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto worker = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= todo.size()) return;
      try {
        const measured m = run_one(todo[k]);
        if (m.deadlocked) deadlocked = true;
        grid.line(grid_row(todo[k].p, todo[k].seed, m));
        std::lock_guard<std::mutex> lock(error_mutex);
        std::printf("  done: %s, load %s, period %s, bias %s, %s queues, seed %llu (%.0f s)\n",
                    todo[k].p.workload.c_str(), todo[k].p.load.c_str(), todo[k].p.period.c_str(),
                    todo[k].p.bias.c_str(), todo[k].p.queue.c_str(),
                    static_cast<unsigned long long>(todo[k].seed), m.seconds);
        std::fflush(stdout);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next = todo.size();
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < std::min(jobs, todo.size()); ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return deadlocked ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("table5_study", help.c_str(), "fewer --jobs", argc, argv,
                       [&] { return run(argc, argv); });
}
