// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_payload.h: the payload of the element's endpoints' packets
// (interlock.flow_endpoint, interlock.blend_endpoint): when the packet was made, in ns,
// serialized across ranks and into checkpoints.
#ifndef INTERLOCK_SST_INTERLOCK_PAYLOAD_H
#define INTERLOCK_SST_INTERLOCK_PAYLOAD_H

#include <sst/core/event.h>
#include <sst/core/sst_types.h>

namespace interlock_sst {

/// A packet's payload: when its source made it.
class timed_payload : public SST::Event {
 public:
  timed_payload() = default;
  explicit timed_payload(SST::SimTime_t made_ns) : made(made_ns) {}
  SST::Event* clone() override { return new timed_payload(*this); }
  SST::SimTime_t made = 0;  // ns

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    SST::Event::serialize_order(ser);
    SST_SER(made);
  }
  ImplementSerializable(interlock_sst::timed_payload)
};

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_PAYLOAD_H
