#!/usr/bin/env bash
# Times kiwisolver (C++ kiwi behind its Python binding) and our solver on the same workloads
# (shared/DESIGN.md section 9) and prints them side by side. See Scripts/kiwi_bench.py.
#   bash Scripts/kiwi-bench.sh                          # the default set, a text table
#   bash Scripts/kiwi-bench.sh --set full --markdown    # quick | default | full | floor; Markdown
#   bash Scripts/kiwi-bench.sh --build --set quick      # swift build -c release first
#   bash Scripts/kiwi-bench.sh --binary PATH            # another layout-bench
#   bash Scripts/kiwi-bench.sh check                    # kiwi's values against `layout-bench solve`
#   bash Scripts/kiwi-bench.sh run --workload chain --size 1000   # kiwi alone, as JSON
# Without a mode the arguments go to `kiwi_bench.py compare`. The venv is .build/kiwi-venv, the
# same one Scripts/kiwi-crosscheck.sh uses, with the same pinned kiwisolver.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build/kiwi-venv"
# Take the pin from kiwi-crosscheck.sh, so that the two scripts never reinstall over each other.
kiwi_version="$(sed -n 's/^kiwi_version="\(.*\)"$/\1/p' "$root/Scripts/kiwi-crosscheck.sh" \
    2>/dev/null || true)"
kiwi_version="${kiwi_version:-1.5.1}"

build=0
args=()
for arg in "$@"; do
    if [[ "$arg" == "--build" ]]; then build=1; else args+=("$arg"); fi
done

setup_venv() {
    if [[ ! -x "$venv/bin/python" ]]; then
        mkdir -p "$root/.build"
        python3 -m venv "$venv"
    fi
    if ! "$venv/bin/python" -c \
            "import sys, kiwisolver as k; sys.exit(k.__version__ != '$kiwi_version')" 2>/dev/null
    then
        echo "kiwi-bench: installing kiwisolver==$kiwi_version into $venv" >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
            "kiwisolver==$kiwi_version" >&2
    fi
}

# One setup at a time when several runs start together (flock is in util-linux; without it,
# go ahead: the steps are idempotent).
mkdir -p "$root/.build"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$root/.build/kiwi-venv.lock"
    flock 9
    setup_venv
    flock -u 9
    exec 9>&-
else
    setup_venv
fi

if [[ "$build" == 1 ]]; then
    echo "kiwi-bench: swift build -c release" >&2
    (cd "$root" && swift build -c release >&2)
fi

case "${args[0]:-}" in
    run|compare|values|script|check) ;;
    *) args=(compare "${args[@]+"${args[@]}"}") ;;
esac
exec "$venv/bin/python" "$root/Scripts/kiwi_bench.py" "${args[@]}"
