# SPDX-License-Identifier: BSL-1.0
# The Figure 9 study's grid (docs/results.md, "The Figure 9 study"), or
# the 1-hop statement's:
# normalized throughput against batch, one facet per arbiter (columns) and
# torus size (rows), one line per network setting, the mean over the seeds
# with the least and greatest as a bar; a hollow point is a cell with fewer
# than 3 seeds in; a row per torus size the file holds. The rule's levels
# (rules=1, the default): inverse weights at least 0.85, round robin at
# most 0.65. traffic names the pattern (default "uniform traffic"; scripts/study
# figure9_onehop draws its grid with "1-hop neighbor traffic" and rules=0).
#   figure9_verdict --grid docs/results/studies/figure9/grid.csv \
#     --design docs/results/studies/figure9/design.csv --csv F
#   gnuplot -e "csv='F'; out='docs/results/studies/figure9/grid.png'" docs/results/studies/figure9/grid.gp
# (scripts/study figure9 does both.) Columns of F: 1 size, 2 router_buffer,
# 3 adapter_buffer, 4 torus_latency, 5 pipeline, 6 consistent, 7 arbiter,
# 8 batch, 9 seeds, 10 finished, 11-13 normalized mean, least, greatest.
if (!exists("csv")) csv = 'build/experiments/figure9_summary.csv'
if (!exists("out")) out = 'docs/results/studies/figure9/grid.png'
if (!exists("traffic")) traffic = "uniform traffic"
if (!exists("rules")) rules = 1
sizes = system(sprintf("awk -F, 'NR > 1 { print $1 }' '%s' | sort -nr -u", csv))
if (strlen(sizes) == 0) sizes = "8"
set terminal pngcairo size 1500,(words(sizes) > 1 ? 1300 : 700) font ",10"
set output out
set datafile separator ","
set logscale x 2
set xrange [180:5800]
set yrange [0:1]
unset xlabel
set ylabel "throughput / torus channel capacity"
set grid
set key outside below center horizontal maxcols 3 font ",8" spacing 0.9 samplen 2
set bars small
# The lines of a facet: "router/adapter/latency/pipeline|arbiter" of every
# setting and arbiter the file holds at size n whose arbiter the pattern
# (an awk regular expression) matches.
lines(n, pattern) = system(sprintf("awk -F, 'NR > 1 && $1 == %d && $7 ~ /%s/ { print $2 \"/\" $3 \"/\" $4 \"/\" $5 \"|\" $7 }' '%s' | sort -t/ -n -k1,1 -k2,2 -k3,3 -k4,4 -u", n, pattern, csv))
is(l) = strcol(2)."/".strcol(3)."/".strcol(4)."/".strcol(5)."|".strcol(7) eq l
bar = 0  # (strstrt below)
title_of(l) = (bar = strstrt(l, "|"), l[1:bar - 1].(strstrt(l, ":") > 0 ? " ".l[strstrt(l, ":"):] : ""))
hollow(x) = x < 3 ? 6 : 7
patterns = "^round_robin$ ^inverse_weighted(:[0-9])?$ ^inverse_weighted_exact$"
level(i) = rules ? (i == 1 ? 0.65 : 0.85) : NaN
level_title(i) = rules ? (i == 1 ? "rule: at most 0.65" : "rule: at least 0.85") : ""
set multiplot layout words(sizes),3 title "Anton 2's node, ".traffic."; throughput against batch (packets per core), the mean over the seeds,\nbar: least-greatest, hollow: fewer than 3 seeds in; lines: router/adapter buffers (flits per VC)/torus latency (cycles)/pipeline stages"
do for [n in sizes] {
  do for [i = 1:3] {
    list = lines(n + 0, word(patterns, i))
    set title sprintf("%sx%sx%s, %s", n, n, n, i == 1 ? "round robin" : (i == 2 ? "hardware model (:N, N bits of headroom)" : "exact Eq. 3"))
    if (strlen(list) == 0) {
      set label 1 "no runs yet" at graph 0.5, 0.5 center
      plot [180:5800] [0:1] level(i) with lines dt 3 lc rgb "#555555" title level_title(i)
    } else {
      unset label 1
      plot for [k = 1:words(list)] csv skip 1 \
             using (strcol(1) eq n && is(word(list, k)) ? $8 : NaN):11 with lines lc k notitle, \
           for [k = 1:words(list)] csv skip 1 \
             using (strcol(1) eq n && is(word(list, k)) ? $8 : NaN):11:12:13:(hollow($9)) \
             with yerrorbars pt variable ps 1.2 lc k title title_of(word(list, k)), \
           level(i) with lines dt 3 lc rgb "#555555" title level_title(i)
    }
  }
}
unset multiplot
