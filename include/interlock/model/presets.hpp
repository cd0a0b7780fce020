// SPDX-License-Identifier: BSL-1.0
// interlock/model/presets.hpp: the router shapes of the papers, as model configurations.
//
// Contract
//   A preset names a network and router shape of a paper's machine: the
//   torus, the routing scheme and output arbiter (by the names netsim uses
//   for them), and the model configuration. Drivers start from a preset and
//   override what they are given.
//   seastar  Cray XT SeaStar (Abts & Weisser SC'07; the XT parking lot
//            paper): a 3-D torus, 7 ports, dimension order with datelines,
//            4 VCs (request/response x dateline), 96-flit input buffers,
//            9-flit packets (the maximum-size packets Section 3.2 assumes),
//            half of them responses, the age-epoch arbiter with every grant
//            by age and the age parameters of recommended_age(); the
//            processor port at 2.1 / 4.8 of a link's bandwidth (Section 3.1:
//            "channel bandwidth B = 4.8 GB/s and ejection bandwidth
//            Ep ~ 2 GB/s"; Section 4 measures 0.44 x 4.8 = 2.1 GB/s).
//            Input- and output-queued ([Abts10]): a 16-flit output staging
//            buffer per (input port, VC) at every output (Section 3.2's
//            example counts one 9-flit packet in it), the output's age
//            arbiter choosing among all 28 staging heads.
//   anton2   Anton 2 (ISCA'14): a 3-D torus with two slices, each node the
//            unified network's 4x4 mesh of routers with skip channels and
//            channel adapters (node "anton2", model/anton2_node.hpp; "router"
//            is one 13-port router per node), VC promotion over a random
//            dimension order per packet (n + 1 VCs per class), request and
//            response classes, the inverse-weighted arbiter with weights from
//            the traffic's loads.
//
// Example
//   interlock::model::preset p = interlock::model::seastar_preset();
//   p.model.load = 0.3;
#ifndef INTERLOCK_MODEL_PRESETS_HPP
#define INTERLOCK_MODEL_PRESETS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "interlock/model/config.hpp"

namespace interlock {
namespace model {

struct preset {
  std::string name;
  std::vector<std::size_t> radix;
  std::size_t slices = 1;
  std::string scheme;           // dor, t3e, t3e_adaptive, vc_promotion, per_dimension
  std::string orders;           // dimension orders (xyz,zyx,... or all)
  std::string arbiter;          // round_robin, age, inverse_weighted
  std::string node = "router";  // router: one per node; anton2: the on-chip mesh of routers
  config model;
};

inline preset seastar_preset() {
  preset p;
  p.name = "seastar";
  p.radix = {8, 8, 8};
  p.scheme = "dor";
  p.arbiter = "age";
  p.model.buffer_flits = 96;
  p.model.lengths = {{9, 1.0}};
  p.model.response_share = 0.5;
  p.model.endpoint_bandwidth = 2.1 / 4.8;
  p.model.staging_flits = 16;
  return p;
}

inline preset anton2_preset() {
  preset p;
  p.name = "anton2";
  p.node = "anton2";
  p.radix = {8, 8, 8};
  p.slices = 2;
  p.scheme = "vc_promotion";
  p.orders = "all";
  p.arbiter = "inverse_weighted";
  p.model.buffer_flits = 8;      // the text gives no depth
  p.model.lengths = {{1, 1.0}};  // Section 2.2: the common 24-byte packet is one flit
  p.model.response_share = 0.5;
  return p;
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_PRESETS_HPP
