// SPDX-License-Identifier: BSL-1.0
// interlock/model/vc_sets.hpp: the scheme's VCs mapped onto a router's physical VCs.
//
// Contract
//   A routing scheme numbers the VCs it needs (vcs_per_channel(): a set per
//   traffic class, then the adaptive VCs). A run uses those of the classes
//   it sends, and the adaptive ones; vc_sets gives each of them a set of
//   `replication()` physical VCs (config::vcs / used; 0 means one each), in
//   the scheme's order: scheme VC v's set starts at physical VC first(v).
//   A packet entering a set takes the VC of it with the most credits, the
//   lowest on a tie, if one has room for the whole packet (pick()). With
//   more than one VC per set, packets of one flow may overtake each other.
//   A physical VC count that is not a multiple of the used VCs throws
//   config_error naming `vcs`.
//
// Example
//   interlock::model::vc_sets sets(/*scheme_vcs=*/2, /*per_class=*/2,
//                                  /*requests=*/true, /*responses=*/false, /*vcs=*/4);
//   // sets.physical() == 4, sets.replication() == 2, sets.first(1) == 2
#ifndef INTERLOCK_MODEL_VC_SETS_HPP
#define INTERLOCK_MODEL_VC_SETS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"

namespace interlock {
namespace model {

class vc_sets {
 public:
  vc_sets() = default;
  /// `scheme_vcs` VCs in all, `per_class` per traffic class; `requests` and
  /// `responses`: the classes a run sends; `physical` VCs per channel (0:
  /// one per used VC).
  vc_sets(unsigned scheme_vcs, unsigned per_class, bool requests, bool responses,
          unsigned physical) {
    std::size_t count = 0;
    logical_.assign(scheme_vcs, 0xFF);
    for (unsigned v = 0; v < scheme_vcs; ++v) {
      const unsigned cls = v / per_class;
      const bool used = cls >= traffic_classes || (cls == 0 && requests) || (cls == 1 && responses);
      if (used) logical_[v] = static_cast<std::uint8_t>(count++);
    }
    if (count == 0) count = 1;
    const std::size_t total = physical == 0 ? count : physical;
    if (total < count || total % count != 0)
      throw config_error("interlock::model::config", "vcs", std::to_string(physical),
                         "a multiple of " + std::to_string(count) +
                             " (the VCs the scheme uses for the classes this run sends)");
    physical_ = total;
    replication_ = total / count;
  }

  /// Physical VCs per channel.
  std::size_t physical() const noexcept { return physical_; }
  /// Physical VCs per scheme VC.
  std::size_t replication() const noexcept { return replication_; }
  /// The first physical VC of scheme VC v's set.
  std::size_t first(unsigned v) const noexcept {
    return static_cast<std::size_t>(logical_[v]) * replication_;
  }
  /// Whether the run uses scheme VC v.
  bool used(unsigned v) const noexcept { return v < logical_.size() && logical_[v] != 0xFF; }

  /// Of the set whose credits start at `credits`, the offset of the VC with
  /// the most credits if one has room for `flits`; -1 otherwise.
  int pick(const std::int32_t* credits, std::uint32_t flits) const noexcept {
    int best = -1;
    std::int32_t most = static_cast<std::int32_t>(flits) - 1;
    for (std::size_t k = 0; k < replication_; ++k) {
      if (credits[k] > most) {
        most = credits[k];
        best = static_cast<int>(k);
      }
    }
    return best;
  }

 private:
  std::vector<std::uint8_t> logical_;  // scheme VC -> index of its set (0xFF: unused)
  std::size_t physical_ = 1, replication_ = 1;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_VC_SETS_HPP
