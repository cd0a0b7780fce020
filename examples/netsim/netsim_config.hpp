// SPDX-License-Identifier: BSL-1.0
// netsim's configuration as run, resolved: the arguments after the preset
// and the defaults, with what the run derives filled in (the physical VC
// count, the age clock's period and biases by Section 3.2's methodology,
// a pattern's default destination). Through the settings' table
// (netsim_settings.hpp) one resolved struct gives
//   - the summary's `configuration:` line (KEY=VALUE ...);
//   - --write-config FILE: `key = value` lines that --config FILE reads back,
//     so a rerun from the file reproduces the CSV but for wall-clock columns;
//   - --json FILE's "configuration" object;
//   - the CSV's configuration columns, one row per point of a sweep.
// Output paths (--csv, --per-source, --json, --write-config) are left out;
// the files a run reads (--trace, --trace-node-map) are written absolute.
#ifndef INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP
#define INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP

#include <interlock/model/age_support.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "netsim_args.hpp"

namespace netsim_tool {

using setting = std::pair<std::string, std::string>;  // key (the flag without dashes), value

/// The arguments as run: `physical_vcs` per channel as the network builds
/// them, `age` the age clock's parameters (with --arbiter age; the biases by
/// port become one per dimension and the local port, of the topology's `n`
/// dimensions) and the destination a pattern defaults to.
inline arguments resolved(const arguments& a, unsigned physical_vcs,
                          const interlock::model::age_config& age, std::size_t n) {
  arguments r = a;
  r.model.vcs = physical_vcs;
  if (a.arbiter == "age") {
    r.age_period = age.period;
    const auto biases = [&](bool response) {
      std::vector<unsigned> b;
      if (age.port_bias.empty()) {
        b.push_back(response ? age.bias.response() : age.bias.request());
      } else {
        // ports 2d, 2d + 1 of slice 0 for dimension d; the local port last
        for (std::size_t d = 0; d <= n && 2 * d < age.port_bias.size(); ++d) {
          const interlock::age_bias& x = age.port_bias[d < n ? 2 * d : age.port_bias.size() - 1];
          b.push_back(response ? x.response() : x.request());
        }
      }
      return b;
    };
    r.age_bias = biases(false);
    r.rsp_age_bias = biases(true);
  }
  if (r.destination == ~std::size_t{0}) {
    std::size_t nodes = 1;
    for (const std::size_t k : a.radix) nodes *= k;
    r.destination = nodes - 1;
  }
  return r;
}

/// The summary's echo: "configuration: KEY=VALUE ...".
inline std::string echo_line(const std::vector<setting>& settings) {
  std::string line = "configuration:";
  for (const setting& x : settings) line += " " + x.first + "=" + x.second;
  return line;
}

/// --write-config FILE: `key = value` lines --config FILE reads back.
inline void write_config(cli::output_file& out, const std::vector<setting>& settings,
                         const char* program) {
  out.line(std::string("# ") + program + "'s configuration as run (" + cli::version_line(program) +
           "); read it back with --config FILE");
  for (const setting& x : settings)
    out.line(x.first + " = " +
             (cli::is_input("--" + x.first) ? cli::absolute(x.second) : x.second));
  out.close();
}
inline void write_config(const std::string& path, const std::vector<setting>& settings,
                         const char* program) {
  cli::output_file out("--write-config", path);
  write_config(out, settings, program);
}

/// One point's configuration columns: the resolved arguments with the
/// point's load in place of the sweep (settings().values()).
inline std::string config_values(const arguments& r, double load) {
  arguments point = r;
  if (!point.sweep.empty()) {
    point.sweep.clear();
    point.model.load = load;
  }
  return settings().values(point);
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP
