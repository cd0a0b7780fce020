# SPDX-License-Identifier: BSL-1.0
# The decomposition study's part F (registration.md beside this file):
# Figure 10 under output-first allocation, the reading rule 6 selects.
# Normalized throughput (left) and completion spread (right) against the
# blend f, one line per arbiter setting (none: round robin; both: the
# hardware model with two labelled weight sets; both with exact Eq. 3's
# weights), the mean over the seeds with the least and greatest as a bar;
# a hollow point is a blend with fewer than 3 seeds in. The band the
# verdict reads (0.80-0.90, Section 4.2's "approximately 85%") is shaded.
#   figure10_verdict --grid docs/results/studies/anton2_decomposition_f/grid.csv \
#     --design docs/results/studies/anton2_decomposition_f/design.csv \
#     --reading output_first --csv F
#   gnuplot -e "csv='F'; out='docs/results/studies/anton2_decomposition_f/grid.png'" \
#     docs/results/studies/anton2_decomposition_f/grid.gp
# (scripts/study anton2_decomposition_f does both.) Columns of F: 1 size, 2 router_buffer,
# 3 adapter_buffer, 4 torus_latency, 5 pipeline, 6 setting, 7 arbiter,
# 8 share, 9 batch, 10 seeds, 11 finished, 12-14 normalized mean, least,
# greatest, 15 spread.
if (!exists("csv")) csv = 'build/experiments/anton2_decomposition_f_summary.csv'
if (!exists("out")) out = 'docs/results/studies/anton2_decomposition_f/grid.png'
set terminal pngcairo size 1400,600 font ",10"
set output out
set datafile separator ","
set xrange [-0.05:1.05]
set xlabel "f, the share of packets to reverse tornado's node"
set grid
set key outside below center horizontal font ",9"
set bars small
setting = system(sprintf("awk -F, 'NR == 2 { printf \"%%sx%%sx%%s, router %%s, adapter %%s, torus latency %%s, pipeline %%s, batch %%s\", $1, $1, $1, $2, $3, $4, $5, $9 }' '%s'", csv))
lines = "none|round_robin both|inverse_weighted both|inverse_weighted_exact"
titles = "none_(round_robin) both,_hardware_model both,_exact_Eq._3"
is(l) = strcol(6)."|".strcol(7) eq l
hollow(x) = x < 3 ? 6 : 7
name(k) = system(sprintf("echo '%s' | tr _ ' '", word(titles, k)))
set multiplot layout 1,2 title "Anton 2's node, output-first allocation, blends of tornado and reverse tornado; ".setting."\nthe mean over the seeds, bar: least-greatest, hollow: fewer than 3 seeds in"
set title "normalized throughput (shaded: 0.80-0.90, the verdict's band)"
set yrange [0:1]
set ylabel "throughput / torus channel capacity"
set object 1 rectangle from graph 0, first 0.80 to graph 1, first 0.90 fillcolor rgb "#e8e8e8" fillstyle solid noborder behind
plot for [k = 1:words(lines)] csv skip 1 using (is(word(lines, k)) ? $8 : NaN):12 with lines lc k notitle, \
     for [k = 1:words(lines)] csv skip 1 using (is(word(lines, k)) ? $8 : NaN):12:13:14:(hollow($10)) \
       with yerrorbars pt variable ps 1.2 lc k title name(k)
unset object 1
set title "completion spread (the cores' last over first completion)"
set yrange [0:*]
set ylabel "spread"
plot for [k = 1:words(lines)] csv skip 1 using (is(word(lines, k)) ? $8 : NaN):15:(hollow($10)) \
       with linespoints pt variable ps 1.2 lc k title name(k)
unset multiplot
