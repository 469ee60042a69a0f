#!/usr/bin/env bash
# package-benchmark baselines for CI, with a verdict a pipeline can act on. Through
# `swift package`, a regression and an improvement both exit 1; this script reads which it
# was and exits like `layout-bench compare` (ExitStatus.swift): 0 no change beyond thresholds, 2 regression,
# 4 improvements only, 1 error.
#
# Usage: Scripts/bench-baseline.sh update NAME [benchmark options]   record a baseline
#        Scripts/bench-baseline.sh check NAME [OTHER] [options]      compare the current code
#                                                                    (or baseline OTHER) to NAME
# Baselines live in .benchmarkBaselines/ (git-ignored). Only malloc counts are measured and
# compared (`--metric mallocCountTotal`): they are deterministic, while wall clock between
# two runs on a shared machine called identical code a regression 3 times out of 3. Give
# your own --metric (e.g. --metric wallClock) to compare something else, knowing that.
# Committed thresholds for the custom counters (pivots, layoutSubviews, solves) are checked
# by Scripts/bench-thresholds.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
name=${2:-}
case "$mode" in
  update|check) ;;
  *) echo "usage: $0 update|check NAME [OTHER] [benchmark options]" >&2; exit 1 ;;
esac
[ -n "$name" ] || { echo "bench-baseline: a baseline NAME is required" >&2; exit 1; }
shift 2

metric=(--metric mallocCountTotal)
for arg in "$@"; do [ "$arg" = "--metric" ] && metric=(); done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift package --allow-writing-to-package-directory benchmark baseline "$mode" "$name" \
  --no-progress "${metric[@]}" "$@" >"$log" 2>&1
status=$?
grep -v -e "running with the Swift runtime interposer" -e "skipping LD_PRELOAD" "$log"

if [ "$mode" = update ]; then
  [ $status -eq 0 ] && { echo "bench-baseline: recorded baseline '$name'"; exit 0; }
  echo "bench-baseline: ERROR recording '$name' (see above)" >&2
  exit 1
fi
if [ $status -eq 0 ]; then
  echo "bench-baseline: PASS (no benchmark moved beyond its thresholds against '$name')"
  exit 0
fi
if grep -q "benchmarkThresholdRegression" "$log"; then
  echo "bench-baseline: REGRESSION against '$name' (see the tables above)" >&2
  exit 2
fi
if grep -q "benchmarkThresholdImprovement" "$log"; then
  echo "bench-baseline: IMPROVEMENT only against '$name' (update the baseline to keep it)"
  exit 4
fi
echo "bench-baseline: ERROR (the benchmarks did not run or the baseline is missing; see above)" >&2
exit 1
