# SPDX-License-Identifier: BSL-1.0
# Blended patterns (Towles et al., ISCA'14, Figure 10) on the model: throughput and
# the spread of the cores' completion times against the share of reverse tornado
# packets, for four arbiter settings, on Anton 2's node.
#   examples/experiments/anton2/blend --radix 6 --batch 256 --nodes anton2,router --csv F
#   gnuplot -e "csv='F'; out='docs/results/blend.png'" docs/results/blend.gp
if (!exists("csv")) csv = 'docs/results/blend.csv'
if (!exists("out")) out = 'docs/results/blend.png'
if (!exists("node")) node = 'anton2'
set terminal pngcairo size 1100,480 font ",11"
set output out
set datafile separator ","
set multiplot layout 1,2 title "Blended tornado / reverse tornado ([Towles14], Figure 10), ".node." node"
set xlabel "share of packets to reverse tornado's node"
set grid
set key bottom center
set style data linespoints
set xrange [0:1]
colors = "#7f8c8d #c0392b #2471a3 #27ae60"
settings = "none forward reverse both"
titles = "'none (round robin)' 'forward weights' 'reverse weights' 'both (labelled)'"
set title "throughput"
set ylabel "throughput / torus channel capacity"
set yrange [0:1]
plot for [i=1:4] csv skip 1 using (strcol(1) eq node && strcol(2) eq word(settings, i) ? $3 : NaN):7 \
     title word(titles, i) lw 2 pt 7 lc rgb word(colors, i)
set title "fairness: latest / earliest core to finish"
set ylabel "completion spread"
set autoscale y
set yrange [1:*]
plot for [i=1:4] csv skip 1 using (strcol(1) eq node && strcol(2) eq word(settings, i) ? $3 : NaN):8 \
     title word(titles, i) lw 2 pt 7 lc rgb word(colors, i)
unset multiplot
