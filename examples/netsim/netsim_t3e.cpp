// SPDX-License-Identifier: BSL-1.0
// netsim's runs under direction_order_routing (netsim_run.hpp).
#include "netsim_run.hpp"

namespace netsim_tool {

int run_scheme(const arguments& a, const interlock::direction_order_routing& scheme) {
  return with_arbiter(a, scheme);
}

}  // namespace netsim_tool
