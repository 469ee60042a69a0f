#!/usr/bin/env bash
# Times kiwi's own C++ benchmark of the enaml system against `layout-bench solver-bench
# --workload enaml`, on this machine, in alternating rounds.
#
# kiwi's benchmark (benchmarks/enaml_like_benchmark.cpp, with nanobench) ships in the
# kiwisolver source distribution on PyPI: this downloads the version Scripts/kiwi-crosscheck.sh
# pins into .build/kiwi-cpp/, builds it as its own build_and_run_bench.sh does (g++ -std=c++11
# -O2) and runs it unchanged. Nothing of it is copied into this repository.
#
# Both build the same 111 constraints (Sources/SolverBench/enaml.cass is kiwi's system). kiwi
# reports the mean of nanobench's epochs, we the median of seven builds after a warm-up; each
# round's figures are printed, then the medians over the rounds, and the median of the
# rounds' own ratios with their spread (the two sides of a round run back to back, in an
# order that alternates). The ticks differ in their work: kiwi's suggests the same window
# size again and again (after the first, nothing moves), ours cycles through the six sizes
# (every suggestion moves values), so only the builds are compared as a ratio.
#
# Usage: bash Scripts/kiwi-cpp-bench.sh [--rounds N] [--binary PATH]
#   --rounds N     alternating rounds (default 9)
#   --binary PATH  the layout-bench to time (default: a release build of this checkout)
# Needs g++ (Debian: apt-get install g++) and python3 with venv (for pip's download).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=9
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="${2:-}"; shift 2 ;;
        --binary) binary="${2:-}"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "kiwi-cpp-bench: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "kiwi-cpp-bench: --rounds must be a positive integer, not '$rounds'" >&2; exit 2; }
command -v g++ >/dev/null || { echo "kiwi-cpp-bench: g++ is not installed (apt-get install g++)" >&2; exit 2; }

kiwi_version="$(sed -n 's/^kiwi_version="\(.*\)"$/\1/p' "$root/Scripts/kiwi-crosscheck.sh")"
[[ -n "$kiwi_version" ]] || { echo "kiwi-cpp-bench: no kiwi_version in Scripts/kiwi-crosscheck.sh" >&2; exit 2; }
work="$root/.build/kiwi-cpp"
source_dir="$work/kiwisolver-$kiwi_version"
bench="$work/enaml-bench-$kiwi_version"
mkdir -p "$work"

if [[ ! -x "$bench" ]]; then
    if [[ ! -f "$source_dir/benchmarks/enaml_like_benchmark.cpp" ]]; then
        venv="$root/.build/kiwi-venv"
        [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
        echo "kiwi-cpp-bench: downloading the kiwisolver $kiwi_version source distribution" >&2
        "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-input \
            --no-binary :all: --no-deps "kiwisolver==$kiwi_version" -d "$work" >&2
        tar -xzf "$work/kiwisolver-$kiwi_version.tar.gz" -C "$work"
    fi
    echo "kiwi-cpp-bench: building kiwi's enaml benchmark (g++ -std=c++11 -O2)" >&2
    g++ -std=c++11 -O2 -I"$source_dir" "$source_dir/benchmarks/enaml_like_benchmark.cpp" \
        -o "$bench.tmp"
    mv "$bench.tmp" "$bench"
fi

if [[ -z "$binary" ]]; then
    echo "kiwi-cpp-bench: swift build -c release --product layout-bench" >&2
    (cd "$root" && swift build -c release --product layout-bench >&2)
    binary="$root/.build/release/layout-bench"
fi
[[ -x "$binary" ]] || { echo "kiwi-cpp-bench: no executable at $binary" >&2; exit 2; }

python3 - "$bench" "$binary" "$rounds" <<'PY'
import json, re, statistics, subprocess, sys

bench, binary, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])

def kiwi():
    out = subprocess.run([bench], capture_output=True, text=True, check=True).stdout
    build, ticks = None, []
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 5 or not re.match(r'^[\d,.]+$', cells[0]):
            continue
        ns = float(cells[0].replace(',', ''))
        if 'building solver' in cells[-1]:
            build = ns
        elif 'suggest value' in cells[-1]:
            ticks.append(ns)
    if build is None or not ticks:
        sys.exit("kiwi-cpp-bench: could not read kiwi's benchmark output:\n" + out)
    return build, statistics.median(ticks)

def ours():
    out = subprocess.run([binary, 'solver-bench', '--workload', 'enaml', '--size', '1',
                          '--json', '-'], capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return float(d['buildNs']), float(d['tickNs'])

kb, kt, ob, ot, ratios = [], [], [], [], []
for r in range(1, rounds + 1):
    # The order alternates, so that neither side always runs first in a round.
    if r % 2:
        b, t = kiwi(); b2, t2 = ours()
    else:
        b2, t2 = ours(); b, t = kiwi()
    kb.append(b); kt.append(t); ob.append(b2); ot.append(t2); ratios.append(b2 / b)
    print(f"round {r}: kiwi C++ build {b/1e3:7.1f} us, tick {t:6.0f} ns | "
          f"layout-bench build {b2/1e3:7.1f} us, tick {t2:6.0f} ns | build ratio {b2/b:.3f}x",
          flush=True)
mk, mo = statistics.median(kb), statistics.median(ob)
print(f"median of {rounds} rounds: build kiwi C++ {mk/1e3:.1f} us, layout-bench {mo/1e3:.1f} us "
      f"(ours/kiwi {mo/mk:.3f}x; builds ranged {min(kb)/1e3:.0f}-{max(kb)/1e3:.0f} and "
      f"{min(ob)/1e3:.0f}-{max(ob)/1e3:.0f} us); tick kiwi C++ {statistics.median(kt):.0f} ns "
      f"(the same size again), layout-bench {statistics.median(ot):.0f} ns (six sizes in turn)")
# Each round's two builds ran back to back, so a slow spell of the machine (these virtual
# machines have process-long ones: the same build takes 210 or 390 us from one process to
# the next) weighs on both sides of that round's ratio; the median of the ratios is the
# figure to quote, with their spread.
q = statistics.quantiles(ratios, n=4, method="inclusive") if rounds >= 2 else [ratios[0]] * 3
print(f"build ratio per round (ours/kiwi): median {statistics.median(ratios):.3f}x, "
      f"quartiles {q[0]:.3f}-{q[2]:.3f}x, range {min(ratios):.3f}-{max(ratios):.3f}x; "
      f"{sum(1 for x in ratios if x <= 0.5)} of {rounds} rounds at or under 0.5x")
PY
