#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The runs of the Anton 2 decomposition study (docs/results/studies/
# anton2_decomposition/registration.md), for scripts/study:
#   scripts/study anton2_decomposition [--jobs N] [--parts D1,D3,...] [--verdict-only]
# Runs every design row not yet in grid.csv, seeds 1, 2 and 3, in the
# design's order of settings (A4 before A1), then parts in the order given
# (default D1,D3,D2); each run a saturation process of its own, N at a time;
# each run's row appended to grid.csv as it ends, so a stopped study goes on
# where it stopped. Columns are read from saturation's CSV by name. A
# conditional row runs once its condition is decided by the rows in the
# grid (registration.md); a row whose router reading this build does not
# have yet waits. A run refused (exit status 2) is recorded in refused.csv
# with its message and not run again. Then decomposition_verdict writes
# verdict.md from the design and the grid and its verdict lines are printed.
# Exit status: 0 done, 2 bad input, 3 a failed write, 1 a run that failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=docs/results/studies/anton2_decomposition
design=$dir/design.csv grid=$dir/grid.csv refused=$dir/refused.csv
jobs=$(nproc 2>/dev/null || echo 2)
parts=D1,D3,D2
verdict_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs)
      jobs="${2:-}"
      [[ $jobs =~ ^[1-9][0-9]?$ ]] || { echo "scripts/study: --jobs: '${jobs}' is not a number in 1..99" >&2; exit 2; }
      shift ;;
    --parts)
      parts="${2:-}"
      [[ $parts =~ ^(D[123])(,D[123])*$ ]] || { echo "scripts/study: --parts: '${parts}' is not a list of D1, D2, D3" >&2; exit 2; }
      shift ;;
    --verdict-only) verdict_only=1 ;;
    *) echo "scripts/study: $1: unknown option for anton2_decomposition (--jobs N, --parts D1,D2,D3, --verdict-only)" >&2; exit 2 ;;
  esac
  shift
done
key="part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,arbiter,batch"
header="$key,seed,normalized,spread,finished,last_arrival,request_share,request_share_p10,grants,slides,zeroed_per_grant,quota_lost_per_grant,spread_mean,spread_max,seconds"
[ "$(head -n 1 "$design")" = "$key,condition" ] ||
  { echo "scripts/study: $design:1:1: the header is not the design's ($key,condition)" >&2; exit 2; }
[ -s "$grid" ] || echo "$header" >"$grid" || exit 3
[ -s "$refused" ] || echo "$key,seed,message" >"$refused" || exit 3
[ "$(head -n 1 "$grid")" = "$header" ] || { echo "scripts/study: $grid:1:1: the header is not the grid's" >&2; exit 2; }

source scripts/lib/packages.sh
ensure_packages cmake g++ make
build=build/experiments-build
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DINTERLOCK_BUILD_TESTS=OFF \
  -DINTERLOCK_BUILD_BENCHMARKS=OFF -DINTERLOCK_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$build" -j "$jobs" --target saturation decomposition_verdict >/dev/null
saturation=$build/bin/saturation
help=$("$saturation" --help)

# reading_flags READING: saturation's flags for a router reading; fails
# when this build's saturation does not have them.
reading_flags() {
  local r=$1 flags=()
  [ "$r" = default ] && return 0
  IFS=+ read -ra parts_of <<<"$r"
  for p in "${parts_of[@]}"; do
    case "$p" in
      pipelined) flags+=(--pipelined-heads) ;;
      persistent) flags+=(--persistent-picks) ;;
      output_first) flags+=(--allocator output_first) ;;
      islip1) flags+=(--allocator islip:1) ;;
      islip4) flags+=(--allocator islip:4) ;;
      wavefront) flags+=(--allocator wavefront) ;;
      *) return 1 ;;
    esac
  done
  for f in "${flags[@]}"; do
    [[ $f == --* ]] && { grep -q -- "$f" <<<"$help" || return 1; }
  done
  echo "${flags[@]}"
}

# mean_of PART SETTING PATTERN ROUTER ARBITER BATCH: the mean normalized
# throughput over seeds 1-3 when all three are in and finished, else empty.
mean_of() {
  awk -F, -v k="$1,$2" -v p="$3" -v r="$4" -v a="$5" -v b="$6" '
    NR > 1 && ($1 "," $2) == k && $8 == p && $9 == r && $10 == a && $11 == b {
      if ($15 != 1) bad = 1; s += $13; n++ }
    END { if (n == 3 && !bad) printf "%.6f", s / 3 }' "$grid"
}

# decided ROW: whether a design row's condition lets it run now.
decided() {
  local part setting size rb ab lat pl pattern router arbiter batch condition m
  IFS=, read -r part setting size rb ab lat pl pattern router arbiter batch condition <<<"$1"
  case "$condition" in
    always) return 0 ;;
    arm_1024_at_least_0.80) m=$(mean_of "$part" "$setting" "$pattern" "$router" "$arbiter" 1024) ;;
    hardware_1024_at_least_0.80) m=$(mean_of "$part" "$setting" "$pattern" "$router" iw:levels.mbit.window 1024) ;;
    *) echo "scripts/study: $design: condition '$condition' is not the registration's" >&2; return 1 ;;
  esac
  [ -n "$m" ] && awk -v m="$m" 'BEGIN { exit !(m >= 0.80) }'
}

present() { grep -qxF "$1" <(cut -d, -f1-12 "$grid" "$refused"); }

# run ROW SEED: one saturation run; its row appended when it ends.
run() {
  local row=$1 seed=$2 part setting size rb ab lat pl pattern router arbiter batch condition
  IFS=, read -r part setting size rb ab lat pl pattern router arbiter batch condition <<<"$row"
  local id="$part,$setting,$size,$rb,$ab,$lat,$pl,$pattern,$router,$arbiter,$batch"
  local tmp status=0 flags
  flags=$(reading_flags "$router")
  tmp=$(mktemp -d)
  # shellcheck disable=SC2086  # the reading's flags
  "$saturation" --radix "$size" --nodes anton2 --patterns "$pattern" --arbiters "$arbiter" \
    --batches "$batch" --buffer-flits "$rb" --adapter-buffer-flits "$ab" --torus-latency "$lat" \
    --pipeline "$pl" --seed "$seed" --jobs 1 $flags --csv "$tmp/run.csv" --counts "$tmp/counts.csv" \
    >/dev/null 2>"$tmp/err" || status=$?
  if [ "$status" -eq 2 ]; then
    flock "$grid" sh -c 'printf "%s\n" "$1" >>"$2"' _ "$id,$seed,$(tr -s '\n,' '  ' <"$tmp/err")" "$refused"
    echo "  refused: $id seed $seed"
  elif [ "$status" -le 1 ] && [ -s "$tmp/run.csv" ]; then
    local line
    line=$(awk -F, -v out="normalized_throughput,completion_spread,finished,last_arrival,request_share,request_share_p10" \
             -v counts="grants,slides,zeroed_per_grant,quota_lost_per_grant,spread_mean,spread_max" '
      FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
      FILENAME ~ /run.csv$/ && $1 == "anton2" { split(out, o, ","); for (j = 1; j <= 6; j++) r = r "," $col[FILENAME, o[j]]; sec = $col[FILENAME, "seconds"] }
      FILENAME ~ /counts.csv$/ && $1 == "anton2" { split(counts, c, ","); for (j = 1; j <= 6; j++) q = q "," $col[FILENAME, c[j]] }
      END { if (q == "") q = ",none,none,none,none,none,none"; print substr(r, 2) q "," sec }' \
      "$tmp/run.csv" "$tmp/counts.csv")
    flock "$grid" sh -c 'printf "%s\n" "$1" >>"$2"' _ "$id,$seed,$line" "$grid"
    echo "  done: $id seed $seed: $(cut -d, -f1 <<<"$line")"
  else
    cat "$tmp/err" >&2
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$tmp"
}

# The runs due now: design order by setting (A4 first), then part.
queue() {
  local s p row
  for s in A4 A1; do
    for p in ${parts//,/ }; do
      while IFS= read -r row; do
        IFS=, read -r part setting _ _ _ _ _ _ router _ _ _ <<<"$row"
        [ "$part" = "$p" ] && [ "$setting" = "$s" ] || continue
        reading_flags "$router" >/dev/null || continue
        decided "$row" || continue
        for seed in 1 2 3; do
          present "$(cut -d, -f1-11 <<<"$row"),$seed" || echo "$row $seed"
        done
      done < <(tail -n +2 "$design")
    done
  done
}

# verdict: verdict.md from the design and the grid; its verdict lines.
verdict() {
  "$build/bin/decomposition_verdict" --design "$design" --grid "$grid" --refused "$refused" \
    >"$dir/verdict.md.tmp" ||
    { status=$?; rm -f "$dir/verdict.md.tmp"; exit "$status"; }
  mv "$dir/verdict.md.tmp" "$dir/verdict.md" || exit 3
  grep '^Figure 9 verdict' "$dir/verdict.md"
}
[ "$verdict_only" -eq 0 ] || { verdict; exit 0; }

# Rounds: a conditional row becomes due when the rows it waits for are in.
status=0
while :; do
  mapfile -t due < <(queue)
  [ "${#due[@]}" -gt 0 ] || break
  echo "scripts/study anton2_decomposition: $(($(wc -l <"$grid") - 1)) runs in the grid, ${#due[@]} due ($(date -u +%H:%M) UTC)"
  running=0
  for d in "${due[@]}"; do
    run "${d% *}" "${d##* }" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
      wait -n || status=1
      running=$((running - 1))
    fi
  done
  while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
  done
  [ "$status" -eq 0 ] || { echo "scripts/study: a run's saturation failed (its message above)" >&2; exit 1; }
done
echo "scripts/study anton2_decomposition: $(($(wc -l <"$grid") - 1)) runs in the grid; nothing more is due"
verdict
