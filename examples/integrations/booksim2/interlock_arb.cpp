// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_arb.cpp: interlock's arbiters as BookSim2 Arbiters (see
// the header): the type names, BookSim2's round robin, and the registration. The age and
// inverse-weighted arbiters are interlock_age.cpp's and interlock_inverse.cpp's.
#include "interlock_arb.hpp"

#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "interlock_arb_detail.hpp"

namespace interlock_booksim2 {

using detail::fail;
using detail::max_size;

namespace {

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

}  // namespace

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
    if (c.name == "interlock_age")
      return detail::new_age_arbiter(parent, name, arb_type, c.args, size);
    if (c.name == "interlock_inverse_weighted")
      return detail::new_inverse_weighted_arbiter(parent, name, arb_type, c.args, size);
  } catch (const std::exception& e) {
    fail(parent, "arbiter type " + arb_type + ": " + e.what());
  }
  fail(parent, "arbiter type " + arb_type +
                   ": allowed interlock_round_robin, interlock_age, interlock_inverse_weighted");
}

}  // namespace interlock_booksim2
