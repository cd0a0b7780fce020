// SPDX-License-Identifier: BSL-1.0
// netsim's runs on Anton 2's unified network, --node anton2 (netsim_run.hpp).
#include "netsim_run.hpp"

namespace netsim_tool {

int run_scheme(const arguments& a, const interlock::anton2_routing& scheme) {
  return with_arbiter(a, scheme);
}

}  // namespace netsim_tool
