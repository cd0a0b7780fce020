// SPDX-License-Identifier: BSL-1.0
// Helpers for the deadlock checker's tests: the request class alone,
// witness validation and the topologies the exhaustive checks sweep.
#ifndef INTERLOCK_TESTS_SUPPORT_DEADLOCK_CHECKS_HPP
#define INTERLOCK_TESTS_SUPPORT_DEADLOCK_CHECKS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <interlock/topology/torus.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

namespace interlock_test {

/// The checker's options for the request class alone, at most vc_limit VCs
/// a class (0: as many as the scheme has).
inline interlock::verify::cdg_options request_only(unsigned vc_limit = 0) {
  interlock::verify::cdg_options o;
  o.classes = {interlock::traffic_class::request};
  o.vc_limit = vc_limit;
  return o;
}

/// Checks a witness cycle edge by edge, independently of how the checker
/// found it: consecutive dependencies share a resource and the last leads
/// back to the first; every dependency joins a channel to one out of the
/// node it leads to; and replaying the route named for it takes `from` and
/// then `to`, one right after the other. Returns what is wrong, or "".
template <class Scheme>
std::string witness_problem(const Scheme& scheme, const interlock::verify::cdg_report& report,
                            unsigned vc_limit = 0) {
  using namespace interlock::verify;
  const interlock::torus_topology& t = scheme.topology();
  const auto& cycle = report.cycle;
  if (cycle.empty()) return "no witness";
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const cdg_dependency& d = cycle[i];
    const std::string where = "dependency " + std::to_string(i) + " (" + describe(t, d.from) +
                              " -> " + describe(t, d.to) + ")";
    if (!(d.to == cycle[(i + 1) % cycle.size()].from)) return where + " does not chain";
    const interlock::channel_ref a = t.channel_info(d.from.channel);
    const interlock::channel_ref b = t.channel_info(d.to.channel);
    if (t.neighbor(a.node, a.dimension, a.sign) != b.node) return where + " joins far channels";
    if (d.indirect) return where + " is indirect";
    const std::vector<cdg_resource> route = route_resources(scheme, d.route, vc_limit);
    bool taken = false;
    for (std::size_t h = 0; h + 1 < route.size(); ++h)
      taken = taken || (route[h] == d.from && route[h + 1] == d.to);
    if (!taken) return where + " is not taken by " + describe(t, d.route);
  }
  return {};
}

/// Every torus and mesh of n dimensions whose radices all come from `radices`
/// (each dimension any of them, independently), each dimension either kind.
inline std::vector<interlock::torus_topology> all_topologies(
    std::size_t n, const std::vector<std::size_t>& radices, std::size_t slices = 1) {
  std::vector<interlock::torus_topology> out;
  std::size_t radix_choices = 1;
  for (std::size_t d = 0; d < n; ++d) radix_choices *= radices.size();
  for (std::size_t r = 0; r < radix_choices; ++r) {
    for (std::size_t w = 0; w < (std::size_t{1} << n); ++w) {
      std::vector<std::size_t> radix;
      std::vector<bool> wrap;
      for (std::size_t d = 0, rest = r; d < n; ++d, rest /= radices.size()) {
        radix.push_back(radices[rest % radices.size()]);
        wrap.push_back((w >> d & 1u) != 0);
      }
      out.emplace_back(radix, wrap, slices);
    }
  }
  return out;
}

/// "4x5x2 (torus, mesh, torus)".
inline std::string name(const interlock::torus_topology& t) {
  std::string text, kinds;
  for (std::size_t d = 0; d < t.dimensions(); ++d) {
    text += (d != 0 ? "x" : "") + std::to_string(t.radix(d));
    kinds += std::string(d != 0 ? ", " : "") + (t.wraps(d) ? "torus" : "mesh");
  }
  return text + " (" + kinds + "), " + std::to_string(t.slices()) + " slice(s)";
}

}  // namespace interlock_test

#endif  // INTERLOCK_TESTS_SUPPORT_DEADLOCK_CHECKS_HPP
