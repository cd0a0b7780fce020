// examples/model/presets.hpp: router shapes of the papers, and the age parameters
// of Section 3.2 for a network.
//
//   seastar  Cray XT SeaStar (paper 000, paper 002): a 3-D torus, 7 ports,
//            dimension order with datelines, 4 VCs (request/response x
//            dateline), 96-flit input buffers, 9-flit packets (the
//            maximum-size packets Section 3.2 assumes), half of them
//            responses, the age-epoch arbiter with every grant by age and
//            the age parameters of recommended_age().
//            Not modelled: the SeaStar's 16-flit output staging buffer per
//            input; its output arbitration among staging-buffer heads is
//            here arbitration among the input ports' chosen heads.
//   anton2   Anton 2 (paper 001): a 3-D torus with two slices (13 ports),
//            VC promotion over a random dimension order per packet (n + 1
//            VCs per class), request and response classes, the
//            inverse-weighted arbiter with weights from the traffic's loads.
#ifndef INTERLOCK_EXAMPLES_MODEL_PRESETS_HPP
#define INTERLOCK_EXAMPLES_MODEL_PRESETS_HPP

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/topology/torus.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "config.hpp"
#include "network.hpp"

namespace netmodel {

struct preset {
  std::string name;
  std::vector<std::size_t> radix;
  std::size_t slices = 1;
  std::string scheme;   // netsim's --scheme
  std::string orders;   // netsim's --orders
  std::string arbiter;  // netsim's --arbiter
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
  return p;
}

inline preset anton2_preset() {
  preset p;
  p.name = "anton2";
  p.radix = {8, 8, 8};
  p.slices = 2;
  p.scheme = "vc_promotion";
  p.orders = "all";
  p.arbiter = "inverse_weighted";
  p.model.buffer_flits = 32;
  p.model.lengths = {{2, 1.0}};
  p.model.response_share = 0.5;
  return p;
}

/// The age parameters of paper 000 Section 3.2 for a network and run: the
/// biases n, n-1, ..., 1 by dimension (dimension order) and AGE_CLK_PERIOD
/// from the queueing one hop can hold (input buffer / longest packet, no
/// staging buffer in this model; VCs of a class sharing a link).
/// `advised` is false when the inputs are outside the methodology's range;
/// the hardware defaults (period 18, bias 1) are returned then.
struct age_advice {
  age_config age;
  bool advised = false;
  std::vector<unsigned> dimension_bias;  // per dimension (empty: every port bias 1)
};

inline age_advice recommended_age(const interlock::torus_topology& t, const config& c,
                                  unsigned vcs_per_link) {
  namespace tuning = interlock::age_tuning;
  tuning::age_clock_inputs in;
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    in.dimensions.push_back({t.radix(d), t.wraps(d) ? tuning::wrap::torus : tuning::wrap::mesh});
  in.input_buffer_flits = c.buffer_flits;
  in.staging_buffer_flits = 0;
  in.max_packet_flits = c.max_flits();
  in.vcs_per_link = std::max(1u, vcs_per_link);
  age_advice a;
  try {
    const tuning::age_clock_recommendation r = tuning::recommend_age_clock(in);
    a.advised = true;
    a.age.period = r.age_clk_period;
    a.dimension_bias.assign(r.biases.begin(), r.biases.end());
  } catch (const interlock::config_error&) {
    a.advised = false;
  }
  return a;
}

/// Per-port biases from one value per dimension (and, optionally, a last one
/// for the local port; 1 otherwise).
inline std::vector<interlock::age_bias> biases_by_dimension(const interlock::torus_topology& t,
                                                            const std::vector<unsigned>& bias) {
  std::vector<interlock::age_bias> ports(t.ports(), interlock::age_bias{1, 1});
  for (std::size_t p = 0; p < t.ports(); ++p) {
    const std::size_t i = p == t.local_port() ? t.dimensions() : t.port_info(p).dimension;
    if (i < bias.size()) ports[p] = interlock::age_bias{bias[i], bias[i]};
  }
  return ports;
}

}  // namespace netmodel

#endif  // INTERLOCK_EXAMPLES_MODEL_PRESETS_HPP
