#!/usr/bin/env bash
# Runs Scripts/kiwi_crosscheck.py inside a private venv that has kiwisolver (the C++ kiwi
# solver's Python binding), creating the venv and installing kiwisolver only when missing.
#   bash Scripts/kiwi-crosscheck.sh generate --count 300 --seed 1 --out DIR
#   bash Scripts/kiwi-crosscheck.sh check --binary .build/release/layout-bench
#   bash Scripts/kiwi-crosscheck.sh fresh --count 500 --seed 7 --binary .build/release/layout-bench
#   bash Scripts/kiwi-crosscheck.sh judge --binary .build/release/layout-bench FILE.cass...
#                                                         # kiwi against the binary, any scripts
#   bash Scripts/kiwi-crosscheck.sh solve FILE.cass        # kiwi's answer for one script
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build/kiwi-venv"
# Pinned so that regenerated fixtures are byte-identical; change it on purpose only.
kiwi_version="1.5.1"

if [[ ! -x "$venv/bin/python" ]]; then
    mkdir -p "$root/.build"
    python3 -m venv "$venv"
fi
have_kiwi="import sys, kiwisolver; sys.exit(kiwisolver.__version__ != '$kiwi_version')"
if ! "$venv/bin/python" -c "$have_kiwi" 2>/dev/null; then
    echo "kiwi-crosscheck: installing kiwisolver==$kiwi_version into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        "kiwisolver==$kiwi_version" >&2
fi

exec "$venv/bin/python" "$root/Scripts/kiwi_crosscheck.py" "$@"
