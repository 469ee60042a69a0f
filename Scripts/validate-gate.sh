#!/usr/bin/env bash
# Validates the regression gate on this machine by repeating a CI workflow many times.
#
#   bash Scripts/validate-gate.sh sequential TRIALS OLD [NEW] [-- SCENARIO FLAGS...]
#       The README's sequential workflow: each trial saves a fresh baseline with OLD, then
#       NEW runs `compare` against it (two time windows, so the run-to-run allowance applies).
#   bash Scripts/validate-gate.sh interleaved TRIALS OLD [NEW] [-- SCENARIO FLAGS...]
#       The README's interleaved workflow: each trial is one `OLD ab OLD NEW` (alternating
#       rounds in one time window).
#
# NEW defaults to OLD: an A/A test, where every exit 2 is a false regression and every exit 4
# a false improvement. With a NEW that is known to be slower, the share of exit 2 is the power.
# Extra `compare`/`ab` flags (e.g. --rounds 20) go in GATE_FLAGS. Prints one line per trial
# (exit status, the flagged rows with their change, seconds) and a tally.
# Scenario flags default to the README's: --shape feed --size 300.
set -euo pipefail

usage="usage: validate-gate.sh sequential|interleaved TRIALS OLD [NEW] [-- FLAGS...]"
mode=${1:?$usage}
trials=${2:?$usage}
old=${3:?$usage}
shift 3
new=$old
if [ $# -gt 0 ] && [ "$1" != "--" ]; then new=$1; shift; fi
[ "${1:-}" = "--" ] && shift
flags=("$@")
[ ${#flags[@]} -eq 0 ] && flags=(--shape feed --size 300)
read -r -a gate_flags <<<"${GATE_FLAGS:-}"
case "$mode" in
  sequential | interleaved) ;;
  *) echo "validate-gate.sh: mode must be sequential or interleaved (got '$mode')" >&2; exit 1 ;;
esac

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
declare -A tally=()
for ((i = 1; i <= trials; i++)); do
  start=$(date +%s)
  set +e
  if [ "$mode" = sequential ]; then
    "$old" baseline save gate --dir "$dir" --quiet "${flags[@]}" >/dev/null || exit 1
    "$new" compare gate --dir "$dir" --quiet --json "$dir/c.json" "${gate_flags[@]}" >"$dir/c.txt"
  else
    "$old" ab "$old" "$new" --quiet --json "$dir/c.json" "${gate_flags[@]}" -- "${flags[@]}" >"$dir/c.txt"
  fi
  status=$?
  set -e
  [ "$status" = 0 ] || [ "$status" = 2 ] || [ "$status" = 4 ] || { cat "$dir/c.txt"; exit 1; }
  echo "trial $i: exit $status, $(($(date +%s) - start)) s"
  python3 - "$dir/c.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
p50 = [r for r in rows if r["metric"] == "p50"]
print("    p50 change: " + ", ".join("%s %+.1f%%" % (r["scenario"], 100 * r["change"]) for r in p50))
for row in rows:
    if row["verdict"] in ("regression", "improvement"):
        print("    %-11s %-28s %-14s %+6.1f%%" % (row["verdict"], row["scenario"], row["metric"], 100 * row["change"]))
PY
  tally[$status]=$((${tally[$status]:-0} + 1))
done
echo -n "tally over $trials trials:"
for status in "${!tally[@]}"; do echo -n " exit $status x${tally[$status]}"; done
echo
