// SPDX-License-Identifier: BSL-1.0
// deadlock_check's command line: the flags, their checks and the orders, read
// by the tools' shared layer (cli.hpp; --config FILE too). Shared by the tool
// and by the fuzz harness of its flag parsing (tests/fuzz/tool_flags_fuzz.cpp):
// parse() throws bad_input naming the flag for anything it refuses and
// nothing else.
#ifndef INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP
#define INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP

#include <interlock/routing/route.hpp>
#include <interlock/topology/torus.hpp>

#include "cli.hpp"
#include "routing_flags.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace deadlock_check_tool {

using cli::bad_input;
using cli::parse_orders;
using cli::vc_tables;

struct arguments {
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  std::size_t slices = 1;
  std::string scheme;
  std::string node = "router";  // router: one per node; anton2: Anton 2's on-chip mesh
  std::string orders;
  unsigned vcs = 0;
  std::vector<interlock::traffic_class> classes{interlock::traffic_class::request,
                                                interlock::traffic_class::response};
  bool no_datelines = false, other_way = false, initial_hops = false, final_hop = false;
  bool initial_onto_dateline = false, non_minimal = false;
  std::string tables = "toc";
  std::string flow = "whole_packet";
  std::size_t minus_dateline = 0;
  std::size_t max_memory_mib = 4096;
  std::size_t max_routes = 1000000000;
  std::vector<std::string> scheme_flags;  // the scheme-specific flags given
};

inline bool is_switch(const std::string& flag) {
  return flag == "--no-datelines" || flag == "--other-way" || flag == "--initial-hops" ||
         flag == "--final-hop" || flag == "--initial-onto-dateline" || flag == "--non-minimal";
}

/// The configuration as run, for --write-config: every flag after the
/// defaults (the orders a scheme takes by default written out; --vcs only
/// when it limits the scheme's).
inline std::vector<std::pair<std::string, std::string>> resolved(const arguments& a) {
  std::vector<std::pair<std::string, std::string>> r;
  const auto list = [](const auto& values) {
    std::string text;
    for (const auto& v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
    return text;
  };
  r.emplace_back("radix", list(a.radix));
  std::vector<int> wrap;
  for (const bool w : a.wrap) wrap.push_back(w ? 1 : 0);
  r.emplace_back("wrap", list(wrap));
  r.emplace_back("slices", std::to_string(a.slices));
  r.emplace_back("scheme", a.scheme);
  r.emplace_back("node", a.node);
  const bool ordered = a.scheme == "dor" || a.scheme == "vc_promotion" ||
                       a.scheme == "per_dimension" || a.node == "anton2";
  if (ordered) {
    std::string orders = a.orders;
    if (orders.empty() && a.scheme == "dor") {
      for (std::size_t d = 0; d < a.radix.size(); ++d)
        orders += a.radix.size() <= 3 ? static_cast<char>('x' + d) : static_cast<char>('0' + d);
    }
    r.emplace_back("orders", orders.empty() ? "all" : orders);
  }
  if (a.vcs != 0) r.emplace_back("vcs", std::to_string(a.vcs));
  r.emplace_back("classes", a.classes.size() == 2                               ? "both"
                            : a.classes[0] == interlock::traffic_class::request ? "request"
                                                                                : "response");
  for (const std::string& f : a.scheme_flags) {
    const std::string key = f.substr(2);
    if (key == "orders") continue;
    if (key == "tables") {
      r.emplace_back(key, a.tables);
    } else if (key == "flow") {
      r.emplace_back(key, a.flow);
    } else if (key == "minus-dateline") {
      r.emplace_back(key, std::to_string(a.minus_dateline));
    } else {
      r.emplace_back(key, "true");  // a switch
    }
  }
  r.emplace_back("max-memory", std::to_string(a.max_memory_mib));
  r.emplace_back("max-routes", std::to_string(a.max_routes));
  return r;
}

inline arguments parse(int argc, char** argv) {
  arguments a;
  cli::network net;
  cli::flags flags(argc, argv, is_switch);
  flags.resolves_config();
  flags.for_each([&](const std::string& flag, const auto& value) {
    static const char* const scheme_specific[] = {
        "--orders", "--no-datelines",          "--other-way", "--initial-hops", "--final-hop",
        "--tables", "--initial-onto-dateline", "--flow",      "--non-minimal",  "--minus-dateline"};
    for (const char* f : scheme_specific)
      if (flag == f) a.scheme_flags.push_back(flag);
    if (net.parse(flag, value, 65535)) {
    } else if (flag == "--scheme") {
      a.scheme = value();
    } else if (flag == "--node") {
      a.node = value();
      if (a.node != "router" && a.node != "anton2")
        throw bad_input{"--node: '" + a.node + "'; allowed: router, anton2"};
    } else if (flag == "--orders") {
      a.orders = value();
    } else if (flag == "--vcs") {
      a.vcs = static_cast<unsigned>(cli::number(flag, value(), 1, 4096));
    } else if (flag == "--classes") {
      const std::string c = value();
      if (c == "request") {
        a.classes = {interlock::traffic_class::request};
      } else if (c == "response") {
        a.classes = {interlock::traffic_class::response};
      } else if (c != "both") {
        throw bad_input{"--classes: '" + c + "'; allowed: request, response, both"};
      }
    } else if (flag == "--tables") {
      a.tables = value();
      if (a.tables != "toc" && a.tables != "optimized")
        throw bad_input{"--tables: '" + a.tables + "'; allowed: toc, optimized"};
    } else if (flag == "--flow") {
      a.flow = value();
      if (a.flow != "whole_packet" && a.flow != "wormhole")
        throw bad_input{"--flow: '" + a.flow + "'; allowed: whole_packet, wormhole"};
    } else if (flag == "--minus-dateline") {
      a.minus_dateline = cli::number(flag, value(), 0, 65534);
    } else if (flag == "--no-datelines") {
      a.no_datelines = true;
    } else if (flag == "--other-way") {
      a.other_way = true;
    } else if (flag == "--initial-hops") {
      a.initial_hops = true;
    } else if (flag == "--final-hop") {
      a.final_hop = true;
    } else if (flag == "--initial-onto-dateline") {
      a.initial_onto_dateline = a.initial_hops = true;
    } else if (flag == "--non-minimal") {
      a.non_minimal = true;
    } else if (flag == "--max-memory") {
      a.max_memory_mib = cli::number(flag, value(), 1, 1u << 24);
    } else if (flag == "--max-routes") {
      a.max_routes = cli::number(flag, value(), 1, 1000000000000000);
    } else {
      throw bad_input{flag + ": unknown option (see --help)"};
    }
  });
  net.finish();
  a.radix = net.radix;
  a.wrap = net.wrap;
  a.slices = net.slices;
  if (a.scheme.empty()) throw bad_input{"--scheme: missing (see --help for the list)"};
  // Each scheme-specific flag must belong to the chosen scheme.
  const std::vector<std::pair<std::string, std::vector<std::string>>> takes = {
      {"dor", {"--orders", "--no-datelines"}},
      {"t3e",
       {"--other-way", "--initial-hops", "--final-hop", "--tables", "--initial-onto-dateline"}},
      {"t3e_adaptive", {"--tables", "--flow"}},
      {"vc_promotion", {"--orders", "--non-minimal", "--minus-dateline"}},
      {"per_dimension", {"--orders", "--non-minimal", "--minus-dateline"}}};
  if (a.node == "anton2") {
    if (a.scheme != "vc_promotion")
      throw bad_input{
          "--node: anton2 routes with VC promotion across its mesh and the torus; "
          "--scheme vc_promotion, not " +
          a.scheme};
    for (const std::string& f : a.scheme_flags)
      if (f != "--orders") throw bad_input{f + ": does not apply to --node anton2"};
    // Anton 2's node lays its channels out for a 3-D torus of two slices.
    if (a.radix.size() != 3)
      throw bad_input{"--radix: " + std::to_string(a.radix.size()) +
                      " dimensions; --node anton2 takes a 3-D torus (K0,K1,K2)"};
    if (a.slices != 2)
      throw bad_input{"--slices: " + std::to_string(a.slices) +
                      "; --node anton2 has Anton 2's two slices (--slices 2)"};
  }
  for (const auto& [scheme, allowed] : takes) {
    if (scheme != a.scheme) continue;
    for (const std::string& f : a.scheme_flags) {
      bool ok = false;
      for (const std::string& g : allowed) ok = ok || g == f;
      if (!ok) throw bad_input{f + ": does not apply to --scheme " + a.scheme};
    }
  }
  flags.write_resolved(resolved(a));
  return a;
}

}  // namespace deadlock_check_tool

#endif  // INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP
