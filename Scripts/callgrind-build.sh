#!/usr/bin/env bash
# Instructions of a build, counted by valgrind's callgrind: the cold build of a scenario
# (building the views and laying them out once, what `run` reports as cold ms), or the
# eight builds of the enaml solver workload (`solver-bench --workload enaml`). Deterministic
# on any machine, so a change to the insertion path can be measured before and after
# without timer noise.
#
# Usage: Scripts/callgrind-build.sh --shape feed --size 300 [--strategy coalesced]
#          [--mutation text] [--seed 1] [--binary PATH]
#        Scripts/callgrind-build.sh --enaml [--binary PATH]
# Prints `instructions=N` (and, for a scenario, the count per unit of its size).
set -euo pipefail
cd "$(dirname "$0")/.."

shape=feed size=300 mutation=text strategy=coalesced seed=1 binary="" enaml=0
while [ $# -gt 0 ]; do
  case "$1" in
    --shape) shape=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --mutation) mutation=$2; shift 2 ;;
    --strategy) strategy=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --enaml) enaml=1; shift ;;
    *) echo "callgrind-build: unknown argument $1" >&2; exit 1 ;;
  esac
done
case "$strategy" in coalesced|eager|bottom-up) ;; *) echo "callgrind-build: --strategy must be coalesced, eager or bottom-up" >&2; exit 1 ;; esac
[[ "$size" =~ ^[1-9][0-9]*$ ]] || { echo "callgrind-build: --size must be a positive integer" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind-build: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

if [ -z "$binary" ]; then
  swift build -c release --product layout-bench >&2
  binary=$(swift build -c release --show-bin-path)/layout-bench
fi
[ -x "$binary" ] || { echo "callgrind-build: no executable at $binary" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/callgrind.out"

# The functions counted: every instruction executed while one of them is on the stack.
# (Mangled names: `ScenarioRunner.measureCold(_:scene:scenario:)` and the enaml workload's
# system builder; a renamed function makes the count 0, which is reported as an error.)
if [ "$enaml" = 1 ]; then
  toggle='$s11SolverBench0A8WorkloadO5enamlyAA0A6SystemC9Cassowary0A0C14RepresentationOFZTf4nd_n'
  args=(solver-bench --workload enaml --ticks 1)
  what="enaml workload, eight builds"
else
  toggle='$s13LayoutHarness14ScenarioRunnerV11measureCold33_4D31E3C0A5AED7600AAA939B2039D7C1LL_5scene8scenarioAA0A8StrategyC_AA0fA0VtAA0R4KindO_AA5SceneVAA0C0VtAA8RunErrorOYKF'
  args=(run --shape "$shape" --size "$size" --mutation "$mutation" --strategy "$strategy"
    --seed "$seed" --ticks 1 --warmup 0 --cold-builds 1 --no-verify --quiet)
  what="cold build of $shape$size, $strategy, seed $seed"
fi
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
  --toggle-collect="$toggle" "$binary" "${args[@]}" >/dev/null 2>"$work/valgrind.log" \
  || { cat "$work/valgrind.log" >&2; exit 1; }
instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
if [ -z "$instructions" ] || [ "$instructions" -eq 0 ]; then
  echo "callgrind-build: no instruction was counted ($what): has the measured function been renamed?" >&2
  exit 1
fi
if [ "$enaml" = 1 ]; then
  echo "instructions=$instructions  ($what)"
else
  echo "instructions=$instructions  ($what; $((instructions / size)) per unit of size)"
fi
