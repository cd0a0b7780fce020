# SPDX-License-Identifier: BSL-1.0
# Renders inverse_weighted_shares.png from inverse_weighted_shares.csv, which
#   build/.../examples/demos/inverse_weighted_demo --csv docs/arbiters/inverse_weighted_shares.csv
# writes. Run from docs/arbiters: gnuplot inverse_weighted_shares.gnuplot
set datafile separator ","
set terminal pngcairo size 900,520 font "sans,11"
set output "inverse_weighted_shares.png"
set title "Service shares at a 4-input inverse-weighted arbiter, patterns blended 30% / 70%"
set xlabel "decisions"
set ylabel "share of grants"
set logscale x
set yrange [0:0.6]
set key outside right
set grid
set xrange [1:10000]
plot for [i=0:3] "inverse_weighted_shares.csv" using 1:(column(2+i)) with lines lc i+1 lw 2 title sprintf("input %d, hardware (M = 8)", i), \
     for [i=0:3] "inverse_weighted_shares.csv" using 1:(column(6+i)) with points lc i+1 pt 7 ps 0.5 title sprintf("input %d, exact", i), \
     for [i=0:3] "inverse_weighted_shares.csv" using 1:(column(10+i)) with lines lc rgb "gray" dt 2 title (i == 0 ? "target (EoS)" : "")
