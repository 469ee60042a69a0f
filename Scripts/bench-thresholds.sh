#!/usr/bin/env bash
# Runs the package-benchmark suites and checks the committed static thresholds in
# Benchmarks/Thresholds (malloc counts within 1%, solver pivots exactly). `update` rewrites
# them after an intended change; wall clock is never committed (too noisy on shared machines).
#
# Usage: Scripts/bench-thresholds.sh [check|update] [extra benchmark arguments]
# Exit, as `layout-bench compare` (Sources/LayoutHarness/Regression/ExitStatus.swift): 0 within thresholds, 2 a deviation (stderr says which
# benchmark and metric), 1 an error.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
shift || true
case "$mode" in
  check|update) ;;
  *) echo "usage: $0 [check|update] [benchmark options]" >&2; exit 1 ;;
esac

log=$(mktemp)
trap 'rm -f "$log" Current_run.json' EXIT
swift package --allow-writing-to-package-directory benchmark thresholds "$mode" \
  --path Benchmarks/Thresholds --no-progress "$@" >"$log" 2>&1
status=$?
# The plugin's interposer banner is noise; everything else is the report.
grep -v -e "running with the Swift runtime interposer" -e "skipping LD_PRELOAD" "$log"
if [ "$mode" = update ]; then
  [ $status -eq 0 ] || { echo "bench-thresholds: update failed" >&2; exit 1; }
  # Keep deterministic metrics only.
  python3 - <<'PY'
import glob, json
for path in glob.glob("Benchmarks/Thresholds/*.json"):
    data = json.load(open(path))
    data.pop("wallClock", None)
    open(path, "w").write(json.dumps(data, indent=2, sort_keys=True) + "\n")
PY
  echo "bench-thresholds: thresholds updated (malloc counts and pivots only)"
  exit 0
fi
if [ $status -eq 0 ]; then
  echo "bench-thresholds: PASS (all benchmarks within their thresholds)"
  exit 0
fi
if grep -q "WORSE\|better than threshold\|Deviations" "$log"; then
  echo "bench-thresholds: FAIL (a benchmark moved beyond its threshold; see the tables above)" >&2
  exit 2
fi
echo "bench-thresholds: ERROR (the benchmarks did not run; see above)" >&2
exit 1
