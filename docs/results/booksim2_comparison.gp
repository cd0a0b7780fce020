# SPDX-License-Identifier: BSL-1.0
# The model beside BookSim2 on one configuration: 8x8x8 torus, dimension
# order, 4 VCs of 8 flits, 1-flit packets, uniform random traffic
# (docs/model.md, "Against BookSim2"). Columns of booksim2_comparison.csv:
# offered load, then accepted load and mean latency of BookSim2 and of the
# model with each dateline rule.
#   gnuplot -e "csv='docs/results/booksim2_comparison.csv'; out='docs/results/booksim2_comparison.png'" docs/results/booksim2_comparison.gp
if (!exists("csv")) csv = 'booksim2_comparison.csv'
if (!exists("out")) out = 'booksim2_comparison.png'
set terminal pngcairo size 1100,450 font ",11"
set output out
set datafile separator ","
set datafile columnheaders
set datafile missing ""
set key top left
set grid
set multiplot layout 1,2 title "8x8x8 torus, uniform, 4 VCs x 8 flits: the model (head pipeline 2) beside BookSim2"
set xlabel "offered (flits/node/cycle)"
set ylabel "accepted (flits/node/cycle)"
set xrange [0.05:0.65]
plot csv using 1:2 with linespoints lw 2 pt 7 title "BookSim2", \
     csv using 1:4 with linespoints lw 2 pt 5 title "model, BookSim2's dateline rule", \
     csv using 1:6 with linespoints lw 2 pt 9 title "model, switch at the wrap link", \
     x with lines dt 2 lc "gray" title "offered"
set ylabel "mean latency (cycles)"
set logscale y
set yrange [40:1500]
plot csv using 1:3 with linespoints lw 2 pt 7 title "BookSim2", \
     csv using 1:5 with linespoints lw 2 pt 5 title "model, BookSim2's dateline rule", \
     csv using 1:7 with linespoints lw 2 pt 9 title "model, switch at the wrap link"
unset multiplot
