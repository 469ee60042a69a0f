#!/usr/bin/env bash
# Validates the regression gate on this machine by repeating the README's CI workflow.
#
#   bash Scripts/validate-gate.sh aa TRIALS [BINARY] [-- SCENARIO FLAGS...]
#       A/A: each trial saves a fresh baseline and compares the same binary against it
#       (`baseline save` then `compare`, default rounds), so every non-zero exit but 1 is a
#       false alarm.
#   bash Scripts/validate-gate.sh ab TRIALS BASE_BINARY NEW_BINARY [-- SCENARIO FLAGS...]
#       A/B: each trial saves a baseline with BASE_BINARY and compares NEW_BINARY (a build
#       with a known slowdown) against it; the power is the share of exit 2.
#
# Prints one line per trial (exit status, regressions, improvements, seconds) and a tally.
# Scenario flags default to the README's: --shape feed --size 300.
set -euo pipefail

mode=${1:?usage: validate-gate.sh aa|ab TRIALS ...}
trials=${2:?usage: validate-gate.sh aa|ab TRIALS ...}
shift 2
case "$mode" in
  aa) base_bin=${1:-.build/release/layout-bench}; new_bin=$base_bin; [ $# -gt 0 ] && shift ;;
  ab) base_bin=${1:?base binary}; new_bin=${2:?new binary}; shift 2 ;;
  *) echo "validate-gate.sh: mode must be aa or ab (got '$mode')" >&2; exit 64 ;;
esac
[ "${1:-}" = "--" ] && shift
flags=("$@")
[ ${#flags[@]} -eq 0 ] && flags=(--shape feed --size 300)

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
declare -A tally=()
for ((i = 1; i <= trials; i++)); do
  start=$(date +%s)
  "$base_bin" baseline save gate --dir "$dir" --quiet "${flags[@]}" >/dev/null
  set +e
  "$new_bin" compare gate --dir "$dir" --quiet --json "$dir/c.json" >"$dir/c.txt"
  status=$?
  set -e
  regressions=$(grep -c '"verdict" : "regression"' "$dir/c.json" || true)
  improvements=$(grep -c '"verdict" : "improvement"' "$dir/c.json" || true)
  echo "trial $i: exit $status, $regressions regressions, $improvements improvements, $(($(date +%s) - start)) s"
  if [ "$status" = 2 ]; then grep -E "regression|crosses|hitch" "$dir/c.txt" | sed 's/^/    /' | head -8; fi
  tally[$status]=$((${tally[$status]:-0} + 1))
done
echo -n "tally over $trials trials:"
for status in "${!tally[@]}"; do echo -n " exit $status x${tally[$status]}"; done
echo
