# SPDX-License-Identifier: BSL-1.0
# The parking lot ([Abts07] Section 2, Figure 4) on Merlin: 8 hr_routers on a
# line (Merlin's mesh wiring) or a ring, one interlock.flow_endpoint each,
# every endpoint but the last sending to it as fast as the network takes
# packets; the last counts each source's packets over the window. Routing is
# interlock.torus's dimension order; the crossbar arbitration is one of
# interlock's:
#
#   sst examples/integrations/sst/parking_lot.py --model-options="KEY=VALUE ..."
#     arb=NAME       rr (default: interlock.xbar_separable, round robin in both stages),
#                    age (interlock.xbar_age, the SeaStar's, AGE_CLK_PERIOD age_period,
#                    bias age_bias), iw (interlock.xbar_separable with inverse-weighted
#                    output arbiters, weights from the all-to-destination loads) or
#                    merlin_age (Merlin's merlin.xbar_arb_age: oldest by injection time)
#     network=NAME   line (default) or ring
#     nodes=N        routers (default 8); the destination is the last, N - 1
#     age_period=N   AGE_CLK_PERIOD for arb=age (default auto: [Abts07] Section 3.2's
#                    methodology for this network and these routers' buffers, which
#                    interlock.torus computes and prints)
#     age_bias=B     the age bias for arb=age (default: the methodology's)
#     warmup=T, measure=T   the window (default 20us, 200us)
#     stats=FILE     the statistics (default parking_lot.csv)
# The destination prints one line per source: packets, share, mean latency.
import sys

import sst
from sst.merlin.base import *
from sst.merlin.interface import *
from sst.merlin.topology import *

options = {"arb": "rr", "network": "line", "nodes": "8", "age_period": "auto", "age_bias": "",
           "warmup": "20us", "measure": "200us", "stats": "parking_lot.csv"}
for arg in sys.argv[1:]:
    key, eq, value = arg.partition("=")
    if not eq or key not in options:
        sys.exit("parking_lot.py: option %s; allowed %s, each as KEY=VALUE"
                 % (arg, ", ".join(sorted(options))))
    options[key] = value
if options["arb"] not in ("rr", "age", "iw", "merlin_age"):
    sys.exit("parking_lot.py: arb=%s; allowed rr, age, iw or merlin_age" % options["arb"])
if options["network"] not in ("line", "ring"):
    sys.exit("parking_lot.py: network=%s; allowed line or ring" % options["network"])
if not options["nodes"].isdigit() or not 2 <= int(options["nodes"]) <= 64:
    sys.exit("parking_lot.py: nodes=%s; allowed 2..64" % options["nodes"])
nodes = int(options["nodes"])
destination = nodes - 1


class InterlockLine(topoMesh):
    """Merlin's mesh wiring (a line for one dimension) routed by interlock.torus."""

    def __init__(self, wrap):
        topoMesh.__init__(self)
        self._declareParams("main", ["wrap", "xbar_output", "iw_pattern", "age_period",
                                     "age_bias", "age_buffers"])
        self.wrap = wrap

    def _getTopologyName(self):
        return "interlock.torus"

    def _includeWrapLinks(self):
        return self.wrap == "1"


class FlowJob(Job):
    """interlock.flow_endpoint on every node, all sending to `destination`."""

    def __init__(self, job_id, size):
        Job.__init__(self, job_id, size)
        self._declareParams("main", ["num_peers", "destination", "packet_size", "warmup",
                                     "measure"])
        self.num_peers = size

    def getName(self):
        return "Flow Job"

    def build(self, nID, extraKeys):
        nic = sst.Component("flow_%d" % nID, "interlock.flow_endpoint")
        self._applyStatisticsSettings(nic)
        nic.addParams(self._getGroupParams("main"))
        nic.addParams(extraKeys)
        nic.addParam("id", self._nid_map[nID])
        return self.network_interface.build(nic, "networkIF", 0, self.job_id, self.size,
                                            self._nid_map[nID], True)


topo = InterlockLine("0" if options["network"] == "line" else "1")
topo.shape = str(nodes)
topo.width = "1"
topo.local_ports = 1
topo.link_latency = "20ns"
topo.host_link_latency = "10ns"

router = hr_router()
router.link_bw = "4GB/s"
router.xbar_bw = "4GB/s"
router.flit_size = "8B"
router.input_latency = "20ns"
router.output_latency = "20ns"
router.input_buf_size = "1kB"
router.output_buf_size = "1kB"
router.num_vns = 1
if options["arb"] == "merlin_age":
    router.xbar_arb = "merlin.xbar_arb_age"  # Merlin's: a global age, from injection
elif options["arb"] == "age":
    router.xbar_arb = "interlock.xbar_age"
    topo.age_period = options["age_period"]
    if options["age_bias"]:
        topo.age_bias = options["age_bias"]
    topo.age_buffers = "128,128,8"  # 1kB input and output buffers and 64B packets of 8B flits
else:
    router.xbar_arb = "interlock.xbar_separable"
    if options["arb"] == "iw":
        topo.xbar_output = "inverse_weighted"
        topo.iw_pattern = "all_to_one:%d" % destination
topo.router = router

networkif = LinkControl()
networkif.link_bw = "4GB/s"
networkif.input_buf_size = "1kB"
networkif.output_buf_size = "64B"  # one packet: latency from the send is mostly the network's

job = FlowJob(0, nodes)
job.destination = destination
job.packet_size = "64B"
job.warmup = options["warmup"]
job.measure = options["measure"]
job.network_interface = networkif

system = System()
system.setTopology(topo)
system.allocateNodes(job, "linear")
system.build()

sst.setStatisticLoadLevel(9)
sst.setStatisticOutput("sst.statOutputCSV", {"filepath": options["stats"], "separator": ","})
sst.enableAllStatisticsForComponentType("interlock.flow_endpoint")
sst.enableAllStatisticsForComponentType("merlin.hr_router")
