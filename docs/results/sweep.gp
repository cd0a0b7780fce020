# SPDX-License-Identifier: BSL-1.0
# Accepted load and mean latency against offered load, from netsim's --csv
# (one row per load of --sweep):
#   netsim --radix 8,8,8 --sweep 0.1,0.2,0.3,0.4,0.5,0.6,0.7 --csv sweep.csv
#   gnuplot -e "csv='sweep.csv'; out='sweep.png'" docs/results/sweep.gp
if (!exists("csv")) csv = 'sweep.csv'
if (!exists("out")) out = 'sweep.png'
set terminal pngcairo size 1100,450 font ",11"
set output out
set datafile separator ","
set datafile columnheaders
set key top left
set grid
set style data linespoints
set multiplot layout 1,2 title "netsim sweep: ".csv
set xlabel "offered (flits/node/cycle)"
set ylabel "accepted (flits/node/cycle)"
plot csv using (column("offered")):(column("accepted")) with linespoints lw 2 pt 7 \
     title "accepted", \
     x with lines dt 2 lc "gray" title "offered"
set ylabel "mean latency (cycles)"
set logscale y
plot csv using (column("offered")):(column("latency_mean")) with linespoints lw 2 pt 7 \
     title "latency", \
     csv using (column("offered")):(column("network_latency_mean")) with linespoints lw 2 pt 5 \
     title "network latency"
unset multiplot
