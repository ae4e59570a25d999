# Sourced by the labs that run oxsparse-bench once per argument `BENCH[:SETTINGS]` (pool_ab.sh,
# rmat_kernel_sweep.sh): `run_specs SPEC...` runs the binary BENCH of folder $dir with the space-separated
# environment SETTINGS (none: OXSPARSE_LAB=1) and the bench arguments in the array `args`, every
# spec in turn, $rounds times, each process writing $out/envNN.json and printing its summary lines.
# `spec_setting SPEC`: the spec's environment settings (OXSPARSE_LAB=1 when it names none).
# `report_checks FILE...`: every oxsparse result's check against the float64 reference, counted
# over the bench JSON files (run it before the files go).
spec_setting() {
    if [ "$1" = "${1%%:*}" ]; then echo OXSPARSE_LAB=1; else echo "${1#*:}"; fi
}

run_specs() {
    local i=0 round spec b setting
    for round in $(seq "$rounds"); do
        for spec in "$@"; do
            i=$((i + 1))
            b=${spec%%:*}
            setting=$(spec_setting "$spec")
            echo "=== $i: round $round $b $setting"
            env $setting "$dir/$b" "${args[@]}" --json "$out/env$(printf %02d $i).json" 2>/dev/null | grep -E '^SpMM \['
        done
    done
}

report_checks() {
    python3 -c 'import json, sys, collections
c = collections.Counter(r.get("oxsparse", {}).get("check") for p in sys.argv[1:] for r in json.load(open(p))["results"])
print("checks of our results:", dict(c))' "$@"
}
