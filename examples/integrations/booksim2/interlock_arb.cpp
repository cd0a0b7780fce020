// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_arb.cpp: interlock's arbiters as BookSim2 Arbiters (see
// the header).
#include "interlock_arb.hpp"

#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include "flit.hpp"
#include "globals.hpp"

namespace interlock_booksim2 {

namespace {

constexpr int max_size = 64;

// Module::Error prints the module's name and the message and exits.
[[noreturn]] void fail(const Module* m, const std::string& message) {
  m->Error(message);
  std::exit(-1);
}

struct type_call {
  std::string name;
  std::vector<std::string> args;
};

// "name" or "name(a,b,c)".
type_call parse_type(const Module* parent, const std::string& type) {
  type_call c;
  const std::size_t left = type.find('(');
  if (left == std::string::npos) {
    c.name = type;
    return c;
  }
  const std::size_t right = type.rfind(')');
  if (right == std::string::npos || right < left || right + 1 != type.size())
    fail(parent, "arbiter type " + type + ": the parameters must end with ')'");
  c.name = type.substr(0, left);
  std::stringstream in(type.substr(left + 1, right - left - 1));
  for (std::string arg; std::getline(in, arg, ',');) c.args.push_back(arg);
  return c;
}

unsigned long parse_number(const Module* parent, const std::string& type, const char* what,
                           const std::string& text, unsigned long lowest, unsigned long highest) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || text[0] == '-' || v < lowest || v > highest) {
    fail(parent, "arbiter type " + type + ": " + what + " is " + text + ", allowed " +
                     std::to_string(lowest) + ".." + std::to_string(highest));
  }
  return v;
}

// ---- the age clocks of the routers -------------------------------------------------------------

bool& age_in_use() {
  static bool in_use = false;
  return in_use;
}
AgeParameters& age_parameters() {
  static AgeParameters p;
  return p;
}

}  // namespace

struct RouterAge {
  std::string name;  // the router's FullName()
  interlock::age_clock clock;
  std::vector<std::vector<std::uint16_t>> stored;  // [input][vc]: the field Procedure 1 stored
  std::uint64_t arrivals = 0;
  RouterAge(std::string n, std::uint32_t period) : name(std::move(n)), clock(period) {}
};

namespace {

std::unordered_map<const Module*, std::unique_ptr<RouterAge>>& router_ages() {
  static std::unordered_map<const Module*, std::unique_ptr<RouterAge>> routers;
  return routers;
}

RouterAge& router_age(const Module* router) {
  auto& routers = router_ages();
  auto it = routers.find(router);
  if (it == routers.end()) {
    it = routers
             .emplace(router,
                      std::make_unique<RouterAge>(router->FullName(), age_parameters().period))
             .first;
  }
  return *it->second;
}

}  // namespace

void AgeTick(const Module* router) {
  if (age_in_use()) router_age(router).clock.tick();
}

void AgeArrive(const Module* router, int input, Flit* f) {
  if (!age_in_use()) return;
  RouterAge& r = router_age(router);
  if (input < 0 || f->vc < 0) fail(router, "AgeArrive: a flit without an input port or VC");
  const std::size_t in = static_cast<std::size_t>(input), vc = static_cast<std::size_t>(f->vc);
  if (r.stored.size() <= in) r.stored.resize(in + 1);
  std::vector<std::uint16_t>& vcs = r.stored[in];
  if (vcs.size() <= vc) vcs.resize(vc + 1, 0);
  if (f->head) {
    if (r.clock.packet_count(r.clock.epoch()) == interlock::age_clock::max_packet_count) {
      fail(router,
           "2047 packets are in this router's epoch (the SeaStar's 11-bit packet_count): "
           "is interlock_booksim2::AgeDepart called as flits leave?");
    }
    // A packet that has made no hop enters the network here, at age 0.
    const interlock::age_field header = f->hops == 0
                                            ? interlock::age_field::with_age(0)
                                            : interlock::age_field::from_bits(f->pri & 0x7FF);
    const unsigned bias = age_parameters().bias;
    vcs[vc] = interlock::receive_packet(header, 0, interlock::age_bias{bias, bias}, r.clock).bits();
    ++r.arrivals;
  }
  f->pri = vcs[vc];
}

void AgeDepart(const Module* router, Flit* f) {
  if (!age_in_use() || !f->head) return;
  RouterAge& r = router_age(router);
  f->pri = interlock::send_packet(interlock::age_field::from_bits(f->pri & 0x7FF), r.clock).bits();
}

// ---- round robin -------------------------------------------------------------------------------

template <interlock::rr_order Order>
RoundRobinArbiter<Order>::RoundRobinArbiter(Module* parent, const std::string& name, int size)
    : AdapterArbiter(parent, name, size) {}

template <interlock::rr_order Order>
void RoundRobinArbiter<Order>::PrintState() const {
  std::cout << "interlock round robin ("
            << (Order == interlock::rr_order::ascending ? "ascending" : "descending")
            << "), last grant " << _selected << std::endl;
}

template <interlock::rr_order Order>
void RoundRobinArbiter<Order>::AddRequest(int input, int id, int pri) {
  Arbiter::AddRequest(input, id, pri);
  requests_.set(static_cast<std::size_t>(input), pri);
}

template <interlock::rr_order Order>
int RoundRobinArbiter<Order>::Arbitrate(int* id, int* pri) {
  return Decided(arb_.arbitrate(requests_), id, pri);
}

template <interlock::rr_order Order>
void RoundRobinArbiter<Order>::UpdateState() {
  if (Winner()) arb_.commit(Winner(), requests_);
}

template <interlock::rr_order Order>
void RoundRobinArbiter<Order>::Clear() {
  requests_.requests = 0;
  Arbiter::Clear();
}

template class RoundRobinArbiter<interlock::rr_order::ascending>;
template class RoundRobinArbiter<interlock::rr_order::descending>;

// ---- age ---------------------------------------------------------------------------------------

AgeArbiter::AgeArbiter(Module* parent, const std::string& name, int size, std::uint64_t select)
    : AdapterArbiter(parent, name, size), arb_(select) {}

void AgeArbiter::PrintState() const {
  std::cout << "interlock age-epoch arbiter: AGE_RR_SELECT 0x" << std::hex << arb_.age_rr_select()
            << std::dec << ", grant counter " << arb_.grant_counter() << std::endl;
}

void AgeArbiter::AddRequest(int input, int id, int pri) {
  Arbiter::AddRequest(input, id, pri);
  const std::uint64_t bit = std::uint64_t{1} << input;
  requests_ |= bit;
  if (pri >= 0) firm_ |= bit;  // BookSim2 adds INT_MIN to a speculative request's pri
  heads_.set(static_cast<std::size_t>(input), interlock::age_field::from_bits(pri & 0x7FF));
}

int AgeArbiter::Arbitrate(int* id, int* pri) {
  if (router_ == nullptr) {
    // The longest registered router name that this arbiter's name extends.
    const std::string& mine = FullName();
    for (const auto& entry : router_ages()) {
      const std::string& r = entry.second->name;
      if (mine.size() > r.size() && mine.compare(0, r.size(), r) == 0 && mine[r.size()] == '/' &&
          (router_ == nullptr || r.size() > router_->name.size())) {
        router_ = entry.second.get();
      }
    }
    if (router_ == nullptr) {
      fail(this,
           "interlock_age: the router above this arbiter keeps no age clock; call "
           "interlock_booksim2::AgeTick, AgeArrive and AgeDepart from it "
           "(docs/integrations.md)");
    }
  }
  if (requests_ != 0 && router_->arrivals == 0) {
    fail(this,
         "interlock_age: requests, but no packet has arrived through "
         "interlock_booksim2::AgeArrive: call it before a flit is buffered");
  }
  last_ = heads_.requests(firm_ != 0 ? firm_ : requests_, router_->clock);
  return Decided(arb_.arbitrate(last_), id, pri);
}

void AgeArbiter::UpdateState() {
  if (Winner()) arb_.commit(Winner(), last_);
}

void AgeArbiter::Clear() {
  requests_ = firm_ = 0;
  Arbiter::Clear();
}

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
};

// interlock's loads of BookSim2's k-ary n-cube, computed once per network.
const network_loads& loads_of(int k, int n, bool mesh, const std::string& pattern) {
  static network_loads cache;
  if (cache.loads.empty() || cache.k != k || cache.n != n || cache.mesh != mesh ||
      cache.pattern != pattern) {
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
  const network_loads& network = loads_of(k, n, mesh, pattern);
  const interlock::arbiter_loads& loads = network.loads;
  const std::size_t requesters = static_cast<std::size_t>(size);
  interlock::load_matrix rows(requesters, std::vector<double>(1, 0.0));
  std::uint64_t idle = 0;
  for (std::size_t i = 0; i < requesters; ++i) {
    // An output arbiter's requester i is input i; an input arbiter's is output i.
    const long out = output ? port : static_cast<long>(i),
               in = output ? static_cast<long>(i) : port;
    // BookSim2 numbers an input by the link's port here: interlock's input is its peer.
    rows[i][0] = loads[static_cast<std::size_t>(node * ports + out)]
                      [network.topology->peer_port(static_cast<std::size_t>(in))][0];
    if (rows[i][0] == 0) idle |= std::uint64_t{1} << i;
  }
  std::vector<std::vector<std::uint32_t>> weights(max_size, std::vector<std::uint32_t>(1, 255));
  if (idle != interlock::bits::low_mask(requesters)) {
    const interlock::quantized_weights q = interlock::weights_from_loads(rows, 8, idle);
    for (std::size_t i = 0; i < requesters; ++i) weights[i] = q.weights[i];
  } else {
    for (std::size_t i = 0; i < requesters; ++i) weights[i][0] = 1;  // nothing arrives: round robin
  }
  return std::make_shared<const InverseWeightedArbiter::policy::table_type>(weights);
}

}  // namespace

// ---- registration ------------------------------------------------------------------------------

Arbiter* NewArbiter(Module* parent, const std::string& name, const std::string& arb_type,
                    int size) {
  if (arb_type.compare(0, 10, "interlock_") != 0) return nullptr;
  const type_call c = parse_type(parent, arb_type);
  if (size < 1 || size > max_size) {
    fail(parent, "arbiter type " + arb_type + " for " + name + ": " + std::to_string(size) +
                     " requesters, allowed 1.." + std::to_string(max_size));
  }
  try {
    if (c.name == "interlock_round_robin") {
      if (c.args.empty() || (c.args.size() == 1 && c.args[0] == "ascending"))
        return new RoundRobinArbiter<interlock::rr_order::ascending>(parent, name, size);
      if (c.args.size() == 1 && c.args[0] == "descending")
        return new RoundRobinArbiter<interlock::rr_order::descending>(parent, name, size);
      fail(parent, "arbiter type " + arb_type + ": the order is " +
                       (c.args.empty() ? std::string() : c.args[0]) +
                       ", allowed ascending or descending");
    }
    if (c.name == "interlock_age") {
      if (c.args.size() > 3)
        fail(parent, "arbiter type " + arb_type + ": at most 3 parameters (PERIOD,BIAS,SELECT)");
      AgeParameters p;
      if (c.args.size() > 0)
        p.period = static_cast<std::uint32_t>(
            parse_number(parent, arb_type, "AGE_CLK_PERIOD", c.args[0], 1, 0xFFFFFFFFul));
      if (c.args.size() > 1)
        p.bias = static_cast<unsigned>(parse_number(parent, arb_type, "bias", c.args[1], 0, 7));
      if (c.args.size() > 2) {
        try {
          p.select = interlock::parse_age_rr_select(c.args[2]);
        } catch (const interlock::config_error& e) {
          fail(parent, "arbiter type " + arb_type + ": " + e.what());
        }
      }
      AgeParameters& shared = age_parameters();
      if (age_in_use() && (shared.period != p.period || shared.bias != p.bias)) {
        fail(parent, "arbiter type " + arb_type + ": AGE_CLK_PERIOD " + std::to_string(p.period) +
                         " and bias " + std::to_string(p.bias) +
                         " differ from another interlock_age arbiter's " +
                         std::to_string(shared.period) + " and " + std::to_string(shared.bias) +
                         "; allowed: one setting for every router");
      }
      shared.period = p.period;
      shared.bias = p.bias;
      age_in_use() = true;
      return new AgeArbiter(parent, name, size, p.select);
    }
    if (c.name == "interlock_inverse_weighted") {
      const std::string pattern = c.args.size() > 0 ? c.args[0] : "uniform";
      const std::string shape = c.args.size() > 1 ? c.args[1] : "torus";
      if (c.args.size() > 2 || (pattern != "uniform" && pattern != "tornado") ||
          (shape != "torus" && shape != "mesh")) {
        fail(parent, "arbiter type " + arb_type +
                         ": allowed interlock_inverse_weighted[(uniform|tornado[,torus|mesh])]");
      }
      return new InverseWeightedArbiter(
          parent, name, size,
          inverse_weights(parent, arb_type, name, size, pattern, shape == "mesh"));
    }
  } catch (const std::exception& e) {
    fail(parent, "arbiter type " + arb_type + ": " + e.what());
  }
  fail(parent, "arbiter type " + arb_type +
                   ": allowed interlock_round_robin, interlock_age, interlock_inverse_weighted");
}

}  // namespace interlock_booksim2
