#!/usr/bin/env bash
# Instructions per tick of one scenario and strategy, counted by valgrind's callgrind:
# deterministic on any machine (no timer noise, no hardware counters needed), so a timing
# regression that `layout-bench compare` reports can be confirmed independently.
#
# Usage: Scripts/callgrind-tick.sh --shape feed --size 100 --mutation text [--per-tick K]
#          [--strategy coalesced] [--ticks 20] [--seed 1] [--binary PATH]
#
# Counting is switched on only inside `RunLoop.tick` (the handlers and the update cycle,
# what a tick's wall time measures), and callgrind writes a count after every tick
# (--dump-after). The scenario runs once with 2T measured ticks after the warm-up; the mean
# of the last T leaves out the cold build, whose count varies between processes on large
# trees, and the warm-up (`layout-bench run --instructions` counts the same way, with T =
# 10). Swift's per-process hash seeds are fixed (SWIFT_DETERMINISTIC_HASHING) so
# dictionaries grow alike in every run. Prints `instructionsPerTick=N` (and a JSON line with --json).
set -euo pipefail
cd "$(dirname "$0")/.."

shape=feed size=100 mutation=text per_tick=1 strategy=coalesced ticks=20 seed=1 binary="" json=0
while [ $# -gt 0 ]; do
  case "$1" in
    --shape) shape=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --mutation) mutation=$2; shift 2 ;;
    --per-tick) per_tick=$2; shift 2 ;;
    --strategy) strategy=$2; shift 2 ;;
    --ticks) ticks=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --json) json=1; shift ;;
    *) echo "callgrind-tick: unknown argument $1" >&2; exit 1 ;;
  esac
done
case "$strategy" in coalesced|eager|bottom-up) ;; *) echo "callgrind-tick: --strategy must be coalesced, eager or bottom-up" >&2; exit 1 ;; esac
[[ "$ticks" =~ ^[1-9][0-9]*$ ]] || { echo "callgrind-tick: --ticks must be a positive integer" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind-tick: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

if [ -z "$binary" ]; then
  swift build -c release --product layout-bench >&2
  binary=$(swift build -c release --show-bin-path)/layout-bench
fi
[ -x "$binary" ] || { echo "callgrind-tick: no executable at $binary" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run of 2T measured ticks: callgrind.out.1 is the cold build's first layout, .2 and .3
# the warm-up, then one file per measured tick.
out="$work/callgrind.out"
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
  --toggle-collect='$s11LayoutModel7RunLoopC4tickyyKF' \
  --dump-after='$s11LayoutModel7RunLoopC4tickyyKF' --separate-threads=no --combine-dumps=no \
  "$binary" run --shape "$shape" --size "$size" --mutation "$mutation" --per-tick "$per_tick" \
  --strategy "$strategy" --ticks $((2 * ticks)) --warmup 2 --seed "$seed" --quiet --no-verify \
  --cold-builds 1 \
  >/dev/null 2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
expected=$((3 + 2 * ticks))
dumps=$(find "$work" -maxdepth 1 -name 'callgrind.out.*' | wc -l)
[ "$dumps" -eq "$expected" ] || {
  echo "callgrind-tick: callgrind counted $dumps ticks, expected $expected (the build, 2 warm-up, $((2 * ticks)) measured)" >&2
  exit 1
}
sum=0
for k in $(seq $((expected - ticks + 1)) "$expected"); do
  n=$(awk '/^(summary|totals):/ { print $2; exit }' "$out.$k")
  [ -n "$n" ] || { echo "callgrind-tick: no instruction total in $out.$k" >&2; exit 1; }
  sum=$((sum + n))
done
instructions=$((sum / ticks))
echo "instructionsPerTick=$instructions  ($strategy, $shape$size/$mutation x$per_tick, seed $seed; $sum instructions in measured ticks $((ticks + 1)) to $((2 * ticks)))"
if [ "$json" = 1 ]; then
  printf '{"strategy":"%s","shape":"%s","size":%s,"mutation":"%s","seed":%s,"instructionsPerTick":%s}\n' \
    "$strategy" "$shape" "$size" "$mutation" "$seed" "$instructions"
fi
