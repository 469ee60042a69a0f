#!/usr/bin/env bash
# Mutation fuzzer for `layout-bench solve` with extreme magnitudes (Scripts/script_fuzz.py).
# Builds the release binary first, unless --binary is given; all arguments go to the script.
#   bash Scripts/script-fuzz.sh                        # 3000 cases, seed 1, all representations
#   bash Scripts/script-fuzz.sh --count 500 --seed 7 --representation lazy
#   bash Scripts/script-fuzz.sh --binary PATH --seed 7 --case 42   # one case, shown and run
#   bash Scripts/script-fuzz.sh FILE.cass ...          # classify (and minimise) given scripts
# Exit status 1 when a crash, hang, broken required constraint or bad output was found.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

have_binary=0
for arg in "$@"; do
    case "$arg" in
        --binary|--binary=*) have_binary=1 ;;
    esac
done

if [[ $have_binary -eq 0 ]]; then
    swift build -c release --product layout-bench >&2
    bin="$(swift build -c release --show-bin-path)/layout-bench"
    exec python3 "$root/Scripts/script_fuzz.py" --binary "$bin" "$@"
fi
exec python3 "$root/Scripts/script_fuzz.py" "$@"
