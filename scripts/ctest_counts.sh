#!/usr/bin/env bash
# Prints "PASSED FAILED" from a ctest log's summary line ("100% tests passed out of 4" or
# "75% tests passed, 1 tests failed out of 4"); "0 1" when there is none (ctest did not run).
line=$(grep -E 'tests passed(, [0-9]+ tests failed)? out of [0-9]+' "$1" | tail -1)
[ -n "$line" ] || { echo "0 1"; exit 0; }
total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
failed=0
grep -q 'tests failed' <<<"$line" && failed=$(sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/' <<<"$line")
echo "$((total - failed)) $failed"
