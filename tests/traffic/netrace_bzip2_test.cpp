// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/netrace_bzip2.hpp: compressed traces read
// through libbz2, whole, concatenated, corrupt and cut short, and a pipe
// read once.
#include <bzlib.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <interlock/traffic/netrace_bzip2.hpp>
#include <interlock/traffic/netrace_writer.hpp>

#include "support/interlock_test.hpp"

namespace nt = interlock::netrace;

namespace {

std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& raw) {
  std::vector<char> out(raw.size() + raw.size() / 100 + 600);
  unsigned size = static_cast<unsigned>(out.size());
  std::vector<char> in(raw.begin(), raw.end());
  REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &size, in.data(), static_cast<unsigned>(in.size()),
                                   1, 0, 0) == BZ_OK);
  return std::vector<std::uint8_t>(out.begin(), out.begin() + size);
}

std::string temp_file(const std::string& name, const std::vector<std::uint8_t>& bytes) {
  const std::string path = std::string(INTERLOCK_BZIP2_TEMP_DIR) + "/" + name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

// Every decompressed byte, read `chunk` at a time.
template <class Source>
std::vector<std::uint8_t> drain(Source s, std::size_t chunk) {
  std::vector<std::uint8_t> all, buffer(chunk);
  for (std::size_t k; (k = s.read(buffer.data(), chunk)) > 0;)
    all.insert(all.end(), buffer.begin(), buffer.begin() + static_cast<long>(k));
  return all;
}

// A trace of `n` packets, large enough for several bzip2 blocks at level 1.
std::vector<std::uint8_t> big_trace(std::uint32_t n) {
  interlock_test::splitmix rng(42);
  std::vector<nt::written_packet> v;
  for (std::uint32_t id = 0; id < n; ++id)
    v.push_back({id / 4u,
                 id,
                 static_cast<std::uint32_t>(rng()),
                 2,
                 static_cast<std::uint8_t>(rng.below(64)),
                 static_cast<std::uint8_t>(rng.below(64)),
                 0x20,
                 {}});
  return nt::write_trace({"big", 64, (n - 1) / 4u, ""}, v);
}

std::string failure(const std::string& path) {
  try {
    nt::reader<nt::trace_source> r(nt::trace_source(path), path);
    nt::packet p;
    while (r.next(p)) {
    }
  } catch (const nt::error& e) {
    return e.what();
  }
  return "read";
}

}  // namespace

TEST_CASE("netrace bzip2: the committed test trace decompresses to its raw bytes", "[netrace]") {
  const std::string dir = std::string(INTERLOCK_TEST_DATA) + "/netsim/";
  std::ifstream raw_in(dir + "chain16.tra", std::ios::binary);
  const std::vector<std::uint8_t> raw(std::istreambuf_iterator<char>(raw_in), {});
  REQUIRE(!raw.empty());
  CHECK(drain(nt::bzip2_source(dir + "chain16.tra.bz2"), 7) == raw);
  CHECK(nt::trace_source(dir + "chain16.tra.bz2").compressed());
  CHECK_FALSE(nt::trace_source(dir + "chain16.tra").compressed());
  CHECK(drain(nt::trace_source(dir + "chain16.tra"), 100) == raw);
  CHECK(failure(dir + "chain16.tra.bz2") == "read");
}

TEST_CASE("netrace bzip2: large, concatenated, corrupt and cut-short files", "[netrace]") {
  const std::vector<std::uint8_t> raw = big_trace(60000);  // about 1.3 MB: two blocks at level 1
  const std::vector<std::uint8_t> packed = compress(raw);
  CHECK(drain(nt::bzip2_source(temp_file("big.tra.bz2", packed)), 4096) == raw);
  CHECK(failure(temp_file("big.tra.bz2", packed)) == "read");

  // Two streams back to back, as parallel compressors write: one trace.
  const std::size_t half = raw.size() / 2;
  std::vector<std::uint8_t> two = compress({raw.begin(), raw.begin() + static_cast<long>(half)});
  const std::vector<std::uint8_t> second =
      compress({raw.begin() + static_cast<long>(half), raw.end()});
  two.insert(two.end(), second.begin(), second.end());
  CHECK(drain(nt::bzip2_source(temp_file("two.tra.bz2", two)), 999) == raw);

  // A flipped byte: libbz2's block check refuses the block (the reader may
  // first meet a field the garbage breaks).
  std::vector<std::uint8_t> corrupt = packed;
  corrupt[corrupt.size() / 2] ^= 0x55;
  const std::string corrupt_path = temp_file("corrupt.tra.bz2", corrupt);
  CHECK_THROWS_WITH(drain(nt::bzip2_source(corrupt_path), 4096),
                    Catch::Matchers::Contains("corrupt.tra.bz2 (compressed): byte ") &&
                        Catch::Matchers::Contains("bzip2 stream = corrupt bzip2 data"));
  CHECK(failure(corrupt_path) != "read");

  const std::vector<std::uint8_t> cut(packed.begin(),
                                      packed.begin() + static_cast<long>(packed.size() / 3));
  CHECK(failure(temp_file("cut.tra.bz2", cut))
            .find("bzip2 stream = the end of the file inside a bzip2 stream") != std::string::npos);

  // Not a trace once decompressed: the reader names the field.
  const std::vector<std::uint8_t> text = compress(std::vector<std::uint8_t>(100, 'x'));
  CHECK(failure(temp_file("text.bz2", text)).find("byte 0: magic = 0x78787878") !=
        std::string::npos);
  CHECK_THROWS_WITH(nt::bzip2_source("/nonexistent/x.bz2"),
                    Catch::Matchers::StartsWith("/nonexistent/x.bz2: cannot open"));
}

TEST_CASE("netrace bzip2: trace_source reads a pipe once, compressed or not", "[netrace]") {
  const std::string dir = std::string(INTERLOCK_TEST_DATA) + "/netsim/";
  for (const char* name : {"chain16.tra", "chain16.tra.bz2"}) {
    std::ifstream in(dir + name, std::ios::binary);
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    std::ifstream raw_in(dir + "chain16.tra", std::ios::binary);
    const std::vector<std::uint8_t> raw(std::istreambuf_iterator<char>(raw_in), {});
    const std::string fifo = std::string(INTERLOCK_BZIP2_TEMP_DIR) + "/pipe_" + name;
    std::remove(fifo.c_str());
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    // The writer's open blocks until the reader's, and then writes once.
    std::thread writer([&] {
      std::ofstream(fifo, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    });
    std::vector<std::uint8_t> read;
    {
      nt::trace_source source(fifo);
      CHECK(source.compressed() == (std::string(name).back() == '2'));
      read = drain(std::move(source), 5);
    }
    writer.join();
    CHECK(read == raw);
    std::remove(fifo.c_str());
  }
  // Fewer bytes than a bzip2 signature: given back as they are.
  CHECK(drain(nt::trace_source(temp_file("two_bytes", {'B', 'Z'})), 8) ==
        std::vector<std::uint8_t>{'B', 'Z'});
}
