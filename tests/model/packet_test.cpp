// SPDX-License-Identifier: BSL-1.0
// The model's packet records and their pool (model/packet.hpp): each record
// starts a cache line with what a hop reads first, ids are reused and a
// reused record starts fresh.
#include <catch2/catch.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <interlock/model/packet.hpp>
#include <interlock/model/qos_switch/packets.hpp>

namespace {

// Bytes from the record's start to the end of `field`.
template <class Packet, class Field>
std::size_t end_of(const Packet& p, const Field& field) {
  return static_cast<std::size_t>(reinterpret_cast<const char*>(&field) + sizeof(Field) -
                                  reinterpret_cast<const char*>(&p));
}

// Every record of a pool grown to `n` starts a 64-byte line, and what a hop
// reads (route state, length, header fields, hops) ends within that line.
template <class State>
void check_layout(std::size_t n) {
  interlock::model::packet_pool<State> pool;
  std::vector<std::uint32_t> ids;
  for (std::size_t k = 0; k < n; ++k) ids.push_back(pool.acquire());
  for (const std::uint32_t id : ids) {
    const interlock::model::packet<State>& p = pool[id];
    CHECK(reinterpret_cast<std::uintptr_t>(&p) % 64 == 0);
    CHECK(end_of(p, p.route) <= 64);
    CHECK(end_of(p, p.age) <= 64);
    CHECK(end_of(p, p.hops) <= 64);
    CHECK(end_of(p, p.pattern) <= 64);
    CHECK(end_of(p, p.next_set) <= 64);
  }
}

}  // namespace

TEST_CASE("packet_pool: every record starts a cache line, what a hop reads in its first",
          "[model][packet]") {
  SECTION("dimension order: the whole record is one line") {
    CHECK(sizeof(interlock::model::packet<interlock::dimension_order_routing::state>) == 64);
    check_layout<interlock::dimension_order_routing::state>(33);
  }
  SECTION("Anton 2: a longer record, its hop fields still in the first line") {
    CHECK(sizeof(interlock::model::packet<interlock::anton2_routing::state>) > 64);
    check_layout<interlock::anton2_routing::state>(33);
  }
}

TEST_CASE("packet_pool: ids are reused, and a reused record starts fresh", "[model][packet]") {
  interlock::model::packet_pool<interlock::dimension_order_routing::state> pool;
  const std::uint32_t a = pool.acquire();
  const std::uint32_t b = pool.acquire();
  CHECK(a != b);
  pool[a].flits = 7;
  pool[a].age = 300;
  pool[a].hops = 5;
  pool[a].created = 99;
  pool.release(a);
  CHECK(pool.live() == 1);
  const std::uint32_t c = pool.acquire();
  CHECK(c == a);
  CHECK(pool.capacity() == 2);
  CHECK(pool[c].flits == 1);
  CHECK(pool[c].age == 0);
  CHECK(pool[c].hops == 0);
  CHECK(pool[c].created == 0);
}

TEST_CASE("record_store: the QoS switch's packets and messages in the model's store",
          "[model][packet]") {
  interlock::model::qos_switch::packets packets;
  const std::uint32_t a = packets.acquire();
  packets[a].flits = 16;
  packets[a].next = 3;
  packets.release(a);
  const std::uint32_t b = packets.acquire();
  CHECK(b == a);
  CHECK(packets[b].flits == 0);
  CHECK(packets[b].next == interlock::model::qos_switch::fifo_end);
  CHECK(packets.live() == 1);
  interlock::model::qos_switch::messages messages;
  const std::uint32_t m = messages.acquire();
  messages[m].remaining = 4;
  CHECK(messages.capacity() == 1);
  // A store's slots keep a record's own alignment unless given another.
  CHECK(interlock::model::qos_switch::messages::slot_alignment ==
        alignof(interlock::model::qos_switch::message));
}
