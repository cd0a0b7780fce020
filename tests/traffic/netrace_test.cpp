// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/netrace.hpp: traces the tests write, read back
// field by field, and every malformed field refused at its byte offset.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <interlock/traffic/netrace.hpp>
#include <interlock/traffic/netrace_writer.hpp>

#include "support/interlock_test.hpp"

namespace nt = interlock::netrace;

namespace {

nt::written_header small_header() {
  nt::written_header h;
  h.benchmark = "a test trace";
  h.nodes = 16;
  h.cycles = 100;
  h.notes = "three packets";
  return h;
}

std::vector<nt::written_packet> three_packets() {
  return {{5, 0, 0x1000, 1, 3, 9, 0x02, {1, 2}},  // a read request, L1 data -> L2
          {40, 1, 0x1000, 2, 9, 3, 0x20, {}},     // its response
          {100, 2, 0x2040, 6, 3, 15, 0x03, {}}};  // a writeback to a memory controller
}

// Every packet of `bytes`, or the error's message.
std::string read_all(const std::vector<std::uint8_t>& bytes, std::vector<nt::packet>* out = nullptr,
                     std::vector<std::vector<std::uint32_t>>* deps = nullptr) {
  try {
    nt::reader<nt::memory_source> r(nt::memory_source(bytes), "t.tra");
    nt::packet p;
    while (r.next(p)) {
      if (out) out->push_back(p);
      if (deps) deps->emplace_back(p.dependencies.begin(), p.dependencies.end());
    }
  } catch (const nt::error& e) {
    return e.what();
  }
  return "read";
}

void put(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) b.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

// Where things are in three_packets()'s trace: the notes (14 bytes with
// their NUL) and one region follow the 72-byte header.
constexpr std::size_t notes_at = 72, region_at = 72 + 14, first_packet = region_at + 24;
constexpr std::size_t second_packet = first_packet + 21 + 8;

}  // namespace

TEST_CASE("netrace: a trace reads back field by field", "[netrace]") {
  const std::vector<std::uint8_t> bytes = nt::write_trace(small_header(), three_packets());
  nt::reader<nt::memory_source> r(nt::memory_source(bytes), "t.tra");
  CHECK(r.info().benchmark == "a test trace");
  CHECK(r.info().nodes == 16);
  CHECK(r.info().cycles == 100);
  CHECK(r.info().packets == 3);
  CHECK(r.info().notes == "three packets");
  REQUIRE(r.info().regions.size() == 1);
  CHECK(r.info().regions[0].packets == 3);
  CHECK(r.info().size() == first_packet);
  nt::packet p;
  REQUIRE(r.next(p));
  CHECK(p.cycle == 5);
  CHECK(p.id == 0);
  CHECK(p.address == 0x1000);
  CHECK(p.type == 1);
  CHECK(p.bytes() == 8);
  CHECK(p.source == 3);
  CHECK(p.destination == 9);
  CHECK(p.source_type() == nt::node_type::l1_data);
  CHECK(p.destination_type() == nt::node_type::l2);
  CHECK(std::vector<std::uint32_t>(p.dependencies.begin(), p.dependencies.end()) ==
        std::vector<std::uint32_t>{1, 2});
  REQUIRE(r.next(p));
  CHECK(p.bytes() == 72);
  CHECK(nt::is_response(p.type));
  CHECK(p.dependencies.empty());
  REQUIRE(r.next(p));
  CHECK(p.destination_type() == nt::node_type::memory_controller);
  CHECK_FALSE(r.next(p));
  CHECK(r.packets_read() == 3);
  CHECK(r.offset() == bytes.size());
}

TEST_CASE("netrace: the packet types' sizes are Netrace's", "[netrace]") {
  CHECK(nt::bytes_of(1) == 8);    // ReadReq
  CHECK(nt::bytes_of(2) == 72);   // ReadResp
  CHECK(nt::bytes_of(0) == 0);    // InvalidCmd
  CHECK(nt::bytes_of(25) == 8);   // BadAddressError
  CHECK(nt::bytes_of(30) == 72);  // DowngradeResp
  CHECK(nt::bytes_of(31) == 0);
  int valid = 0;
  for (unsigned t = 0; t < 31; ++t) valid += nt::bytes_of(static_cast<std::uint8_t>(t)) != 0;
  CHECK(valid == 15);
  CHECK(std::string(nt::type_names[27]) == "InvalidateReq");
}

TEST_CASE("netrace: every malformed field is refused at its byte offset", "[netrace]") {
  const std::vector<std::uint8_t> good = nt::write_trace(small_header(), three_packets());
  REQUIRE(read_all(good) == "read");
  const auto with = [&](std::size_t at, std::uint64_t v, unsigned bytes) {
    std::vector<std::uint8_t> b = good;
    put(b, at, v, bytes);
    return read_all(b);
  };
  CHECK(with(0, 0x12345678, 4) ==
        "t.tra: byte 0: magic = 0x12345678; allowed: 0x484a5455 (a Netrace trace; a compressed "
        "one is read through netrace_bzip2.hpp)");
  float two = 2.0f;
  std::uint32_t two_bits = 0;
  std::memcpy(&two_bits, &two, 4);
  CHECK(with(4, two_bits, 4) == "t.tra: byte 4: version = 2.000000; allowed: 1.0");
  CHECK(with(38, 0, 1) == "t.tra: byte 38: nodes = 0; allowed: 1..255");
  CHECK(with(56, 70000, 4) == "t.tra: byte 56: notes length = 70000; allowed: 0..65536");
  CHECK(with(60, 70000, 4) == "t.tra: byte 60: regions = 70000; allowed: 0..65536");
  CHECK(with(notes_at + 13, 'x', 1) ==
        "t.tra: byte 85: notes = text without its terminating NUL; allowed: notes ending in NUL");
  CHECK(with(region_at + 16, 4, 8) ==
        "t.tra: byte 86: regions = 4 packets in 100 cycles; allowed: the header's 3 packets in "
        "100 cycles");
  CHECK(with(second_packet, 4, 8) ==
        "t.tra: byte 139: packet 1 cycle = 4; allowed: 5..100 (not before the previous packet, "
        "not after the trace's cycles)");
  CHECK(with(second_packet, 101, 8).find("packet 1 cycle = 101") != std::string::npos);
  CHECK(with(first_packet + 16, 7, 1) ==
        "t.tra: byte 126: packet 0 type = 7; allowed: a valid Netrace packet type");
  CHECK(with(first_packet + 16, 31, 1).find("type = 31") != std::string::npos);
  CHECK(with(first_packet + 17, 16, 1) ==
        "t.tra: byte 127: packet 0 source = 16; allowed: 0..15 (the trace's nodes)");
  CHECK(with(first_packet + 18, 200, 1) ==
        "t.tra: byte 128: packet 0 destination = 200; allowed: 0..15 (the trace's nodes)");
  CHECK(with(first_packet + 19, 0x42, 1) ==
        "t.tra: byte 129: packet 0 node types = 0x42; allowed: a nibble 0..3 each (L1 data, L1 "
        "instruction, L2, memory controller)");
  CHECK(with(first_packet + 19, 0x24, 1).find("node types = 0x24") != std::string::npos);
  CHECK(with(first_packet + 25, 0, 4) ==
        "t.tra: byte 135: packet 0 dependency = 0; allowed: another packet's id (not its own)");
  std::vector<std::uint8_t> four = good;
  put(four, 48, 4, 8);
  put(four, region_at + 16, 4, 8);
  CHECK(read_all(four) ==
        "t.tra: byte 181: packets = 3 (the end of the trace); allowed: 4 (the header's count)");
}

TEST_CASE("netrace: a trace cut anywhere is refused, naming where it ends", "[netrace]") {
  const std::vector<std::uint8_t> good = nt::write_trace(small_header(), three_packets());
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(n));
    const std::string message = read_all(cut);
    INFO("cut at " << n << ": " << message);
    CHECK(message != "read");
    CHECK(message.rfind("t.tra: byte ", 0) == 0);
  }
  std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(first_packet + 10));
  CHECK(read_all(cut) ==
        "t.tra: byte 110: packet 0 = the end of the trace after 10 bytes; allowed: 21 bytes");
  cut.assign(good.begin(), good.begin() + static_cast<long>(first_packet + 25));
  CHECK(read_all(cut) ==
        "t.tra: byte 135: packet 0 dependencies = the end of the trace after 1; allowed: 2 "
        "dependency ids");
  std::vector<std::uint8_t> more = good;
  const std::vector<std::uint8_t> extra =
      nt::write_trace(small_header(), {{100, 3, 0, 1, 0, 1, 0, {}}});
  more.insert(more.end(), extra.end() - 21, extra.end());
  CHECK(read_all(more) ==
        "t.tra: byte 181: packets = more than 3; allowed: 3 (the header's count)");
}

TEST_CASE("netrace: regions are checked, and a region is read alone", "[netrace]") {
  // Two regions by hand: packets 0-1 in cycles 0..49, packet 2 in 50..99.
  std::vector<std::uint8_t> b = nt::write_trace(small_header(), three_packets());
  std::vector<std::uint8_t> two(b.begin(), b.begin() + static_cast<long>(region_at));
  put(two, 60, 2, 4);
  const auto region = [&](std::uint64_t seek, std::uint64_t cycles, std::uint64_t packets) {
    for (const std::uint64_t v : {seek, cycles, packets})
      for (unsigned i = 0; i < 8; ++i) two.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  region(0, 50, 2);
  region(21 + 8 + 21, 50, 1);
  two.insert(two.end(), b.begin() + static_cast<long>(first_packet), b.end());
  REQUIRE(read_all(two) == "read");

  nt::reader<nt::memory_source> r(nt::memory_source(two), "t.tra");
  r.seek_region(1);
  CHECK(r.region_start() == 50);
  nt::packet p;
  REQUIRE(r.next(p));
  CHECK(p.id == 2);
  CHECK_FALSE(r.next(p));

  nt::reader<nt::memory_source> beyond(nt::memory_source(two), "t.tra");
  CHECK_THROWS_WITH(beyond.seek_region(2),
                    "t.tra: byte 134: region = 2; allowed: 0..1 (the trace's regions)");

  std::vector<std::uint8_t> backwards = two;
  put(backwards, region_at + 24, 0, 8);
  put(backwards, region_at, 10, 8);
  CHECK(read_all(backwards) ==
        "t.tra: byte 110: region 1 seek offset = 0; allowed: at least the previous region's, 10");
}

namespace {
// tests/data/netsim/chain16.tra, which netsim's tests replay: eight reads
// between opposite corners of a 4x4 torus, each request waiting for the
// previous response, and eight independent writebacks.
std::vector<std::uint8_t> chain16() {
  std::vector<nt::written_packet> v;
  std::uint32_t id = 0;
  for (std::uint32_t k = 0; k < 8; ++k) {
    nt::written_packet request{10u * k, id, 0x1000u + 64u * k, 1, 0, 10, 0x02, {id + 1}};
    nt::written_packet response{10u * k, id + 1, 0x1000u + 64u * k, 2, 10, 0, 0x20, {}};
    if (k < 7) response.dependencies = {id + 2};
    v.push_back(request);
    v.push_back(response);
    id += 2;
  }
  for (std::uint32_t k = 0; k < 8; ++k)
    v.push_back({70u + k,
                 id++,
                 0x8000u + 64u * k,
                 6,
                 static_cast<std::uint8_t>(k),
                 static_cast<std::uint8_t>(15 - k),
                 0x23,
                 {}});
  return nt::write_trace({"chain of 8 reads", 16, 77, "interlock test trace"}, v);
}
std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("netrace: netsim's test traces are what write_trace writes", "[netrace]") {
  const std::string dir = std::string(INTERLOCK_TEST_DATA) + "/netsim/";
  const std::vector<std::uint8_t> bytes = chain16();
  CHECK(file_bytes(dir + "chain16.tra") == bytes);
  const std::vector<std::uint8_t> cut = file_bytes(dir + "cut16.tra");
  CHECK(cut == std::vector<std::uint8_t>(bytes.begin(), bytes.end() - 10));
  nt::reader<nt::file_source> r(nt::file_source(dir + "chain16.tra"), "chain16.tra");
  nt::packet p;
  std::size_t n = 0;
  while (r.next(p)) ++n;
  CHECK(n == 24);
  CHECK_THROWS_WITH(nt::file_source(dir + "none.tra"),
                    Catch::Matchers::StartsWith(dir + "none.tra: cannot open"));
}
