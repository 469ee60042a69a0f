#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for this package: jemalloc's headers and
# library (the harness counts allocations per tick with it) and pkg-config to find them;
# with --with-valgrind also valgrind, which `--instructions` (instructions per tick) needs.
# Idempotent; prints nothing when everything is already there.
set -euo pipefail

with_valgrind=0
for arg in "$@"; do
  case "$arg" in
    --with-valgrind) with_valgrind=1 ;;
    *) echo "bootstrap: unknown argument $arg (only --with-valgrind)" >&2; exit 1 ;;
  esac
done

missing=()
dpkg -s libjemalloc-dev >/dev/null 2>&1 || missing+=(libjemalloc-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if [ $with_valgrind -eq 1 ]; then command -v valgrind >/dev/null 2>&1 || missing+=(valgrind); fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "bootstrap: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "bootstrap: apt-get failed installing ${missing[*]}" >&2
  exit 1
fi
rm -f "$log"
