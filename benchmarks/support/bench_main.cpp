// SPDX-License-Identifier: BSL-1.0
// The main shared by every benchmark binary. Besides Google Benchmark's own
// console table it prints each policy's time per decision as a ratio to the
// floor (floor/<N>/<density%>, or floor/<N>) measured in the same run.
// Benchmarks are named <policy>/<N>/<density%> or <policy>/<N> and report the
// counter ns_per_decision (seconds per decision, Google Benchmark's inverted
// rate). With --benchmark_out the JSON is written as usual.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  explicit ratio_reporter(bool color) : ConsoleReporter(color ? OO_ColorTabular : OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) record(run);
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    if (rows_.empty()) return;  // no decision-latency benchmark in this binary
    std::ostream& out = GetOutputStream();
    out << "\nns per decision, and ratio to the floor (a minimal bit-mask round robin)\n";
    out << pad("N", 6) << pad("density", 9) << pad("floor", 9);
    for (const std::string& policy : policies_) out << pad(policy, 26);
    out << '\n';
    for (const auto& [key, row] : rows_) {
      const auto floor = row.find("floor");
      out << pad(std::to_string(key.first), 6)
          << pad(key.second < 0 ? std::string("-") : std::to_string(key.second) + "%", 9)
          << pad(floor != row.end() ? fixed(floor->second) : "-", 9);
      for (const std::string& policy : policies_) {
        const auto cell = row.find(policy);
        std::string text = "-";
        if (cell != row.end()) {
          text = fixed(cell->second);
          if (floor != row.end() && floor->second > 0)
            text += " (" + fixed(cell->second / floor->second) + "x)";
        }
        out << pad(text, 26);
      }
      out << '\n';
    }
  }

 private:
  void record(const Run& run) {
    if (run.error_occurred) return;
    const bool aggregate = run.run_type == Run::RT_Aggregate;
    if (aggregate && run.aggregate_name != "median") return;
    const auto counter = run.counters.find("ns_per_decision");
    if (counter == run.counters.end()) return;
    std::vector<std::string> parts;
    std::stringstream name(run.run_name.function_name);
    for (std::string part; std::getline(name, part, '/');) parts.push_back(part);
    if (parts.size() < 2) return;
    const std::pair<long, long> key{std::stol(parts[1]),
                                    parts.size() > 2 ? std::stol(parts[2]) : -1};
    auto& cell = rows_[key][parts[0]];
    if (aggregate || cell == 0)
      cell = counter->second.value * 1e9;  // a median wins over single runs
    if (parts[0] != "floor" &&
        std::find(policies_.begin(), policies_.end(), parts[0]) == policies_.end())
      policies_.push_back(parts[0]);
  }

  static std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
  }
  static std::string fixed(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", v);
    return buffer;
  }

  std::map<std::pair<long, long>, std::map<std::string, double>> rows_;
  std::vector<std::string> policies_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ratio_reporter reporter(isatty(fileno(stdout)) != 0);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
