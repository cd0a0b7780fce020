// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_arb_detail.hpp: what the adapter's three sources share
// (interlock_arb.cpp registers the types, interlock_age.cpp and interlock_inverse.cpp build the
// age and inverse-weighted arbiters); not for BookSim2's own code.
#ifndef INTERLOCK_BOOKSIM2_INTERLOCK_ARB_DETAIL_HPP
#define INTERLOCK_BOOKSIM2_INTERLOCK_ARB_DETAIL_HPP

#include <cstdlib>
#include <string>
#include <vector>

#include "interlock_arb.hpp"

namespace interlock_booksim2 {
namespace detail {

/// The most requesters an adapter's arbiter takes (one 64-bit word).
constexpr int max_size = 64;

/// Module::Error prints the module's name and the message and exits.
[[noreturn]] inline void fail(const Module* m, const std::string& message) {
  m->Error(message);
  std::exit(-1);
}

/// AGE_CLK_PERIOD, BIAS and AGE_RR_SELECT of interlock_age(args), checked,
/// and the run's configuration checked for the age field (interlock_age.cpp).
Arbiter* new_age_arbiter(Module* parent, const std::string& name, const std::string& arb_type,
                         const std::vector<std::string>& args, int size);

/// PATTERN and SHAPE of interlock_inverse_weighted(args), checked, and the
/// arbiter's weights from interlock's loads (interlock_inverse.cpp).
Arbiter* new_inverse_weighted_arbiter(Module* parent, const std::string& name,
                                      const std::string& arb_type,
                                      const std::vector<std::string>& args, int size);

}  // namespace detail
}  // namespace interlock_booksim2

#endif  // INTERLOCK_BOOKSIM2_INTERLOCK_ARB_DETAIL_HPP
