// SPDX-License-Identifier: BSL-1.0
// interlock_info: what the programs accept, as sst-info is to SST: every
// arbiter, allocator, routing scheme, node shape, traffic pattern and QoS
// scheduler by the name its flag takes, with its parameters (flag, range,
// default), the paper it comes from and the programs that take it; and the
// presets with the values they set (from interlock/model/presets.hpp).
//
//   interlock_info                 everything, as text
//   interlock_info --kind arbiter  one kind
//   interlock_info --json          everything as one JSON document
#include <interlock/model/presets.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "catalogue.hpp"
#include "cli.hpp"
#include "settings.hpp"

namespace {

struct arguments {
  std::string kind;
  bool json = false;
};

const cli::setting_table<arguments>& settings() {
  using a = arguments;
  static const cli::setting_table<a> table({
      cli::custom<a>(
          "--kind", "KIND",
          "only one kind: arbiter, allocator, routing, node, traffic, qos_scheduler or preset",
          [](a& s, const std::string& v) {
            std::vector<std::string> allowed = cli::catalogue::kinds();
            allowed.push_back("preset");
            const std::vector<std::string> chosen = cli::names("--kind", v, allowed);
            if (chosen.size() != 1) throw cli::bad_input{"--kind: one kind at a time"};
            s.kind = chosen.front();
          },
          [](const a& s) { return s.kind; })
          .defaults("every kind"),
      cli::toggle<a>(
          "--json", [](auto& s) -> auto& { return s.json; }, "one JSON document instead of text"),
  });
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: interlock_info [--kind KIND] [--json]\n",
      "Lists what interlock's programs accept: every arbiter, allocator, routing\n"
      "scheme, node shape, traffic pattern and QoS scheduler by the name its flag\n"
      "takes, with each parameter's flag, range and default, the paper and the\n"
      "programs; then the presets (netsim --preset) with the values they set.\n",
      settings(), "Exit status: 0 listed; 2 bad input; 3 the output could not be written.\n");
}

// A preset's values, as the flags that set them.
std::vector<std::pair<std::string, std::string>> preset_values(const interlock::model::preset& p) {
  std::string radix, lengths;
  for (const std::size_t k : p.radix) radix += (radix.empty() ? "" : ",") + std::to_string(k);
  for (const auto& l : p.model.lengths)
    lengths += (lengths.empty() ? "" : ",") + std::to_string(l.flits) +
               (p.model.lengths.size() > 1 ? ":" + cli::real_text(l.share) : "");
  std::vector<std::pair<std::string, std::string>> v = {
      {"radix", radix},
      {"slices", std::to_string(p.slices)},
      {"node", p.node},
      {"scheme", p.scheme},
      {"arbiter", p.arbiter},
      {"buffer-flits", std::to_string(p.model.buffer_flits)},
      {"packet-flits", lengths},
      {"response-share", cli::real_text(p.model.response_share)},
      {"endpoint-bandwidth", cli::real_text(p.model.endpoint_bandwidth)},
      {"staging-flits", std::to_string(p.model.staging_flits)}};
  if (!p.orders.empty()) v.insert(v.begin() + 4, {"orders", p.orders});
  return v;
}

std::vector<interlock::model::preset> presets() {
  return {interlock::model::seastar_preset(), interlock::model::anton2_preset()};
}

void print_text(const std::string& kind) {
  bool first = true;
  for (const std::string& k : cli::catalogue::kinds()) {
    if (!kind.empty() && k != kind) continue;
    const char* flag = "";
    for (const auto& e : cli::catalogue::entries())
      if (k == e.kind) flag = e.flag;
    std::printf("%s%s (%s)\n", first ? "" : "\n", k.c_str(), flag);
    first = false;
    for (const auto& e : cli::catalogue::entries()) {
      if (k != e.kind) continue;
      std::printf("  %-24s %s\n", e.name, e.what);
      if (e.reference[0] != '\0') std::printf("  %-24s from %s\n", "", e.reference);
      std::printf("  %-24s in %s\n", "", e.programs);
      for (const auto& p : e.parameters)
        std::printf("    %-22s %s; %s (default %s)\n", p.flag, p.what, p.range, p.default_value);
    }
  }
  if (kind.empty() || kind == "preset") {
    std::printf("%spreset (netsim --preset): the values each sets, which other flags override\n",
                first ? "" : "\n");
    for (const auto& p : presets()) {
      std::printf("  %-24s", p.name.c_str());
      for (const auto& v : preset_values(p))
        std::printf(" %s=%s", v.first.c_str(), v.second.c_str());
      std::printf("\n");
    }
  }
}

std::string json_document(const std::string& kind) {
  using cli::json::string;
  std::string out = "{" + cli::json::header("interlock_info");
  for (const std::string& k : cli::catalogue::kinds()) {
    if (!kind.empty() && k != kind) continue;
    std::string list;
    for (const auto& e : cli::catalogue::entries()) {
      if (k != e.kind) continue;
      std::string parameters;
      for (const auto& p : e.parameters)
        parameters += std::string(parameters.empty() ? "" : ", ") + "{" + string("flag") + ": " +
                      string(p.flag) + ", " + string("range") + ": " + string(p.range) + ", " +
                      string("default") + ": " + string(p.default_value) + ", " + string("what") +
                      ": " + string(p.what) + "}";
      list += std::string(list.empty() ? "" : ",\n    ") + "{" + string("name") + ": " +
              string(e.name) + ", " + string("flag") + ": " + string(e.flag) + ", " +
              string("what") + ": " + string(e.what) + ", " + string("reference") + ": " +
              string(e.reference) + ", " + string("programs") + ": " + string(e.programs) + ", " +
              string("parameters") + ": [" + parameters + "]}";
    }
    out += ",\n  " + string(k) + ": [\n    " + list + "]";
  }
  if (kind.empty() || kind == "preset") {
    std::string list;
    for (const auto& p : presets())
      list += std::string(list.empty() ? "" : ",\n    ") + "{" + string("name") + ": " +
              string(p.name) + ", " + string("values") + ": " +
              cli::json::object(preset_values(p)) + "}";
    out += ",\n  " + string("preset") + ": [\n    " + list + "]";
  }
  return out + "\n}";
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string& kind = given.kind;
  const bool json = given.json;
  if (json) {
    std::printf("%s\n", json_document(kind).c_str());
  } else {
    print_text(kind);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("interlock_info", help.c_str(), "none expected", argc, argv,
                       [&] { return run(argc, argv); });
}
