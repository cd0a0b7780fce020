# SPDX-License-Identifier: BSL-1.0
# A 4x4x4 torus of Merlin hr_routers with one endpoint per router: crossbar
# arbitration and routing by interlock's element (or Merlin's, to compare),
# uniform or all-to-one traffic. Copy it and change what your study needs.
#
#   sst examples/integrations/sst/torus_4x4x4.py --model-options="KEY=VALUE ..."
#     arb=NAME        interlock.xbar_rr_merlin (default), interlock.xbar_rr,
#                     interlock.xbar_islip, interlock.xbar_islip4, interlock.xbar_age,
#                     interlock.xbar_separable, or any Merlin
#                     crossbar arbitration (merlin.xbar_arb_rr, merlin.xbar_arb_lru, ...)
#     topology=NAME   merlin (merlin.torus, the default) or interlock (interlock.torus:
#                     interlock's dimension-order routing, deadlock-checked)
#     routing=NAME    interlock.torus only: dimension_order (default), vc_promotion or
#                     direction_order (the Cray T3E, with vc_tables=toc|optimized and
#                     t3e_routes=minimal or a comma list of other_way,initial_hops,final_hop)
#     dateline=RULE   interlock.torus only: seastar (default), booksim2 or none
#     orders=SET      interlock.torus only: xyz (default) or all
#     age_period=N    interlock.torus only: AGE_CLK_PERIOD of the routers' age clocks, for
#                     arb=interlock.xbar_age (with age_bias=B, age_rr_select=age|rr|half),
#                     or auto ([Abts07] Section 3.2, with age_buffers=INPUT,STAGING,PACKET
#                     flits: 128,128,8 for this file's routers)
#     xbar_input=A, xbar_output=A, vc_priority=L, port_priority=L, iw_pattern=P
#                     interlock.torus only: the stages of arb=interlock.xbar_separable
#                     (input round_robin|priority; output round_robin|priority|
#                     inverse_weighted|age; iw_pattern a pattern, as uniform, tornado,
#                     reverse_tornado or all_to_one:N, or two, one per VN, for
#                     traffic=blend's labelled patterns)
#     shape=SHAPE     the torus (default 4x4x4)
#     traffic=NAME    uniform (default: offered load, merlin.offered_load),
#                     all_to_one (every endpoint sends 20 packets to endpoint 0) or
#                     blend (interlock.blend_endpoint: Bernoulli injection of
#                     `patterns`, pattern n on VN n; the routers get a VN per pattern)
#     patterns=LIST   traffic=blend's patterns: one, or two with shares, as
#                     tornado:0.5,reverse_tornado:0.5 (default uniform)
#     load=X          the offered load of uniform or blend traffic, 0 < X <= 1 (default 0.5)
#     seed=N          traffic=blend's endpoints' generators and interlock.torus's (default 1)
#     stats=FILE      where the routers' and endpoints' statistics go (default stats.csv)
import sys

import sst
from sst.merlin.base import *
from sst.merlin.endpoint import *
from sst.merlin.interface import *
from sst.merlin.targetgen import *
from sst.merlin.topology import *

options = {"arb": "interlock.xbar_rr_merlin", "topology": "merlin", "routing": "dimension_order",
           "dateline": "seastar",
           "orders": "xyz", "age_period": "", "age_bias": "1", "age_rr_select": "age",
           "age_buffers": "", "vc_tables": "", "t3e_routes": "", "xbar_input": "", "xbar_output": "",
           "vc_priority": "", "port_priority": "", "iw_pattern": "",
           "shape": "4x4x4", "traffic": "uniform", "patterns": "uniform", "load": "0.5", "seed": "1",
           "stats": "stats.csv"}
for arg in sys.argv[1:]:
    key, eq, value = arg.partition("=")
    if not eq or key not in options:
        sys.exit("torus_4x4x4.py: option %s; allowed %s, each as KEY=VALUE"
                 % (arg, ", ".join(sorted(options))))
    options[key] = value
arb = options["arb"]
traffic = options["traffic"]
stats = options["stats"]
try:
    load = float(options["load"])
except ValueError:
    load = -1
if traffic not in ("uniform", "all_to_one", "blend"):
    sys.exit("torus_4x4x4.py: traffic=%s; allowed uniform, all_to_one or blend" % traffic)
# (interlock.blend_endpoint validates the patterns; the routers need a VN for each)
vns = len(options["patterns"].split(",")) if traffic == "blend" else 1
if not 0 < load <= 1:
    sys.exit("torus_4x4x4.py: load=%s; allowed 0 < load <= 1" % options["load"])
if options["topology"] not in ("merlin", "interlock"):
    sys.exit("torus_4x4x4.py: topology=%s; allowed merlin or interlock" % options["topology"])


# interlock.torus's parameters that pass through as given (when not empty).
TOPOLOGY_PARAMS = ["routing", "dateline", "orders", "age_period", "age_bias", "age_rr_select",
                   "age_buffers", "vc_tables", "t3e_routes", "xbar_input", "xbar_output", "vc_priority",
                   "port_priority", "iw_pattern", "seed"]


class BlendJob(Job):
    """interlock.blend_endpoint on every node: labelled patterns, pattern n on VN n."""

    def __init__(self, job_id, size):
        Job.__init__(self, job_id, size)
        self._declareParams("main", ["num_peers", "shape", "patterns", "load", "link_bw",
                                     "packet_size", "warmup", "measure", "seed"])
        self.num_peers = size

    def getName(self):
        return "Blend Job"

    def build(self, nID, extraKeys):
        nic = sst.Component("blend_%d" % nID, "interlock.blend_endpoint")
        self._applyStatisticsSettings(nic)
        nic.addParams(self._getGroupParams("main"))
        nic.addParams(extraKeys)
        nic.addParam("id", self._nid_map[nID])
        return self.network_interface.build(nic, "networkIF", 0, self.job_id, self.size,
                                            self._nid_map[nID], True)


class InterlockTorus(topoTorus):
    """Merlin's torus wiring (the same port numbering) routed by interlock.torus."""

    def __init__(self):
        topoTorus.__init__(self)
        self._declareParams("main", TOPOLOGY_PARAMS)

    def _getTopologyName(self):
        return "interlock.torus"


if options["topology"] == "interlock":
    topo = InterlockTorus()
    for name in TOPOLOGY_PARAMS:
        if options[name] and (name not in ("age_bias", "age_rr_select", "age_buffers")
                              or options["age_period"]):
            setattr(topo, name, options[name])
else:
    topo = topoTorus()
topo.shape = options["shape"]
topo.width = "x".join("1" for _ in options["shape"].split("x"))
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
router.num_vns = vns
router.xbar_arb = arb
topo.router = router

networkif = LinkControl()
networkif.link_bw = "4GB/s"
networkif.input_buf_size = "1kB"
networkif.output_buf_size = "1kB"

nodes = topo.getNumNodes()
if traffic == "uniform":
    job = OfferedLoadJob(0, nodes)
    job.pattern = UniformTarget()
    job.offered_load = load
    job.link_bw = "4GB/s"
    job.message_size = "64B"
    job.warmup_time = "5us"
    job.collect_time = "20us"
    job.drain_time = "100us"
elif traffic == "blend":
    job = BlendJob(0, nodes)
    job.shape = options["shape"]
    job.patterns = options["patterns"]
    job.load = load
    job.link_bw = "4GB/s"
    job.packet_size = "64B"
    job.warmup = "5us"
    job.measure = "20us"
    job.seed = options["seed"]
else:
    job = IncastJob(0, nodes)
    job.target_nids = [0]
    job.packets_to_send = 20
    job.packet_size = "64B"
    job.delay_start = "0ns"
job.network_interface = networkif

system = System()
system.setTopology(topo)
system.allocateNodes(job, "linear")
system.build()

sst.setStatisticLoadLevel(9)
sst.setStatisticOutput("sst.statOutputCSV", {"filepath": stats, "separator": ","})
sst.enableAllStatisticsForComponentType("merlin.hr_router")
sst.enableAllStatisticsForComponentType("merlin.offered_load")
sst.enableAllStatisticsForComponentType("interlock.blend_endpoint")
sst.enableAllStatisticsForComponentType("merlin.simple_patterns.incast")
