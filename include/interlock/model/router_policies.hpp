// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_policies.hpp: the policies of every router port of a network, and the
// views of the heads they decide over.
//
// Contract
//   router_policies<Policy, Allocator, InputPolicy> holds, for every port of
//   every router of a router_state, the output's Policy and the input's
//   InputPolicy (made once by the factories, for the ports each router has),
//   their request builders, a matrix allocator per router (islip,
//   wavefront), and per input buffer the choice its head would make
//   (`choice`, filled when the router looks at its heads). It checks, once,
//   what the allocator and the state's shape allow together (staging
//   buffers, two switch stages and persistent picks only with input-first
//   allocation; policy sizes), each a config_error naming the config field. What a policy
//   reads of the heads it decides over comes from head_view (an input's
//   VCs) and output_view (an output's input ports). count_requests(true)
//   counts, per output, the cycles it arbitrates and each input port
//   requests it. prefetch_ports(r) and prefetch_heads(r) ask the cache
//   for what router r's step reads (where the input buffers' state exceeds
//   prefetch_beyond bytes, or as set_prefetch says; hints only). It is a
//   part of model::router (router.hpp), which owns it; the router's other
//   parts, the switch allocator (router_allocation.hpp) and the route unit
//   (router_routes.hpp), read its policies, views and the heads' choices.
//
// Example
//   // router<...>::policy(r, o) is router_policies::policy: the output
//   // policy of router r's port o, for o < ports(r).
#ifndef INTERLOCK_MODEL_ROUTER_POLICIES_HPP
#define INTERLOCK_MODEL_ROUTER_POLICIES_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "interlock/allocators/islip.hpp"
#include "interlock/allocators/wavefront.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/prefetch.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/router_allocators.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/vc_sets.hpp"

namespace interlock {
namespace model {

/// An input's decision: which VC's head goes, by which candidate, into which VC.
struct choice {
  std::uint8_t vc;
  std::uint8_t candidate;  // index into the head's candidates; eject: it leaves here
  std::uint8_t out_vc;
  static constexpr std::uint8_t eject = 0xFF;
};

template <class Policy, class Allocator, class InputPolicy>
class router_policies {
 public:
  using policy_factory = std::function<Policy(node_id router, std::size_t output_port)>;
  using input_policy_factory = std::function<InputPolicy(node_id router, std::size_t input_port)>;
  static constexpr bool ages = reads_age_v<Policy> || reads_age_v<InputPolicy>;
  static constexpr bool matrix = detail::matrix_allocator<Allocator>::value;
  static constexpr bool chosen_at_run_time = std::is_same<Allocator, separable_allocator>::value;
  static_assert(matrix || chosen_at_run_time ||
                    std::is_same<Allocator, separable_input_first>::value ||
                    std::is_same<Allocator, separable_output_first>::value,
                "Allocator: separable_input_first, separable_output_first, "
                "separable_allocator, islip<P> or wavefront<P>");
  static_assert(!matrix || std::is_same<Policy, round_robin_arbiter<64>>::value,
                "islip and wavefront grant with their own round-robin pointers and "
                "diagonals: the output Policy must be round_robin_arbiter<64>");

  router_policies(router_state& s, const vc_sets& sets, age_state& age,
                  const policy_factory& make_policy, saturation_rule rule,
                  const Allocator& allocator, const input_policy_factory& make_input)
      : s_(s), sets_(sets), age_(age) {
    static_assert(has_request_builder_v<Policy>, "Policy needs a request_builder");
    static_assert(has_request_builder_v<InputPolicy>, "InputPolicy needs a request_builder");
    if constexpr (chosen_at_run_time) {
      separable_ = allocator;
      if (allocator.iterations < 1 || allocator.iterations > 16)
        throw config_error("interlock::model::separable_allocator", "iterations",
                           std::to_string(allocator.iterations), "1..16");
      if (!allocator.output_first && allocator.iterations != 1)
        throw config_error("interlock::model::separable_allocator", "iterations",
                           std::to_string(allocator.iterations),
                           "1 input first (its rounds are output first's)");
    }
    const bool input_first = std::is_same<Allocator, separable_input_first>::value ||
                             (chosen_at_run_time && !separable_.output_first);
    if (s.staged() && !input_first)
      throw config_error("interlock::model::config", "staging_flits",
                         std::to_string(s.staging_flits()),
                         "0 with a switch allocator other than separable_input_first (with "
                         "staging buffers no two inputs contend for one buffer)");
    if (s.split_switch() && !input_first)
      throw config_error("interlock::model::config", "switch_stages", "2",
                         "1 with a switch allocator other than separable_input_first (SA1 is "
                         "its input stage, SA2 its output stage)");
    if (s.persistent_picks() && !input_first)
      throw config_error("interlock::model::config", "persistent_picks", "true",
                         "false with a switch allocator other than separable_input_first (its "
                         "input stage's picks are what persist)");
    if (ages && s.split_switch() && s.pipelined_heads())
      throw config_error("interlock::model::config", "pipelined_heads", "true",
                         "false with two switch stages and an age arbiter (its Table 4 "
                         "counters count the cycles of the other pipelines)");
    if (s.persistent_picks() && s.staged())
      throw config_error("interlock::model::config", "persistent_picks", "true",
                         "false with staging buffers (no input loses at an output)");
    if (s.split_switch() && s.staged())
      throw config_error("interlock::model::config", "switch_stages", "2",
                         "1 with staging buffers (their outputs arbitrate alone)");
    if (s.staged() && s.ports * s.vcs > 64)
      throw config_error("interlock::model::config", "staging_flits",
                         std::to_string(s.staging_flits()),
                         "0 when ports x VCs (" + std::to_string(s.ports * s.vcs) +
                             ") exceed the 64 candidates an output policy takes");
    const std::size_t ports = s.total_ports;
    prefetching_ = s.buf.size() * sizeof(buffer_state) > prefetch_beyond;
    policies_.reserve(ports);
    inputs_.reserve(ports);
    for (node_id r = 0; r < s.nodes; ++r)
      for (std::size_t q = 0; q < s.ports_of(r); ++q) {
        policies_.push_back(make_policy(r, q));
        if (make_input) {
          inputs_.push_back(make_input(r, q));
        } else if constexpr (std::is_default_constructible<InputPolicy>::value) {
          inputs_.push_back(InputPolicy{});
        } else {
          throw config_error("interlock::model::router", "input policy", "none",
                             "a factory for an input policy that has no default");
        }
        check_size(policies_.back(), s.staged() ? s.ports * s.vcs : s.ports, "output policy");
        check_size(inputs_.back(), s.vcs, "input policy");
      }
    builders_.reserve(ports);
    input_builders_.reserve(ports);
    for (node_id r = 0; r < s.nodes; ++r)
      for (std::size_t q = 0; q < s.ports_of(r); ++q) {
        builders_.push_back(detail::make_builder(policies_[s.port_index(r, q)], age, r, rule));
        input_builders_.push_back(detail::make_builder(inputs_[s.port_index(r, q)], age, r, rule));
      }
    if constexpr (matrix) {
      if (s.ports > detail::matrix_allocator<Allocator>::ports)
        throw config_error("interlock::model::router", "allocator ports", std::to_string(s.ports),
                           "at most the allocator's " +
                               std::to_string(detail::matrix_allocator<Allocator>::ports) +
                               " ports (its template parameter)");
      allocators_.assign(s.nodes, detail::matrix_allocator<Allocator>::make(allocator));
    } else {
      (void)allocator;
    }
    options_.resize(ports * s.vcs);
    option_out_.resize(ports * s.vcs);
  }
  router_policies(const router_policies&) = delete;
  router_policies& operator=(const router_policies&) = delete;

  /// Counting, from now on (true) or no longer (false), the cycles each
  /// output arbiter arbitrates and each input port requests it there.
  void count_requests(bool on) {
    if (on && arbitrations_.empty()) {
      arbitrations_.assign(policies_.size(), 0);
      request_cycles_.assign(policies_.size() * s_.ports, 0);
    }
    counting_ = on;
  }
  /// Cycles router r's output o arbitrated, and input port i requested it.
  /// (A port the router does not have, or an input past the most ports a
  /// router has: 0.)
  std::uint64_t arbitrations(node_id r, std::size_t o) const {
    if (arbitrations_.empty() || o >= s_.ports_of(checked_router(r))) return 0;
    return arbitrations_[s_.port_index(r, o)];
  }
  std::uint64_t request_cycles(node_id r, std::size_t o, std::size_t i) const {
    if (request_cycles_.empty() || o >= s_.ports_of(checked_router(r)) || i >= s_.ports) return 0;
    return request_cycles_[s_.port_index(r, o) * s_.ports + i];
  }

  /// The ports router r has (a channel adapter: those up to its last
  /// connected one); its policies are those of ports 0 .. ports(r) - 1.
  std::size_t ports(node_id r) const { return s_.ports_of(checked_router(r)); }
  /// The output policy of router r's port o, and the input policy of its input port i.
  Policy& policy(node_id r, std::size_t o) { return policies_[checked_port(r, o)]; }
  InputPolicy& input_policy(node_id r, std::size_t i) { return inputs_[checked_port(r, i)]; }

  /// Asks the cache for what router r's step reads first: its ports, its
  /// outputs' credits and policies and its switch's held picks (a hint:
  /// results are the same without it). Only where the routers' input
  /// buffers take more than prefetch_beyond bytes: in a smaller network
  /// they stay in cache and asking costs more than it saves.
  static constexpr std::size_t prefetch_beyond = std::size_t{1} << 20;
  /// Whether the routers' state is asked ahead (a network beyond that size).
  bool prefetching() const noexcept { return prefetching_; }
  /// config::prefetch: always or never override the size rule above.
  void set_prefetch(prefetch_mode m) noexcept {
    if (m != prefetch_mode::automatic) prefetching_ = m == prefetch_mode::always;
  }
  void prefetch_ports(node_id r) const noexcept {
    if (!prefetching_) return;
    const std::size_t first = s_.first_port[r], n = s_.first_port[r + 1] - first;
    interlock::prefetch_lines(s_.port.data() + first, n);
    interlock::prefetch_lines(s_.credits.data() + first * s_.vcs, n * s_.vcs);
    interlock::prefetch_lines(policies_.data() + first, n);
    if (s_.holds_picks()) interlock::prefetch_lines(s_.held_among.data() + first, n);
  }
  /// Then what its ports name (asked once their lines are in): the heads
  /// of its input VCs that may compete, their candidates and their input
  /// ports' policies.
  void prefetch_heads(node_id r) const noexcept {
    if (!prefetching_) return;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t pi = s_.port_index(r, bits::lowest_index(ports));
      const std::uint64_t vcs = s_.port[pi].vcs & ~s_.port[pi].blocked;
      if (vcs == 0) continue;
      interlock::prefetch_lines(inputs_.data() + pi, 1);
      const std::size_t b = pi * s_.vcs + bits::lowest_index(vcs);
      const std::size_t n = bits::highest_index_nonzero(vcs) - bits::lowest_index(vcs) + 1;
      interlock::prefetch_lines(s_.buf.data() + b, n);
      interlock::prefetch_lines(s_.cand_info.data() + b * s_.max_cand, n * s_.max_cand);
    }
  }

  // ---- what the router's other parts (router_allocation.hpp, router_routes.hpp) read ----
  node_id checked_router(node_id r) const {
    if (r >= s_.nodes)
      throw std::out_of_range("interlock::model::router: router " + std::to_string(r) +
                              " (the network has " + std::to_string(s_.nodes) + ")");
    return r;
  }
  std::size_t checked_port(node_id r, std::size_t p) const {
    if (p >= s_.ports_of(checked_router(r)))
      throw std::out_of_range("interlock::model::router: port " + std::to_string(p) +
                              " of router " + std::to_string(r) + " (it has " +
                              std::to_string(s_.ports_of(r)) + ")");
    return s_.port_index(r, p);
  }

  template <class P>
  static void check_size(const P& p, std::size_t needed, const char* what) {
    if constexpr (detail::has_size<P>::value) {
      if (static_cast<std::size_t>(p.size()) < needed)
        throw config_error("interlock::model::router", what, std::to_string(p.size()) + " queues",
                           "at least " + std::to_string(needed) +
                               " (one per candidate: the router's ports, or an input's VCs)");
    } else {
      (void)p, (void)needed, (void)what;
    }
  }

  void note_requests(std::size_t po, std::uint64_t requesters) {
    if (!counting_) return;
    ++arbitrations_[po];
    for (std::uint64_t x = requesters; x != 0; x &= x - 1)
      ++request_cycles_[po * s_.ports + bits::lowest_index(x)];
  }

  // Whether a port free from cycle `free_at` is still busy at cycle t (then
  // `wake` is lowered to when it frees).
  static bool port_busy(std::uint64_t free_at, std::uint64_t t, std::uint64_t& wake) {
    if (free_at <= t) return false;
    wake = std::min(wake, free_at);
    return true;
  }

  // Whether buffer b's head is still in the head pipeline at cycle t (then
  // `wake` is lowered to when it leaves it).
  bool in_head_pipeline(std::size_t b, std::uint64_t t, std::uint64_t& wake) const {
    const std::uint64_t ready_at = s_.buf[b].head.ready_at;
    if (s_.head_cycles == 0 || ready_at <= t) return false;
    wake = std::min(wake, ready_at);
    return true;
  }

  // The VCs of `mask` at input port `in` whose head goes to output o.
  std::uint64_t heads_for(std::size_t pi, std::uint64_t mask, std::size_t o) const {
    std::uint64_t m = 0;
    for (std::uint64_t x = mask; x != 0; x &= x - 1) {
      const std::size_t v = bits::lowest_index(x);
      if (option_out_[pi * s_.vcs + v] == o) m |= bits::bit(v);
    }
    return m;
  }

  // The candidate view of input port pi's heads in `mask` (VCs as candidates).
  struct head_view {
    std::array<std::uint16_t, 64> age;
    std::array<std::uint8_t, 64> pattern;
    std::array<std::uint32_t, 64> flits;
    std::array<std::uint8_t, 64> priority;
  };

  // InputPolicy's request for the heads of `mask` at input port pi.
  typename InputPolicy::request_type input_request(std::size_t pi, std::uint64_t mask,
                                                   head_view& f) {
    candidate_view view;
    view.requests = mask;
    if constexpr (!detail::takes_mask_v<InputPolicy>) {
      for (std::uint64_t x = mask; x != 0; x &= x - 1) {
        const std::size_t v = bits::lowest_index(x);
        const model::head_fields& h = s_.buf[pi * s_.vcs + v].fields;
        f.age[v] = h.age;
        f.pattern[v] = h.pattern;
        f.flits[v] = s_.buf[pi * s_.vcs + v].head.flits;
        f.priority[v] = h.priority;
      }
      view.age = {f.age.data(), s_.vcs};
      view.pattern = {f.pattern.data(), s_.vcs};
      view.flits = {f.flits.data(), s_.vcs};
      view.priority = {f.priority.data(), s_.vcs};
    } else {
      (void)f;
    }
    return input_builders_[pi](view);
  }

  // The input stage's pick among `mask` at port pi (not committed).
  std::size_t pick_vc(std::size_t pi, std::uint64_t mask, head_view& f) {
    return inputs_[pi].arbitrate(input_request(pi, mask, f)).index();
  }
  // Commits the input stage's pick of v among `mask` at port pi.
  void commit_vc(std::size_t pi, std::uint64_t mask, std::size_t v, head_view& f) {
    inputs_[pi].commit(grant(v), input_request(pi, mask, f));
  }

  // Each output's candidates: the input ports, with their offered head's fields.
  struct output_view {
    std::array<std::uint64_t, 64> requesters;
    std::array<std::uint16_t, 64> age;
    std::array<std::uint8_t, 64> pattern;
    std::array<std::uint32_t, 64> flits;
    std::array<std::uint8_t, 64> priority;
    void offer(std::size_t in, const router_state& s, std::size_t b) {
      const model::head_fields& h = s.buf[b].fields;
      age[in] = h.age;
      pattern[in] = h.pattern;
      flits[in] = s.buf[b].head.flits;
      priority[in] = h.priority;
    }
    candidate_view view(std::size_t o, std::size_t ports) const {
      candidate_view v;
      v.requests = requesters[o];
      v.age = {age.data(), ports};
      v.pattern = {pattern.data(), ports};
      v.flits = {flits.data(), ports};
      v.priority = {priority.data(), ports};
      return v;
    }
  };

  router_state& s_;
  const vc_sets& sets_;
  age_state& age_;
  // count_requests(): per (router, output), cycles arbitrated; per (router,
  // output, input port), cycles requested.
  bool counting_ = false;
  bool prefetching_ = false;  // the routers' state is asked ahead of their steps
  std::vector<std::uint64_t> arbitrations_, request_cycles_;
  std::vector<Policy> policies_;                              // per (router, output port)
  std::vector<request_builder<Policy>> builders_;             // per (router, output port)
  std::vector<InputPolicy> inputs_;                           // per (router, input port)
  std::vector<request_builder<InputPolicy>> input_builders_;  // per (router, input port)
  std::vector<typename detail::matrix_allocator<Allocator>::type> allocators_;  // per router
  separable_allocator separable_{};       // Allocator separable_allocator: the choice
  std::vector<choice> options_;           // per (router, input port, VC): the head's choice
  std::vector<std::uint8_t> option_out_;  // and its output port
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_POLICIES_HPP
