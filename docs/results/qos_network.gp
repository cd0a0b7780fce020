# SPDX-License-Identifier: BSL-1.0
# [QoSThesis] Figures 5.4-5.5 on the model: per SL, end-to-end latency and
# throughput against the total injection, OPA-shaped and IB-shaped switches
# under the DTable of Table 5.4 (solid), round robin dashed for OPA.
#   examples/experiments/qos/qos_network --full --scheduler dtable,sbt,round_robin --csv F
#   gnuplot -e "csv='F'; out='docs/results/qos_network_tree.png'; name='4-ary 3-tree'" docs/results/qos_network.gp
if (!exists("csv")) csv = 'docs/results/qos_network_tree.csv'
if (!exists("out")) out = 'docs/results/qos_network_tree.png'
if (!exists("name")) name = '4-ary 3-tree'
set terminal pngcairo size 1100,820 font ",10" noenhanced
set output out
set datafile separator ","
set datafile missing NaN
set multiplot layout 2,2 title name.": Chapter 5's seven SLs under the DTable of Table 5.4 (round robin dashed)"
set grid
set xlabel "total injection (flits/cycle/NIC)"
colour(sl) = word("#c0392b #e67e22 #2471a3 #27ae60 #7d3c98 #566573 #17202a", sl + 1)
slname(sl) = word("NC VO VI CL EE BE BK", sl + 1)
pick(sw, s, sl) = (strcol(2) eq sw && strcol(3) eq s && $5 == sl)
do for [sw in "opa ib"] {
  set title (sw eq "opa" ? "OPA-shaped" : "IB-shaped")." switches: end-to-end latency"
  set ylabel "cycles (5.12 ns)"
  set logscale y
  set key top left
  if (sw eq "opa") {
    plot for [sl=0:6] csv skip 1 using (pick(sw, "dtable", sl) ? $4 : NaN):9 with linespoints lw 2 pt 7 ps 0.5 lc rgb colour(sl) title slname(sl), \
         for [sl=0:3] csv skip 1 using (pick(sw, "round_robin", sl) ? $4 : NaN):9 with lines dt 2 lw 1 lc rgb colour(sl) notitle
  } else {
    plot for [sl=0:6] csv skip 1 using (pick(sw, "dtable", sl) ? $4 : NaN):9 with linespoints lw 2 pt 7 ps 0.5 lc rgb colour(sl) title slname(sl)
  }
  unset logscale y
  set title (sw eq "opa" ? "OPA-shaped" : "IB-shaped")." switches: throughput"
  set ylabel "flits/cycle/NIC"
  set key off
  plot for [sl=0:6] csv skip 1 using (pick(sw, "dtable", sl) ? $4 : NaN):8 with linespoints lw 2 pt 7 ps 0.5 lc rgb colour(sl) notitle, \
       for [sl=0:6] csv skip 1 using (pick(sw, "dtable", sl) ? $4 : NaN):7 with lines dt 3 lw 1 lc rgb colour(sl) notitle
}
unset multiplot
