// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_age_params.h: a router's age clock from interlock.torus's
// age parameters (age_period, age_bias, age_rr_select, age_buffers).
//
//   age_period     AGE_CLK_PERIOD, 1..2^32 - 1, or auto: [Abts07] Section
//                  3.2's period and per-dimension biases
//                  (age_tuning::recommend_age_clock) for the network and the
//                  router's buffers, age_buffers=INPUT,STAGING,PACKET in flits
//   age_bias       one value 0..7 or one per port (default 1, or with auto
//                  the methodology's bias of each port's dimension; the
//                  endpoint's port 1, as the reference model's
//                  biases_by_dimension)
//   age_rr_select  age, rr, half or a hex mask 0x...
//
// Contract: router_age_from throws bad_parameter (the parameter, its value
// and what is allowed) for a bad value; the caller stops the simulation with
// it. `recommendation`, when given, receives auto's recommendation.
#ifndef INTERLOCK_SST_INTERLOCK_AGE_PARAMS_H
#define INTERLOCK_SST_INTERLOCK_AGE_PARAMS_H

#include <sst/core/params.h>

#include "interlock_patterns.h"
#include "interlock_sst.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/topology/torus.hpp>

namespace interlock_sst {

namespace detail {

/// [Abts07] Section 3.2's AGE_CLK_PERIOD for the network, from the router's
/// buffers as "INPUT,STAGING,PACKET" flits (per-VC input buffer, output
/// staging buffer, largest packet) and the scheme's VCs per link.
inline interlock::age_tuning::age_clock_recommendation recommended_age(
    const std::string& buffers, const interlock::torus_topology& t, unsigned vcs_per_link) {
  const char* allowed = "INPUT,STAGING,PACKET in flits, as 128,128,8 (needed by age_period=auto)";
  std::vector<unsigned> flits;
  for (const std::string& f : split_list(buffers, ',')) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(f.c_str(), &end, 10);
    if (f.empty() || *end != '\0' || v > 0xFFFFFFu)
      throw bad_parameter{"age_buffers", buffers, allowed};
    flits.push_back(static_cast<unsigned>(v));
  }
  if (flits.size() != 3) throw bad_parameter{"age_buffers", buffers, allowed};
  interlock::age_tuning::age_clock_inputs in;
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    in.dimensions.push_back({t.radix(d), t.wraps(d) ? interlock::age_tuning::wrap::torus
                                                    : interlock::age_tuning::wrap::mesh});
  in.input_buffer_flits = flits[0];
  in.staging_buffer_flits = flits[1];
  in.max_packet_flits = flits[2];
  in.vcs_per_link = vcs_per_link;
  try {
    return interlock::age_tuning::recommend_age_clock(in);
  } catch (const interlock::config_error& e) {
    throw bad_parameter{"age_buffers", buffers,
                        std::string("buffers Section 3.2 accepts: ") + e.what()};
  }
}

}  // namespace detail

/// The router's age clock, its input ports' biases and AGE_RR_SELECT.
inline std::shared_ptr<router_age> router_age_from(
    SST::Params& params, const interlock::torus_topology& t, unsigned vcs_per_link,
    interlock::age_tuning::age_clock_recommendation* recommendation = nullptr) {
  const std::string period_text = params.find<std::string>("age_period", "");
  std::uint64_t period = 0;
  std::vector<unsigned> dimension_bias;  // age_period=auto: Section 3.2's biases
  if (period_text == "auto") {
    const auto r =
        detail::recommended_age(params.find<std::string>("age_buffers", ""), t, vcs_per_link);
    period = r.age_clk_period;
    dimension_bias.assign(r.biases.begin(), r.biases.end());
    if (recommendation) *recommendation = r;
  } else {
    char* end = nullptr;
    period = std::strtoull(period_text.c_str(), &end, 10);
    if (period_text.empty() || *end != '\0' || period < 1 || period > 0xFFFFFFFFull)
      throw bad_parameter{"age_period", period_text, "1..4294967295 or auto"};
  }
  auto age = std::make_shared<router_age>(static_cast<std::uint32_t>(period));
  const std::string bias = params.find<std::string>("age_bias", "");
  if (bias.empty() && !dimension_bias.empty()) {
    for (std::size_t p = 0; p < t.ports(); ++p) {
      const unsigned b = p == t.local_port() ? 1u : dimension_bias[t.port_info(p).dimension];
      age->bias.push_back(interlock::age_bias{b, b});
    }
  } else {
    for (const std::string& b : split_list(bias.empty() ? "1" : bias, ',')) {
      char* end = nullptr;
      const unsigned long v = std::strtoul(b.c_str(), &end, 10);
      if (b.empty() || *end != '\0' || v > 7)
        throw bad_parameter{"age_bias", bias, "0..7, or one per port"};
      age->bias.push_back(interlock::age_bias{static_cast<unsigned>(v), static_cast<unsigned>(v)});
    }
  }
  if (age->bias.size() != 1 && age->bias.size() != t.ports())
    throw bad_parameter{"age_bias", bias,
                        "one value or " + std::to_string(t.ports()) + " (one per port)"};
  const std::string select = params.find<std::string>("age_rr_select", "age");
  try {
    age->select = interlock::parse_age_rr_select(select);
  } catch (const interlock::config_error& e) {
    throw bad_parameter{"age_rr_select", select, e.allowed()};
  }
  return age;
}

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_AGE_PARAMS_H
