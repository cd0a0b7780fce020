// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_inverse.cpp: Anton 2's inverse-weighted arbiter in
// BookSim2 (see interlock_arb.hpp): weights from interlock's loads of BookSim2's k-ary n-cube,
// through its port numbering.
#include <cstdint>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include "globals.hpp"
#include "interlock_arb.hpp"
#include "interlock_arb_detail.hpp"

namespace interlock_booksim2 {

using detail::fail;
using detail::max_size;

// ---- inverse weights ---------------------------------------------------------------------------

InverseWeightedArbiter::InverseWeightedArbiter(Module* parent, const std::string& name, int size,
                                               std::shared_ptr<const policy::table_type> weights)
    : AdapterArbiter(parent, name, size), arb_(std::move(weights)) {}

void InverseWeightedArbiter::PrintState() const {
  std::cout << "interlock inverse-weighted arbiter: accumulators";
  for (int i = 0; i < _size; ++i) std::cout << ' ' << arb_.accumulator(static_cast<std::size_t>(i));
  std::cout << std::endl;
}

void InverseWeightedArbiter::AddRequest(int input, int id, int pri) {
  Arbiter::AddRequest(input, id, pri);
  requests_.set(static_cast<std::size_t>(input), pri);
}

int InverseWeightedArbiter::Arbitrate(int* id, int* pri) {
  using by_priority = interlock::integer_priority_arbiter<64, interlock::rr_order::ascending, int>;
  last_ = interlock::pattern_requests{by_priority::highest(requests_),
                                      interlock::span<const std::uint8_t>(labels_)};
  return Decided(arb_.arbitrate(last_), id, pri);
}

void InverseWeightedArbiter::UpdateState() {
  if (Winner()) arb_.commit(Winner(), last_);
}

void InverseWeightedArbiter::Clear() {
  requests_.requests = 0;
  Arbiter::Clear();
}

namespace {

struct network_loads {
  int k = 0, n = 0;
  bool mesh = false;
  std::string pattern;
  std::unique_ptr<interlock::torus_topology> topology;
  interlock::arbiter_loads loads;
  // The library's tables: one per distinct set of loads, equal weights of
  // 2^M - 1 (round robin) for an arbiter with no load at all.
  interlock::inverse_weight_tables<max_size, 1, 8> tables;
};

// interlock's loads of BookSim2's k-ary n-cube, computed once per network.
network_loads& loads_of(int k, int n, bool mesh, const std::string& pattern) {
  static network_loads cache;
  if (cache.loads.empty() || cache.k != k || cache.n != n || cache.mesh != mesh ||
      cache.pattern != pattern) {
    cache.tables = interlock::inverse_weight_tables<max_size, 1, 8>();
    cache.topology = std::make_unique<interlock::torus_topology>(
        std::vector<std::size_t>(static_cast<std::size_t>(n), static_cast<std::size_t>(k)),
        std::vector<bool>(static_cast<std::size_t>(n), !mesh));
    const interlock::dimension_order_routing dor(*cache.topology);
    const auto c = interlock::traffic_class::request;
    cache.loads =
        pattern == "tornado"
            ? interlock::router_arbiter_loads(dor, c, interlock::traffic::tornado{})
            : interlock::router_arbiter_loads(dor, c, interlock::traffic::uniform_random{});
    cache.k = k;
    cache.n = n;
    cache.mesh = mesh;
    cache.pattern = pattern;
  }
  return cache;
}

// The node of router_<x_{n-1}>_..._<x_0> in a full name, or -1.
long node_of(const std::string& full_name, int k, int n) {
  std::stringstream in(full_name);
  for (std::string part; std::getline(in, part, '/');) {
    if (part.compare(0, 7, "router_") != 0) continue;
    std::stringstream digits(part.substr(7));
    long node = 0;
    int count = 0;
    for (std::string d; std::getline(digits, d, '_'); ++count) {
      char* end = nullptr;
      const long x = std::strtol(d.c_str(), &end, 10);
      if (d.empty() || *end != '\0' || x < 0 || x >= k) return -1;
      node = node * k + x;
    }
    return count == n ? node : -1;
  }
  return -1;
}

std::shared_ptr<const InverseWeightedArbiter::policy::table_type> inverse_weights(
    const Module* parent, const std::string& type, const std::string& name, int size,
    const std::string& pattern, bool mesh) {
  const int k = gK, n = gN;
  const int ports = 2 * n + 1;
  const std::string full = parent->FullName() + "/" + name;
  if (parent->Name() == "vc_allocator") {
    fail(parent, "arbiter type " + type + " at " + full +
                     ": it fits the switch allocator only (sw_allocator = "
                     "separable_input_first(" +
                     type +
                     ")), whose arbiters weigh ports; the VC allocator's requesters are VCs");
  }
  if (size != ports) {
    fail(parent, "arbiter type " + type + " at " + full + ": " + std::to_string(size) +
                     " requesters, allowed " + std::to_string(ports) +
                     " (a k-ary n-cube router's 2n + 1 ports, without speed-up)");
  }
  // SeparableAllocator names its arbiters by writing the index over "arb_i" or "arb_o"
  // (0rb_i .. 9rb_i, 10b_i ..); "arb_i<index>" is read too.
  const std::size_t digits = name.find_first_not_of("0123456789");
  long port = -1;
  char kind = 0;
  if (name.size() == 5 && digits > 0 && digits != std::string::npos &&
      name.compare(digits, std::string::npos, std::string("arb_i").substr(digits)) == 0) {
    kind = 'i';
  } else if (name.size() == 5 && digits > 0 && digits != std::string::npos &&
             name.compare(digits, std::string::npos, std::string("arb_o").substr(digits)) == 0) {
    kind = 'o';
  }
  if (kind != 0) {
    port = std::strtol(name.substr(0, digits).c_str(), nullptr, 10);
  } else if (name.size() > 5 &&
             (name.compare(0, 5, "arb_i") == 0 || name.compare(0, 5, "arb_o") == 0) &&
             name.find_first_not_of("0123456789", 5) == std::string::npos) {
    kind = name[4];
    port = std::strtol(name.c_str() + 5, nullptr, 10);
  }
  const bool output = kind == 'o';
  const long node = node_of(full, k, n);
  if (kind == 0 || node < 0) {
    fail(parent,
         "arbiter type " + type + ": " + full +
             " is not a separable allocator's input or output arbiter in a router_<ordinates> "
             "of a " +
             std::to_string(k) + "-ary " + std::to_string(n) + "-cube");
  }
  if (port < 0 || port >= ports) {
    fail(parent, "arbiter type " + type + ": " + full + " is port " + std::to_string(port) +
                     ", allowed 0.." + std::to_string(ports - 1) +
                     " (a k-ary n-cube router's 2n + 1 ports, without speed-up)");
  }
  if (pattern == "tornado" && k % 2 != 0) {
    fail(parent,
         "arbiter type " + type + ": tornado with odd k = " + std::to_string(k) +
             " (BookSim2 shifts by (k + 1) / 2 - 1, interlock by k / 2 - 1; allowed: even k)");
  }
  network_loads& network = loads_of(k, n, mesh, pattern);
  const interlock::arbiter_loads& loads = network.loads;
  return network.tables.from_loads(static_cast<std::size_t>(size), [&](std::size_t i, std::size_t) {
    // An output arbiter's requester i is input i; an input arbiter's is output i.
    const long out = output ? port : static_cast<long>(i),
               in = output ? static_cast<long>(i) : port;
    // BookSim2 numbers an input by the link's port here: interlock's input is its peer.
    return loads[static_cast<std::size_t>(node * ports + out)]
                [network.topology->peer_port(static_cast<std::size_t>(in))][0];
  });
}

}  // namespace

// ---- construction ------------------------------------------------------------------------------

Arbiter* detail::new_inverse_weighted_arbiter(Module* parent, const std::string& name,
                                              const std::string& arb_type,
                                              const std::vector<std::string>& args, int size) {
  const std::string pattern = args.size() > 0 ? args[0] : "uniform";
  const std::string shape = args.size() > 1 ? args[1] : "torus";
  if (args.size() > 2 || (pattern != "uniform" && pattern != "tornado") ||
      (shape != "torus" && shape != "mesh")) {
    fail(parent, "arbiter type " + arb_type +
                     ": allowed interlock_inverse_weighted[(uniform|tornado[,torus|mesh])]");
  }
  return new InverseWeightedArbiter(
      parent, name, size, inverse_weights(parent, arb_type, name, size, pattern, shape == "mesh"));
}

}  // namespace interlock_booksim2
