// SPDX-License-Identifier: BSL-1.0
// interlock/interlock.hpp: the umbrella header; includes every public header.
//
// interlock is a header-only C++17 library of arbitration and routing
// policies from real interconnection networks. Include this header for all
// of it, or the one header of the policy you use (each compiles on its own).
// A ctest check keeps this list equal to the headers under include/.
#ifndef INTERLOCK_INTERLOCK_HPP
#define INTERLOCK_INTERLOCK_HPP

// Below C++17 the headers would fail with many unrelated errors; say why.
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201703L
#error "interlock needs C++17 or later: compile with -std=c++17 (MSVC: /std:c++17)"
#else

#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/prefetch.hpp"
#include "interlock/core/priority_requests.hpp"
#include "interlock/core/random.hpp"
#include "interlock/core/request_set.hpp"
#include "interlock/core/span.hpp"
#include "interlock/core/state_io.hpp"
#include "interlock/core/version.hpp"

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/arbiters/age_counters.hpp"
#include "interlock/arbiters/age_epoch.hpp"
#include "interlock/arbiters/age_heads.hpp"
#include "interlock/arbiters/age_tuning.hpp"
#include "interlock/arbiters/integer_priority.hpp"
#include "interlock/arbiters/inverse_weight_tables.hpp"
#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/arbiters/inverse_weighted_exact.hpp"
#include "interlock/arbiters/inverse_weighted_family.hpp"
#include "interlock/arbiters/inverse_weighted_form.hpp"
#include "interlock/arbiters/inverse_weights.hpp"
#include "interlock/arbiters/priority.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/arbiters/rr_pointer.hpp"
#include "interlock/arbiters/rr_thermometer.hpp"
#include "interlock/arbiters/window_slides.hpp"

#include "interlock/allocators/islip.hpp"
#include "interlock/allocators/request_matrix.hpp"
#include "interlock/allocators/separable.hpp"
#include "interlock/allocators/wavefront.hpp"

#include "interlock/qos/deficit_table.hpp"
#include "interlock/qos/dtable.hpp"
#include "interlock/qos/dtable_config.hpp"
#include "interlock/qos/ib_analysis.hpp"
#include "interlock/qos/ib_vl_arbiter.hpp"
#include "interlock/qos/queue_requests.hpp"
#include "interlock/qos/sbt.hpp"
#include "interlock/qos/service_maps.hpp"

#include "interlock/topology/anton2_node.hpp"
#include "interlock/topology/kary_ntree.hpp"
#include "interlock/topology/torus.hpp"

#include "interlock/routing/adaptive.hpp"
#include "interlock/routing/anton2.hpp"
#include "interlock/routing/dimension_order.hpp"
#include "interlock/routing/direction_order.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/routing/vc_promotion.hpp"
#include "interlock/routing/vc_table.hpp"

#include "interlock/traffic/anton2_loads.hpp"
#include "interlock/traffic/arbitration_weights.hpp"
#include "interlock/traffic/loads.hpp"
#include "interlock/traffic/merging.hpp"
#include "interlock/traffic/netrace.hpp"
#include "interlock/traffic/netrace_writer.hpp"
#include "interlock/traffic/pattern_mix.hpp"
#include "interlock/traffic/patterns.hpp"

#include "interlock/verify/adaptive_deadlock.hpp"
#include "interlock/verify/allocator_oracle.hpp"
#include "interlock/verify/arbiter_bounds.hpp"
#include "interlock/verify/arbiter_checks.hpp"
#include "interlock/verify/arbiter_oracle.hpp"
#include "interlock/verify/cdg_report.hpp"
#include "interlock/verify/channel_dependency_graph.hpp"
#include "interlock/verify/dependency_graph.hpp"
#include "interlock/verify/fairness_metrics.hpp"
#include "interlock/verify/message_dependency.hpp"
#include "interlock/verify/route_enumeration.hpp"
#include "interlock/verify/rtl_cosim.hpp"
#include "interlock/verify/rtl_ports.hpp"
#include "interlock/verify/rtl_stimulus.hpp"
#include "interlock/verify/share_monitor.hpp"
#include "interlock/verify/unified_deadlock.hpp"

#endif  // C++17

#endif  // INTERLOCK_INTERLOCK_HPP
