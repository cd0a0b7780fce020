// SPDX-License-Identifier: BSL-1.0
// The QoS switch's readings of [QoSThesis] that qos_switch and qos_network
// both take as flags (docs/switch.md): --va-rule can_go|routed,
// --routing-unit pipelined|per_port|per_vl, --storing-unit
// pipelined|per_port|per_vl, --queues per_sc|per_vl and --crossbar-cycles
// whole|shared. settings_of<S>() declares them for a program's setting
// table (cli/settings.hpp); apply() sets them on a qos_switch::shape.
#ifndef INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP
#define INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP

#include <interlock/model/qos_switch/shape.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "settings.hpp"

namespace qos_tools {

struct switch_readings {
  std::string va = "routed", routing = "pipelined", storing = "pipelined";
  std::string queues = "per_sc", crossbar_cycles = "shared";

  /// The readings as settings of a program whose settings S hold them as
  /// `readings`, each a result setting, in --help's order.
  template <class S>
  static std::vector<cli::setting<S>> settings_of() {
    return {
        cli::one_of<S>(
            "--va-rule", [](auto& s) -> auto& { return s.readings.va; }, {"can_go", "routed"},
            "what an input arbiter offers in the virtual allocation: routed (every VL with a "
            "routed head, Section 2.2.1's sentence; a pick without room costs the input that "
            "cycle) or can_go (VLs whose routed head has room where it goes)"),
        cli::one_of<S>(
            "--crossbar-cycles", [](auto& s) -> auto& { return s.readings.crossbar_cycles; },
            {"whole", "shared"},
            "shared (packets under a crossbar link's speed-up share its cycles, so x3 moves "
            "three 1-flit packets) or whole (a packet takes whole cycles of a link)"),
        cli::one_of<S>(
            "--queues", [](auto& s) -> auto& { return s.readings.queues; }, {"per_sc", "per_vl"},
            "output buffers and NICs keep a FIFO per SC inside each VL, so a scheduler can serve "
            "an SC queued behind another of the same VL (per_sc), or one FIFO per VL"),
        cli::one_of<S>(
            "--routing-unit", [](auto& s) -> auto& { return s.readings.routing; },
            {"pipelined", "per_port", "per_vl"},
            "an input buffer's routing unit: pipelined (every header routed RT after it is "
            "stored), per_port (one header at a time, RT cycles each) or per_vl (one unit per "
            "VL)"),
        cli::one_of<S>(
            "--storing-unit", [](auto& s) -> auto& { return s.readings.storing; },
            {"pipelined", "per_port", "per_vl"},
            "an input or output buffer's write stage: pipelined (every packet stored SB after "
            "it arrives), per_port (one packet at a time, SB cycles each) or per_vl (one per "
            "VL)"),
    };
  }

  void apply(interlock::model::qos_switch::shape& shape) const {
    using interlock::model::qos_switch::va_rule;
    shape.va = va == "routed" ? va_rule::routed : va_rule::can_go;
    shape.routing = unit(routing);
    shape.storing = unit(storing);
    shape.sc_queues = queues == "per_sc";
    shape.share_cycles = crossbar_cycles == "shared";
  }

 private:
  static interlock::model::qos_switch::routing_unit unit(const std::string& name) {
    using interlock::model::qos_switch::routing_unit;
    return name == "per_port" ? routing_unit::per_port
           : name == "per_vl" ? routing_unit::per_vl
                              : routing_unit::pipelined;
  }
};

}  // namespace qos_tools

#endif  // INTERLOCK_EXAMPLES_QOS_SWITCH_READINGS_HPP
