# SPDX-License-Identifier: BSL-1.0
# [QoSThesis] Figures 2.4-2.5 on the model's 48-port switch: per SL, throughput,
# normalized throughput and end-to-end latency against the injection rate, for
# uniform traffic (contention) and dst = src + 1 (none); SBT solid, round robin
# dashed.
#   examples/experiments/qos/qos_switch --preset A --full --max-load 1.6 --csv F
#   gnuplot -e "csv='F'; out='docs/results/qos_switch_a.png'; name='A'" docs/results/qos_switch.gp
if (!exists("csv")) csv = 'docs/results/qos_switch_a.csv'
if (!exists("out")) out = 'docs/results/qos_switch_a.png'
if (!exists("name")) name = 'A'
set terminal pngcairo size 1100,820 font ",10" noenhanced
set output out
set datafile separator ","
set datafile missing NaN
set multiplot layout 2,3 title "Table 2.2 configuration ".name." on the 48-port switch: SBT (solid) against round robin (dashed)"
set grid
set xlabel "injection rate (flits/cycle/NIC)"
colour(sl) = sl == 0 ? "#c0392b" : sl == 1 ? "#2471a3" : sl == 2 ? "#27ae60" : "#7d3c98"
pick(s, t, sl) = (strcol(2) eq s && strcol(3) eq t && $5 == sl)
do for [tr in "uniform shift"] {
  set key top left
  set title tr." traffic: throughput per SL"
  set ylabel "flits/cycle/NIC"
  unset logscale y
  plot for [sl=0:2] csv skip 1 using (pick("sbt", tr, sl) ? $4 : NaN):7 with linespoints lw 2 pt 7 ps 0.6 lc rgb colour(sl) title "SL".sl." SBT", \
       for [sl=0:2] csv skip 1 using (pick("round_robin", tr, sl) ? $4 : NaN):7 with linespoints dt 2 lw 2 pt 6 ps 0.6 lc rgb colour(sl) title "SL".sl." RR"
  set title tr." traffic: normalized throughput"
  set ylabel "share of delivered flits"
  set yrange [0:0.8]
  plot for [sl=0:2] csv skip 1 using (pick("sbt", tr, sl) ? $4 : NaN):8 with linespoints lw 2 pt 7 ps 0.6 lc rgb colour(sl) notitle, \
       for [sl=0:2] csv skip 1 using (pick("round_robin", tr, sl) ? $4 : NaN):8 with linespoints dt 2 lw 2 pt 6 ps 0.6 lc rgb colour(sl) notitle
  set autoscale y
  set title tr." traffic: end-to-end latency"
  set ylabel "cycles"
  set logscale y
  plot for [sl=0:2] csv skip 1 using (pick("sbt", tr, sl) ? $4 : NaN):9 with linespoints lw 2 pt 7 ps 0.6 lc rgb colour(sl) notitle, \
       for [sl=0:2] csv skip 1 using (pick("round_robin", tr, sl) ? $4 : NaN):9 with linespoints dt 2 lw 2 pt 6 ps 0.6 lc rgb colour(sl) notitle
}
unset multiplot
