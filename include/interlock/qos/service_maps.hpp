// SPDX-License-Identifier: BSL-1.0
// interlock/qos/service_maps.hpp: SL2VL (InfiniBand) and SL2SC, SC2SL, SC2VL (Omni-Path).
//
// Models [QoSThesis], Sections 2.3, 5.3 and 6.2. InfiniBand marks a packet with
// a service level (SL, 16 of them) and each output port maps it to a virtual
// lane with its SL2VL table; VL15 carries subnet management only, so data SLs
// map to VLs 0..data_vls-1 (at most 15). Omni-Path (32 SLs, 32 SCs, 32 VLs)
// carries only the service channel (SC) in the packet: SL2SC picks the SC a
// packet of an SL enters with, SC2SL tells a switch the SL of an SC (an SL
// may span several SCs; an SC belongs to one SL), SC2VL the VL an SC uses (a
// VL may be shared by several SCs). SC15 is reserved for fabric management.
//
// Contract
//   - sl2vl_map(vl_of_sl, data_vls): vl_of_sl[sl] < data_vls <= 15 for the
//     16 SLs; config_error names the SL, its VL and the allowed range.
//   - opa_service_maps(sc2sl, sc2vl, vls): 32 SCs; sc2sl[sc] is an SL 0..31
//     or opa_service_maps::unused; SC15 must be unused; sc2vl[sc] < vls <= 32
//     for every used SC. sl2sc(sl) is the SC a packet of the SL enters with:
//     the SL's lowest SC unless set_sl2sc() names another of its SCs;
//     scs_of_sl(sl) is all of them.
//   - Output schedulers take one SL per queue (queue_sls): per VL when no two
//     SLs share a VL (sl2vl_map::vl_queue_sls, opa_service_maps::vl_queue_sls,
//     config_error naming the shared VL otherwise), per SC always
//     (opa_service_maps::sc_queue_sls).
//   Complexity: lookups O(1); construction O(32).
//
// Example
//   // Table 2.2, configuration B: SL0 on SC0 and SC1, SL1 on SC2, SL2 on SC3;
//   // SC2VL 0, 1, 2, 2 (SL1 and SL2 share VL2)
//   std::array<std::uint8_t, 32> sc2sl{}, sc2vl{};
//   sc2sl.fill(interlock::qos::opa_service_maps::unused);
//   sc2sl[0] = 0, sc2sl[1] = 0, sc2sl[2] = 1, sc2sl[3] = 2;
//   sc2vl[0] = 0, sc2vl[1] = 1, sc2vl[2] = 2, sc2vl[3] = 2;
//   interlock::qos::opa_service_maps maps(sc2sl, sc2vl, 3);
//   auto queues = maps.sc_queue_sls();  // queue = SC, one SL each (per VL would refuse)
//   assert(maps.sl2sc(0) == 0 && queues[3] == 2);
#ifndef INTERLOCK_QOS_SERVICE_MAPS_HPP
#define INTERLOCK_QOS_SERVICE_MAPS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"

namespace interlock {
namespace qos {

inline constexpr std::size_t ib_sl_count = 16;
inline constexpr std::size_t ib_management_vl = 15;
inline constexpr std::size_t opa_sl_count = 32;
inline constexpr std::size_t opa_sc_count = 32;
inline constexpr std::size_t opa_vl_count = 32;
inline constexpr std::size_t opa_management_sc = 15;

/// The SL of each scheduler queue (queue q carries packets of SL queue_sls[q]).
using queue_sls = std::vector<std::uint8_t>;

class sl2vl_map {
 public:
  sl2vl_map(const std::array<std::uint8_t, ib_sl_count>& vl_of_sl, std::size_t data_vls)
      : vl_of_sl_(vl_of_sl), data_vls_(data_vls) {
    detail::require_in_range("sl2vl_map", "data_vls", data_vls, 1, ib_management_vl);
    for (std::size_t sl = 0; sl < ib_sl_count; ++sl) {
      if (vl_of_sl[sl] >= data_vls) {
        throw config_error(
            "sl2vl_map", "SL2VL[" + std::to_string(sl) + "]", std::to_string(vl_of_sl[sl]),
            "a data VL 0.." + std::to_string(data_vls - 1) +
                (vl_of_sl[sl] == ib_management_vl ? " (VL15 carries subnet management only)" : ""));
      }
    }
  }

  std::size_t vl(std::size_t sl) const noexcept {
    return sl < ib_sl_count ? vl_of_sl_[sl] : ib_management_vl;
  }
  std::size_t data_vls() const noexcept { return data_vls_; }

  /// One queue per data VL, carrying the SL that maps to it. A VL no SL maps
  /// to gets SL 0 (it never holds packets); config_error when two SLs used by
  /// `sls_in_use` (a bit mask) share a VL, since a VL-level scheduler could
  /// not tell their packets apart.
  qos::queue_sls vl_queue_sls(std::uint32_t sls_in_use = 0xFFFFu) const {
    qos::queue_sls sls(data_vls_, 0);
    std::vector<int> owner(data_vls_, -1);
    for (std::size_t sl = 0; sl < ib_sl_count; ++sl) {
      if (((sls_in_use >> sl) & 1u) == 0) continue;
      const std::size_t v = vl_of_sl_[sl];
      if (owner[v] >= 0) {
        throw config_error("sl2vl_map", "SL2VL[" + std::to_string(sl) + "]", std::to_string(v),
                           "a VL no other SL in use maps to (SL" + std::to_string(owner[v]) +
                               " uses VL" + std::to_string(v) + "); schedule per SL instead");
      }
      owner[v] = static_cast<int>(sl);
      sls[v] = static_cast<std::uint8_t>(sl);
    }
    return sls;
  }

 private:
  std::array<std::uint8_t, ib_sl_count> vl_of_sl_;
  std::size_t data_vls_;
};

class opa_service_maps {
 public:
  static constexpr std::uint8_t unused = 0xFF;

  opa_service_maps(const std::array<std::uint8_t, opa_sc_count>& sc2sl,
                   const std::array<std::uint8_t, opa_sc_count>& sc2vl, std::size_t vls)
      : sc2sl_(sc2sl), sc2vl_(sc2vl), vls_(vls) {
    detail::require_in_range("opa_service_maps", "vls", vls, 1, opa_vl_count);
    if (sc2sl[opa_management_sc] != unused) {
      throw config_error("opa_service_maps", "SC2SL[15]", std::to_string(sc2sl[15]),
                         "unused (SC15 is reserved for fabric management)");
    }
    for (std::size_t sc = 0; sc < opa_sc_count; ++sc) {
      if (sc2sl[sc] == unused) continue;
      detail::require_in_range("opa_service_maps", "SC2SL[" + std::to_string(sc) + "]", sc2sl[sc],
                               0, opa_sl_count - 1);
      if (sc2vl[sc] >= vls) {
        throw config_error("opa_service_maps", "SC2VL[" + std::to_string(sc) + "]",
                           std::to_string(sc2vl[sc]), "a VL 0.." + std::to_string(vls - 1));
      }
      if (scs_[sc2sl[sc]] == 0) sl2sc_[sc2sl[sc]] = static_cast<std::uint8_t>(sc);
      scs_[sc2sl[sc]] |= std::uint32_t{1} << sc;
    }
  }

  /// Sets SL2SC explicitly: sl2sc[sl] must be an SC of `sl` for every SL
  /// that has SCs (config_error otherwise); other SLs' values are ignored.
  opa_service_maps& set_sl2sc(const std::array<std::uint8_t, opa_sl_count>& sl2sc) {
    for (std::size_t sl = 0; sl < opa_sl_count; ++sl) {
      if (scs_[sl] == 0) continue;
      if (sl2sc[sl] >= opa_sc_count || ((scs_[sl] >> sl2sc[sl]) & 1u) == 0) {
        throw config_error("opa_service_maps", "SL2SC[" + std::to_string(sl) + "]",
                           std::to_string(sl2sc[sl]),
                           "an SC that SC2SL assigns to SL" + std::to_string(sl));
      }
      sl2sc_[sl] = sl2sc[sl];
    }
    return *this;
  }

  /// The SL of an SC (unused for an SC no SL spans).
  std::size_t sl(std::size_t sc) const noexcept { return sc < opa_sc_count ? sc2sl_[sc] : unused; }
  /// The VL of an SC.
  std::size_t vl(std::size_t sc) const noexcept { return sc < opa_sc_count ? sc2vl_[sc] : 0; }
  /// The SC a packet of `sl` enters with (its lowest SC); config_error if the SL has none.
  std::size_t sl2sc(std::size_t sl) const {
    if (sl >= opa_sl_count || scs_[sl] == 0) {
      throw config_error("opa_service_maps", "SL", std::to_string(sl),
                         "an SL that SC2SL assigns at least one SC");
    }
    return sl2sc_[sl];
  }
  /// Every SC of `sl`, as a bit mask.
  std::uint32_t scs_of_sl(std::size_t sl) const noexcept {
    return sl < opa_sl_count ? scs_[sl] : 0;
  }
  std::size_t vls() const noexcept { return vls_; }

  /// One scheduler queue per SC (unused SCs get SL 0 and never hold packets).
  qos::queue_sls sc_queue_sls() const {
    qos::queue_sls sls(opa_sc_count, 0);
    for (std::size_t sc = 0; sc < opa_sc_count; ++sc)
      if (sc2sl_[sc] != unused) sls[sc] = sc2sl_[sc];
    return sls;
  }

  /// One scheduler queue per VL; config_error when SCs of two SLs share a VL.
  qos::queue_sls vl_queue_sls() const {
    qos::queue_sls sls(vls_, 0);
    std::vector<int> owner(vls_, -1);
    for (std::size_t sc = 0; sc < opa_sc_count; ++sc) {
      if (sc2sl_[sc] == unused) continue;
      const std::size_t v = sc2vl_[sc];
      if (owner[v] >= 0 && owner[v] != sc2sl_[sc]) {
        throw config_error(
            "opa_service_maps", "SC2VL[" + std::to_string(sc) + "]", std::to_string(v),
            "a VL that carries one SL (SL" + std::to_string(owner[v]) + " already uses VL" +
                std::to_string(v) + "); schedule per SC instead");
      }
      owner[v] = sc2sl_[sc];
      sls[v] = sc2sl_[sc];
    }
    return sls;
  }

 private:
  std::array<std::uint8_t, opa_sc_count> sc2sl_;
  std::array<std::uint8_t, opa_sc_count> sc2vl_;
  std::size_t vls_;
  std::array<std::uint32_t, opa_sl_count> scs_{};
  std::array<std::uint8_t, opa_sl_count> sl2sc_{};
};

}  // namespace qos
}  // namespace interlock

#endif  // INTERLOCK_QOS_SERVICE_MAPS_HPP
