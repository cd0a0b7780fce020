// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_age.cpp: the SeaStar's age-epoch arbiter in BookSim2
// (see interlock_arb.hpp): the configuration it needs, the routers' age clocks and hooks, and the
// arbiter.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "config_utils.hpp"
#include "flit.hpp"
#include "interlock_arb.hpp"
#include "interlock_arb_detail.hpp"

namespace interlock_booksim2 {

using detail::fail;

namespace {

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

// ---- what interlock_age needs of the configuration ---------------------------------------------

// BookSim2's allocator type "name(param)": param runs to the last ')', as
// Allocator::NewAllocator reads it.
std::pair<std::string, std::string> allocator_call(const std::string& type) {
  const std::size_t left = type.find('(');
  if (left == std::string::npos) return {type, ""};
  const std::size_t right = type.rfind(')');
  return {type.substr(0, left),
          type.substr(left + 1, right == std::string::npos || right < left ? std::string::npos
                                                                           : right - left - 1)};
}

// The age field rides in the flits' pri: refuses, naming the key, every
// setting under which the arbiters would not see it or another arbiter
// would read it as an integer priority.
void check_age_configuration(const Module* parent, const std::string& arb_type) {
  const Configuration* config = Configuration::GetTheConfig();
  const std::string at = "arbiter type " + arb_type + ": ";
  if (config == nullptr) fail(parent, at + "BookSim2's configuration is not loaded");
  const std::string priority = config->GetStr("priority");
  if (priority == "none" || priority == "local_age" || priority == "queue_length" ||
      priority == "hop_count") {
    fail(parent, at + "priority = " + priority +
                     (priority == "none" ? " keeps every VC's pri at 0"
                                         : " rewrites the pri of the flits or VCs") +
                     ", where the age field rides; allowed: priority = class (or age, "
                     "network_age, sequence: a setting that passes the flits' pri through)");
  }
  if (const int donation = config->GetInt("vc_priority_donation")) {
    fail(parent, at + "vc_priority_donation = " + std::to_string(donation) +
                     " gives a VC the highest pri in its buffer, not its head packet's age "
                     "field; allowed: 0");
  }
  std::vector<std::string> keys{"vc_allocator", "sw_allocator"};
  if (config->GetInt("speculative") != 0 && config->GetStr("spec_sw_allocator") != "prio")
    keys.emplace_back("spec_sw_allocator");
  for (const std::string& key : keys) {
    const std::string type = config->GetStr(key);
    const auto call = allocator_call(type);
    std::string reader;
    if (call.first == "separable_input_first" || call.first == "separable_output_first") {
      // IQRouter builds its allocators without the configuration, so one
      // without a parameter takes round_robin whatever arb_type says.
      const std::string arbiter = call.second.empty() ? "round_robin" : call.second;
      if (allocator_call(arbiter).first == "interlock_age") continue;
      reader =
          "its " + arbiter + " arbiters" +
          (call.second.empty() ? ": an allocator without a parameter does not read arb_type" : "");
    } else if (call.first == "wavefront" || call.first == "rr_wavefront" ||
               call.first == "select") {
      reader = "its own priority order";
    } else {
      continue;  // islip, pim, loa, max_size and piggyback ignore pri
    }
    fail(parent, at + key + " = " + type + " would read the age field as an integer priority (" +
                     reader +
                     "); allowed: interlock_age in every allocator that reads pri "
                     "(separable_input_first(interlock_age) or separable_output_first), or an "
                     "allocator that ignores pri (islip, pim, loa, max_size)");
  }
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

// ---- construction ------------------------------------------------------------------------------

Arbiter* detail::new_age_arbiter(Module* parent, const std::string& name,
                                 const std::string& arb_type, const std::vector<std::string>& args,
                                 int size) {
  if (args.size() > 3)
    fail(parent, "arbiter type " + arb_type + ": at most 3 parameters (PERIOD,BIAS,SELECT)");
  AgeParameters p;
  if (args.size() > 0)
    p.period = static_cast<std::uint32_t>(
        parse_number(parent, arb_type, "AGE_CLK_PERIOD", args[0], 1, 0xFFFFFFFFul));
  if (args.size() > 1)
    p.bias = static_cast<unsigned>(parse_number(parent, arb_type, "bias", args[1], 0, 7));
  if (args.size() > 2) {
    try {
      p.select = interlock::parse_age_rr_select(args[2]);
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
  check_age_configuration(parent, arb_type);
  shared.period = p.period;
  shared.bias = p.bias;
  age_in_use() = true;
  return new AgeArbiter(parent, name, size, p.select);
}

}  // namespace interlock_booksim2
