# SPDX-License-Identifier: BSL-1.0
# Throughput beyond saturation (Towles et al., ISCA'14, Figure 9) on the model:
# normalized throughput against batch size, round robin and inverse weights, on
# Anton 2's node (16 mesh routers) and on one router per node.
#   examples/experiments/anton2/saturation --radix 8 --batches 32,128,512 --patterns uniform,neighbor2 --csv F
#   gnuplot -e "csv='F'; out='docs/results/saturation.png'" docs/results/saturation.gp
if (!exists("csv")) csv = 'docs/results/saturation.csv'
if (!exists("out")) out = 'docs/results/saturation.png'
set terminal pngcairo size 1100,480 font ",11"
set output out
set datafile separator ","
set multiplot layout 1,2 title "Throughput beyond saturation ([Towles14], Figure 9), 8x8x8 torus, 2 slices"
set logscale x 2
set xlabel "batch (packets per core)"
set ylabel "throughput / torus channel capacity"
set yrange [0:1]
set grid
set key bottom right
set style data linespoints
# [Towles14]: uniform with round robin falls below 0.6; inverse weights hold about 0.9.
do for [node in "anton2 router"] {
  set title (node eq "anton2" ? "Anton 2 node: 16 mesh routers, adapters, torus links at 0.311" \
                              : "one router per node, 8 endpoints")
  plot csv skip 1 using (strcol(1) eq node && strcol(2) eq "uniform" && strcol(3) eq "round_robin" ? $5 : NaN):7 \
         title "uniform, round robin" lw 2 pt 7 lc rgb "#c0392b", \
       csv skip 1 using (strcol(1) eq node && strcol(2) eq "uniform" && strcol(3) eq "inverse_weighted" ? $5 : NaN):7 \
         title "uniform, inverse weights" lw 2 pt 5 lc rgb "#2471a3", \
       csv skip 1 using (strcol(1) eq node && strcol(2) eq "neighbor2" && strcol(3) eq "round_robin" ? $5 : NaN):7 \
         title "2-hop neighbor, round robin" dt 2 lw 2 pt 6 lc rgb "#c0392b", \
       csv skip 1 using (strcol(1) eq node && strcol(2) eq "neighbor2" && strcol(3) eq "inverse_weighted" ? $5 : NaN):7 \
         title "2-hop neighbor, inverse weights" dt 2 lw 2 pt 4 lc rgb "#2471a3", \
       0.9 title "paper: inverse weights (about 0.9)" dt 3 lc rgb "#2471a3", \
       0.6 title "paper: uniform round robin falls below 0.6" dt 3 lc rgb "#c0392b"
}
unset multiplot
