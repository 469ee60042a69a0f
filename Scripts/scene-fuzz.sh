#!/usr/bin/env bash
# A long campaign of the malformed-scene-file fuzz (Tests/LayoutHarnessTests/
# SceneFileErrorTests.swift, `corruptedFilesFailCleanly`): CASES corrupted copies of the
# shipped example scenes (truncated, bytes flipped, values replaced by other types and huge
# numbers, names left dangling, members deleted) from SEED. Every one must be refused with
# the file, a JSON path and a reason, or read and run a few ticks under every strategy that
# can lay it out, without a crash. `swift test` runs 1,000 of them.
#
#   bash Scripts/scene-fuzz.sh [CASES [SEED]]      # default 20000 cases, seed 2027
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-20000}
seed=${2:-2027}
[[ "$cases" =~ ^[0-9]+$ && "$seed" =~ ^[0-9]+$ ]] || {
  echo "usage: bash Scripts/scene-fuzz.sh [CASES [SEED]]" >&2
  exit 1
}
echo "scene-fuzz: $cases cases from seed $seed" >&2
SCENE_FUZZ_CASES=$cases SCENE_FUZZ_SEED=$seed swift test --filter corruptedFilesFailCleanly
