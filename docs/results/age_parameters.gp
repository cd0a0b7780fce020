# SPDX-License-Identifier: BSL-1.0
# Age parameters against round robin (Abts & Weisser, SC'07, Table 5) on a
# SeaStar-shaped torus: per setting, latency (mean, sd, max / 10) and the
# spread of the sources' mean latency; stalled cycles per packet by direction.
#   examples/experiments/seastar/age_parameters --load-fraction 1 --cycles 16000 --csv F
#   gnuplot -e "csv='F'; out='docs/results/age_parameters.png'" docs/results/age_parameters.gp
if (!exists("csv")) csv = 'docs/results/age_parameters.csv'
if (!exists("out")) out = 'docs/results/age_parameters.png'
set terminal pngcairo size 1200,520 font ",10" noenhanced
set output out
set datafile separator ","
set multiplot layout 1,2 title "Age parameters on a SeaStar-shaped torus ([Abts07], Table 5)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -35
set grid ytics
set key top right
set title "latency (cycles) and source spread"
set ylabel "cycles"
set yrange [0:*]
set y2range [0:*]
set y2label "max/min of the sources' mean latency"
set y2tics
set ytics nomirror
plot csv skip 1 using 14:xtic(1) title "mean" lc rgb "#2471a3", \
     '' skip 1 using 15 title "sd" lc rgb "#85c1e9", \
     '' skip 1 using ($16 / 10) title "max / 10" lc rgb "#c0392b", \
     '' skip 1 using 0:18 axes x1y2 with linespoints lw 2 pt 7 lc rgb "#27ae60" title "source spread"
set title "stalled cycles per packet (Eq. 17) by input direction"
set ylabel "cycles per VC0 + VC1 packet"
unset y2label
unset y2tics
set ytics mirror
plot csv skip 1 using 8:xtic(1) title "+x" lc rgb "#922b21", \
     '' skip 1 using 9 title "-x" lc rgb "#e6b0aa", \
     '' skip 1 using 10 title "+y" lc rgb "#1a5276", \
     '' skip 1 using 11 title "-y" lc rgb "#a9cce3", \
     '' skip 1 using 12 title "+z" lc rgb "#196f3d", \
     '' skip 1 using 13 title "-z" lc rgb "#a9dfbf"
unset multiplot
