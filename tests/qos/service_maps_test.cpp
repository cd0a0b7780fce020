// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/service_maps.hpp: SL2VL (InfiniBand) and SL2SC,
// SC2SL, SC2VL (Omni-Path), [QoSThesis] Sections 2.3 and 6.2 (Table 2.2).
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>

#include <interlock/qos/service_maps.hpp>

using interlock::qos::opa_service_maps;
using interlock::qos::sl2vl_map;

namespace {

constexpr std::uint8_t U = opa_service_maps::unused;

std::array<std::uint8_t, 32> unused_scs() {
  std::array<std::uint8_t, 32> a{};
  a.fill(U);
  return a;
}

}  // namespace

TEST_CASE("service_maps: SL2VL maps SLs to data VLs; VL15 is management", "[service_maps]") {
  std::array<std::uint8_t, 16> vl_of_sl{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const sl2vl_map map(vl_of_sl, 4);
  CHECK(map.vl(5) == 1);
  CHECK(map.data_vls() == 4);
  // Four SLs in use, one per VL: a VL-level scheduler knows each queue's SL.
  CHECK(map.vl_queue_sls(0x000F) == interlock::qos::queue_sls{0, 1, 2, 3});
  CHECK_THROWS_WITH(map.vl_queue_sls(0x0011),
                    "sl2vl_map: SL2VL[4] = 0; allowed: a VL no other SL in use maps to (SL0 uses "
                    "VL0); schedule per SL instead");
  vl_of_sl[3] = 15;
  CHECK_THROWS_WITH(sl2vl_map(vl_of_sl, 15),
                    "sl2vl_map: SL2VL[3] = 15; allowed: a data VL 0..14 (VL15 carries subnet "
                    "management only)");
  vl_of_sl[3] = 4;
  CHECK_THROWS_WITH(sl2vl_map(vl_of_sl, 4), "sl2vl_map: SL2VL[3] = 4; allowed: a data VL 0..3");
  CHECK_THROWS_AS(sl2vl_map(vl_of_sl, 16), interlock::config_error);
}

TEST_CASE("service_maps: Table 2.2 configuration B, SL0 spans SC0 and SC1, VL2 is shared",
          "[service_maps][paper]") {
  // SL2SC: SL0 -> SC0 (and SC1), SL1 -> SC2, SL2 -> SC3; SC2VL: 0, 1, 2, 2.
  auto sc2sl = unused_scs();
  auto sc2vl = std::array<std::uint8_t, 32>{};
  sc2sl[0] = 0, sc2sl[1] = 0, sc2sl[2] = 1, sc2sl[3] = 2;
  sc2vl[0] = 0, sc2vl[1] = 1, sc2vl[2] = 2, sc2vl[3] = 2;
  const opa_service_maps maps(sc2sl, sc2vl, 3);
  CHECK(maps.sl2sc(0) == 0);
  CHECK(maps.sl2sc(2) == 3);
  CHECK(maps.scs_of_sl(0) == 0b11u);
  CHECK(maps.sl(3) == 2);
  CHECK(maps.vl(3) == 2);
  // SL1 and SL2 share VL2: per-VL queues are ambiguous, per-SC queues are not.
  CHECK_THROWS_WITH(maps.vl_queue_sls(),
                    "opa_service_maps: SC2VL[3] = 2; allowed: a VL that carries one SL (SL1 "
                    "already uses VL2); schedule per SC instead");
  const auto queues = maps.sc_queue_sls();
  CHECK(queues.size() == 32);
  CHECK(queues[1] == 0);
  CHECK(queues[3] == 2);
  CHECK_THROWS_WITH(maps.sl2sc(5),
                    "opa_service_maps: SL = 5; allowed: an SL that SC2SL assigns at least one SC");
}

TEST_CASE("service_maps: Omni-Path ranges and the reserved SC15", "[service_maps][config]") {
  auto sc2sl = unused_scs();
  auto sc2vl = std::array<std::uint8_t, 32>{};
  sc2sl[15] = 0;
  CHECK_THROWS_WITH(opa_service_maps(sc2sl, sc2vl, 8),
                    "opa_service_maps: SC2SL[15] = 0; allowed: unused (SC15 is reserved for "
                    "fabric management)");
  sc2sl[15] = U;
  sc2sl[4] = 32;
  CHECK_THROWS_WITH(opa_service_maps(sc2sl, sc2vl, 8),
                    "opa_service_maps: SC2SL[4] = 32; allowed: 0..31");
  sc2sl[4] = 1;
  sc2vl[4] = 8;
  CHECK_THROWS_WITH(opa_service_maps(sc2sl, sc2vl, 8),
                    "opa_service_maps: SC2VL[4] = 8; allowed: a VL 0..7");
  sc2vl[4] = 7;
  opa_service_maps maps(sc2sl, sc2vl, 8);
  std::array<std::uint8_t, 32> sl2sc{};
  sl2sc[1] = 5;
  CHECK_THROWS_WITH(maps.set_sl2sc(sl2sc),
                    "opa_service_maps: SL2SC[1] = 5; allowed: an SC that SC2SL assigns to SL1");
  sl2sc[1] = 4;
  CHECK(maps.set_sl2sc(sl2sc).sl2sc(1) == 4);
  CHECK_THROWS_AS(opa_service_maps(sc2sl, sc2vl, 33), interlock::config_error);
}
