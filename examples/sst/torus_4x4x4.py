# SPDX-License-Identifier: BSL-1.0
# A 4x4x4 torus of Merlin hr_routers with one endpoint per router, crossbar
# arbitration by interlock's element (or Merlin's, to compare), uniform or
# all-to-one traffic. Copy it and change what your study needs.
#
#   sst examples/sst/torus_4x4x4.py --model-options="ARB TRAFFIC LOAD STATS.csv"
#     ARB      interlock.xbar_rr_merlin (default), interlock.xbar_rr, or any
#              Merlin crossbar arbitration (merlin.xbar_arb_rr, merlin.xbar_arb_lru, ...)
#     TRAFFIC  uniform (default: offered load, merlin.offered_load) or
#              all_to_one (every endpoint sends 20 packets to endpoint 0)
#     LOAD     the offered load of uniform traffic, 0..1 of the link rate (default 0.5)
#     STATS    where the routers' and endpoints' statistics go (default stats.csv)
import sys

import sst
from sst.merlin.base import *
from sst.merlin.endpoint import *
from sst.merlin.interface import *
from sst.merlin.targetgen import *
from sst.merlin.topology import *

args = sys.argv[1:]
arb = args[0] if len(args) > 0 else "interlock.xbar_rr_merlin"
traffic = args[1] if len(args) > 1 else "uniform"
load = float(args[2]) if len(args) > 2 else 0.5
stats = args[3] if len(args) > 3 else "stats.csv"
if traffic not in ("uniform", "all_to_one"):
    sys.exit("torus_4x4x4.py: TRAFFIC is %s, allowed uniform or all_to_one" % traffic)
if not 0 < load <= 1:
    sys.exit("torus_4x4x4.py: LOAD is %s, allowed 0 < LOAD <= 1" % load)

topo = topoTorus()
topo.shape = "4x4x4"
topo.width = "1x1x1"
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
sst.enableAllStatisticsForComponentType("merlin.simple_patterns.incast")
