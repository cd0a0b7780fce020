# SPDX-License-Identifier: BSL-1.0
# The parking lot's shares and network latencies (scripts/demo writes parking_lot.csv,
# then runs this).
#   gnuplot -e "csv='docs/results/parking_lot.csv'; out='docs/results/parking_lot.png'" \
#           docs/results/parking_lot.gp
if (!exists("csv")) csv = 'docs/results/parking_lot.csv'
if (!exists("out")) out = 'docs/results/parking_lot.png'
set terminal pngcairo size 1100,850 font ",11"
set output out
set datafile separator ","
set multiplot layout 2,2 title "Parking lot: P0..P6 send to P7 at saturation ([Abts07] Fig. 4)"
set logscale y 2
set yrange [1.0/128:1]
set ytics ("1/128" 1.0/128, "1/64" 1.0/64, "1/32" 1.0/32, "1/16" 1.0/16, "1/8" 0.125, "1/4" 0.25, "1/2" 0.5, "1" 1)
set ylabel "share of P7's ejection port"
set xlabel "source"
set key top left
set grid ytics
set style data linespoints
set xrange [-0.5:6.5]
set xtics ("P0" 0, "P1" 1, "P2" 2, "P3" 3, "P4" 4, "P5" 5, "P6" 6)
src(n) = real(substr(strcol(2), 2, 2))  # "P3" -> 3
# One colour per policy in every panel.
rr = "#1f77b4"; rule = "#7f7f7f"; age = "#d62728"; iw = "#2ca02c"
do for [net in "mesh ring"] {
  set title (net eq "mesh" ? "8-node line (1-mesh)" : "8-node ring (1-torus)")
  plot csv skip 1 using (strcol(1) eq net ? src(0) : NaN):4 title "round robin (model)" lw 2 pt 7 lc rgb rr, \
       csv skip 1 using (strcol(1) eq net ? src(0) : NaN):6 title "merging rule (paper)" dt 2 lw 2 pt 6 lc rgb rule, \
       csv skip 1 using (strcol(1) eq net ? src(0) : NaN):5 title "age-based (model)" lw 2 pt 5 lc rgb age, \
       csv skip 1 using (strcol(1) eq net ? src(0) : NaN):9 title "inverse weights (model)" lw 2 pt 9 lc rgb iw
}
# [Abts07]'s claim for age: the same latency through the network for every source.
set yrange [16:8192]
set ytics auto
set ytics ("16" 16, "64" 64, "256" 256, "1024" 1024, "4096" 4096)
set ylabel "network latency (cycles, mean)"
do for [net in "mesh ring"] {
  set title (net eq "mesh" ? "8-node line: network latency" : "8-node ring: network latency")
  plot csv skip 1 using (strcol(1) eq net ? src(0) : NaN):7 title "round robin (model)" lw 2 pt 7 lc rgb rr, \
       csv skip 1 using (strcol(1) eq net ? src(0) : NaN):8 title "age-based (model)" lw 2 pt 5 lc rgb age, \
       csv skip 1 using (strcol(1) eq net ? src(0) : NaN):10 title "inverse weights (model)" lw 2 pt 9 lc rgb iw
}
unset multiplot
