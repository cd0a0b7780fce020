// SPDX-License-Identifier: BSL-1.0
// interlock/model/link_timeline.hpp: the torus links' utilization over a run, in bins of time.
//
// Contract
//   link_timeline(f, bin) watches the channels of fabric f that join nodes
//   (fabric::out_direction(r, o).between_nodes()); count(r, o, flits, t)
//   adds a packet sent out of router r's output o at cycle t to the bin of
//   t (one bin per `bin` cycles from cycle 0; bins are added as the run
//   goes) when o is such a channel, and does nothing otherwise. utilization()
//   is each bin's flits over what the links could carry in it: the sum of
//   their bandwidths times the bin's cycles (the last bin's cycles end at
//   the run's end). A packet counts in the bin it starts in. bin = 0 keeps
//   nothing. count() is O(1); the network calls it only when config::
//   utilization_bin asks for a timeline.
//
// Example
//   interlock::torus_topology t({4, 4}, {true, true});
//   interlock::model::link_timeline line(interlock::model::fabric(t), 100);
//   line.count(0, 0, 1, 150);               // bin 1
//   // line.utilization(200)[1] == 1.0 / (16 * 4 * 100)
#ifndef INTERLOCK_MODEL_LINK_TIMELINE_HPP
#define INTERLOCK_MODEL_LINK_TIMELINE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/model/fabric.hpp"

namespace interlock {
namespace model {

class link_timeline {
 public:
  link_timeline() = default;
  link_timeline(const fabric& f, std::uint64_t bin) : bin_(bin), ports_(f.network_ports()) {
    if (bin == 0) return;
    between_.assign(static_cast<std::size_t>(f.routers()) * ports_, 0);
    for (node_id r = 0; r < f.routers(); ++r)
      for (std::size_t o = 0; o < ports_; ++o)
        if (f.out_direction(r, o).between_nodes() && f.downstream(r, o).router != no_node) {
          between_[r * ports_ + o] = 1;
          capacity_ += f.bandwidth(r, o);
        }
  }

  bool enabled() const noexcept { return bin_ != 0; }
  std::uint64_t bin() const noexcept { return bin_; }

  void count(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) {
    if (bin_ == 0 || o >= ports_ || between_[static_cast<std::size_t>(r) * ports_ + o] == 0) return;
    const std::size_t k = static_cast<std::size_t>(t / bin_);
    if (k >= flits_.size()) flits_.resize(k + 1, 0);
    flits_[k] += flits;
  }

  /// Each bin's share of the links' capacity, bins up to the run's end `end`.
  std::vector<double> utilization(std::uint64_t end) const {
    std::vector<double> u;
    if (bin_ == 0 || capacity_ <= 0) return u;
    const std::size_t bins = static_cast<std::size_t>((end + bin_ - 1) / bin_);
    for (std::size_t k = 0; k < std::max(bins, flits_.size()); ++k) {
      const std::uint64_t from = k * bin_;
      const std::uint64_t to = std::max(from + 1, std::min(end, from + bin_));
      const double flits = k < flits_.size() ? static_cast<double>(flits_[k]) : 0.0;
      u.push_back(flits / (capacity_ * static_cast<double>(to - from)));
    }
    return u;
  }

 private:
  std::uint64_t bin_ = 0;
  std::size_t ports_ = 0;
  double capacity_ = 0;                // flits per cycle, all watched links
  std::vector<std::uint8_t> between_;  // per (router, output): a link between nodes
  std::vector<std::uint64_t> flits_;   // per bin
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_LINK_TIMELINE_HPP
