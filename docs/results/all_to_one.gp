# SPDX-License-Identifier: BSL-1.0
# The parking lot at network scale: every node of a 3-D torus sends to one node;
# each source's share of its ejection port (times the number of sources: 1 is an
# equal share) against its distance, per arbiter.
#   examples/experiments/seastar/all_to_one --injection-buffers 4,16,64 --csv F
#   gnuplot -e "csv='F'; out='docs/results/all_to_one.png'" docs/results/all_to_one.gp
if (!exists("csv")) csv = 'docs/results/all_to_one.csv'
if (!exists("out")) out = 'docs/results/all_to_one.png'
set terminal pngcairo size 900,560 font ",11" noenhanced
set output out
set datafile separator ","
set title "All-to-one on a torus: each source's share against its distance"
set xlabel "hops from the destination"
set ylabel "share x sources (1: equal)"
set logscale y
set grid
set key top left
# Shares are scaled by the number of sources (63 on 4x4x4; n='511' for 8x8x8).
if (!exists("n")) n = 63
plot csv skip 1 using ((strcol(1) eq "round_robin") ? $5 - 0.15 : NaN):($6 * n) title "round robin" pt 7 lc rgb "#c0392b", \
     csv skip 1 using ((strcol(1) ne "round_robin" && strcol(1) ne "inverse_weighted" && $3 == 16 && strcol(2) ne "1") ? $5 : NaN):($6 * n) title "age, uninhibited clock, 16-flit injection buffers" pt 5 lc rgb "#2471a3", \
     csv skip 1 using ((strcol(1) ne "round_robin" && strcol(1) ne "inverse_weighted" && $3 == 64 && strcol(2) ne "1") ? $5 + 0.15 : NaN):($6 * n) title "age, 64-flit injection buffers" pt 4 lc rgb "#85c1e9", \
     csv skip 1 using ((strcol(1) eq "inverse_weighted") ? $5 + 0.3 : NaN):($6 * n) title "inverse weights" pt 9 lc rgb "#27ae60"
