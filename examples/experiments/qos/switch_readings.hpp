// SPDX-License-Identifier: BSL-1.0
// The QoS switch's readings of [QoSThesis] that qos_switch and qos_network
// both take as flags (docs/switch.md): --va-rule can_go|routed,
// --routing-unit pipelined|per_port|per_vl, --storing-unit
// pipelined|per_port|per_vl, --queues per_sc|per_vl and --crossbar-cycles
// whole|shared. take() reads
// one of them (bad_input naming the flag otherwise), apply() sets them on a
// switch_shape, settings() lists them resolved for --write-config.
#ifndef INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP
#define INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP

#include <interlock/model/switch/config.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"

namespace qos_tools {

struct switch_readings {
  std::string va = "routed", routing = "pipelined", storing = "pipelined";
  std::string queues = "per_sc", crossbar_cycles = "shared";

  /// Takes `flag` when it is one of the readings' flags.
  template <class Value>
  bool take(const std::string& flag, const Value& value) {
    if (flag == "--queues") {
      queues = one(flag, value(), {"per_sc", "per_vl"}, "one of per_sc, per_vl");
    } else if (flag == "--crossbar-cycles") {
      crossbar_cycles = one(flag, value(), {"whole", "shared"}, "one of whole, shared");
    } else if (flag == "--va-rule") {
      va = one(flag, value(), {"can_go", "routed"}, "one rule: can_go or routed");
    } else if (flag == "--routing-unit") {
      routing = one(flag, value(), {"pipelined", "per_port", "per_vl"},
                    "one of pipelined, per_port, per_vl");
    } else if (flag == "--storing-unit") {
      storing = one(flag, value(), {"pipelined", "per_port", "per_vl"},
                    "one of pipelined, per_port, per_vl");
    } else {
      return false;
    }
    return true;
  }

  void apply(interlock::model::switch_shape& shape) const {
    using interlock::model::va_rule;
    shape.va = va == "routed" ? va_rule::routed : va_rule::can_go;
    shape.routing = unit(routing);
    shape.storing = unit(storing);
    shape.sc_queues = queues == "per_sc";
    shape.share_cycles = crossbar_cycles == "shared";
  }

  std::vector<std::pair<std::string, std::string>> settings() const {
    return {{"va-rule", va},
            {"routing-unit", routing},
            {"storing-unit", storing},
            {"queues", queues},
            {"crossbar-cycles", crossbar_cycles}};
  }

 private:
  static interlock::model::routing_unit unit(const std::string& name) {
    using interlock::model::routing_unit;
    return name == "per_port" ? routing_unit::per_port
           : name == "per_vl" ? routing_unit::per_vl
                              : routing_unit::pipelined;
  }

  static std::string one(const std::string& flag, const std::string& text,
                         const std::vector<std::string>& allowed, const char* just_one) {
    const std::vector<std::string> v = cli::names(flag, text, allowed);
    if (v.size() != 1) throw cli::bad_input{flag + ": " + just_one};
    return v.front();
  }
};

}  // namespace qos_tools

#endif  // INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP
