#!/usr/bin/env bash
# Runs the whole test suite with the solver's internal invariant checks compiled in
# (CASSOWARY_INTERNAL_CHECKS: Solver+Invariants.swift then verifies the tableau after every
# public mutation), in its own scratch path so that it never disturbs .build/.
#
# Usage: Scripts/check.sh [extra `swift test` arguments, e.g. --filter CassowaryTests]
# Prints the test output, then one verdict line; exits 0 only when every test passed.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=.build-checks
flags=(--scratch-path "$scratch" -Xswiftc -DCASSOWARY_INTERNAL_CHECKS)

if ! swift build --build-tests "${flags[@]}"; then
  echo "check.sh: FAIL (the package does not build with CASSOWARY_INTERNAL_CHECKS)"
  exit 1
fi

# `-Xswiftc` reaches every Swift target of the root package; make sure it did reach the
# Cassowary module, whose checks would otherwise compile to empty stubs and pass silently.
description="$scratch/debug/description.json"
if ! python3 - "$description" <<'PY'
import json, sys
commands = json.load(open(sys.argv[1]))["swiftCommands"].values()
sys.exit(0 if any(c.get("moduleName") == "Cassowary"
                  and "CASSOWARY_INTERNAL_CHECKS" in " ".join(c.get("otherArguments", []))
                  for c in commands) else 1)
PY
then
  echo "check.sh: FAIL (CASSOWARY_INTERNAL_CHECKS did not reach the Cassowary module; see $description)"
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test "${flags[@]}" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# swift-testing's closing line, e.g. "✔ Test run with 120 tests in 8 suites passed after 9.1 seconds."
summary=$(grep -E 'Test run with [0-9]+ tests?' "$log" | tail -n 1 | sed -E 's/^[^A-Za-z]*//')
if [ "$status" -eq 0 ]; then
  echo "check.sh: PASS with invariant checks on (${summary:-no swift-testing summary})"
elif [ -n "$summary" ]; then
  echo "check.sh: FAIL with invariant checks on (${summary})"
else
  # No summary: the process died, most likely on a failed invariant precondition.
  reason=$(grep -m 1 -iE 'precondition failed|fatal error|assertion failed' "$log" | sed -E 's/^[[:space:]]+//')
  echo "check.sh: FAIL, the test process crashed (exit $status)${reason:+: $reason}"
fi
exit "$status"
