# SPDX-License-Identifier: BSL-1.0
# MPI communication patterns on interlock's arbiters: a 4x4x4 torus of Merlin
# hr_routers, one MPI rank per router, running one of SST Ember's motifs
# through Firefly's NIC and Hermes' MPI. The simulation ends when every rank
# has finished the motif; its simulated time is the motif's completion time.
#
#   sst examples/integrations/sst/ember_4x4x4.py --model-options="KEY=VALUE ..."
#     motif=NAME      halo3d (default), sweep3d, alltoall, allreduce or fft
#     arb=NAME        the routers' crossbar arbitration: interlock.xbar_rr (default),
#                     interlock.xbar_islip, interlock.xbar_age (with topology=interlock
#                     and age_period), interlock.xbar_separable (with
#                     topology=interlock and its xbar_output), or any Merlin one
#     topology=NAME   merlin (merlin.torus, the default) or interlock (interlock.torus)
#     age_period=N, xbar_output=A, iw_pattern=P
#                     interlock.torus's parameters, as torus_4x4x4.py takes them
#     stats=FILE      the routers' statistics (default ember_stats.csv)
#
# Each motif's size is fixed here, so its runs compare across arbitrations.
# Every message is under 1 KiB: with SST 16.0.0's firefly-defaults platform a
# motif with larger messages (and SST's own dragon_128_allreduce.py with
# Allreduce count=128 or more) ends at once with an empty event queue.
#   halo3d     Halo3D on 4x4x4 ranks, 8^3 cells each (512-byte faces), 10 iterations
#   sweep3d    Sweep3D on 8x8 ranks, 8x8x64 cells, KBA blocks of 8, 1 field, 1 iteration
#   alltoall   Alltoall of 512 bytes, 4 iterations
#   allreduce  Allreduce of 64 doubles, 20 iterations
#   fft        FFT3D of 16^3 points on an 8x8 decomposition, 1 iteration
import sys

import sst
from sst.ember import *
from sst.merlin.base import *
from sst.merlin.endpoint import *
from sst.merlin.interface import *
from sst.merlin.topology import *

MOTIFS = {
    "halo3d": "Halo3D pex=4 pey=4 pez=4 nx=8 ny=8 nz=8 iterations=10",
    "sweep3d": "Sweep3D pex=8 pey=8 nx=8 ny=8 nz=64 kba=8 fields_per_cell=1 iterations=1",
    "alltoall": "Alltoall bytes=512 iterations=4",
    "allreduce": "Allreduce count=64 iterations=20",
    "fft": "FFT3D nx=16 ny=16 nz=16 npRow=8 iterations=1",
}
options = {"motif": "halo3d", "arb": "interlock.xbar_rr", "topology": "merlin",
           "age_period": "", "xbar_output": "", "iw_pattern": "", "stats": "ember_stats.csv"}
for arg in sys.argv[1:]:
    key, eq, value = arg.partition("=")
    if not eq or key not in options:
        sys.exit("ember_4x4x4.py: option %s; allowed %s, each as KEY=VALUE"
                 % (arg, ", ".join(sorted(options))))
    options[key] = value
if options["motif"] not in MOTIFS:
    sys.exit("ember_4x4x4.py: motif=%s; allowed %s" % (options["motif"], ", ".join(MOTIFS)))
if options["topology"] not in ("merlin", "interlock"):
    sys.exit("ember_4x4x4.py: topology=%s; allowed merlin or interlock" % options["topology"])

PlatformDefinition.setCurrentPlatform("firefly-defaults")

TOPOLOGY_PARAMS = ["age_period", "xbar_output", "iw_pattern"]


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
        if options[name]:
            setattr(topo, name, options[name])
else:
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
router.input_buf_size = "4kB"
router.output_buf_size = "4kB"
router.num_vns = 2  # Firefly's requests and responses
router.xbar_arb = options["arb"]
topo.router = router

networkif = ReorderLinkControl()
networkif.link_bw = "4GB/s"
networkif.input_buf_size = "1kB"
networkif.output_buf_size = "1kB"

job = EmberMPIJob(0, topo.getNumNodes())
job.network_interface = networkif
job.addMotif("Init")
job.addMotif(MOTIFS[options["motif"]])
job.addMotif("Fini")
job.nic.nic2host_lat = "100ns"

system = System()
system.setTopology(topo)
system.allocateNodes(job, "linear")
system.build()

sst.setStatisticLoadLevel(9)
sst.setStatisticOutput("sst.statOutputCSV", {"filepath": options["stats"], "separator": ","})
sst.enableAllStatisticsForComponentType("merlin.hr_router")
