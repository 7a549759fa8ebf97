#!/usr/bin/env bash
# Runs Herald's libFuzzer targets (Fuzz/, built by `make fuzz-build`) one after another and
# prints a table: executions, coverage (libFuzzer's final cov:/ft:) and crashes per target.
#
# Environment: FUZZ_SECONDS (per target, default 1200), FUZZ_TARGETS (names, default all),
# FUZZ_NICE (default 10), FUZZ_SCRATCH (the build's scratch path, default .build-fuzz),
# FUZZ_RUNS (default .build-fuzz-runs, gitignored). New corpus entries go to
# $FUZZ_RUNS/corpus/<target>, crash inputs to $FUZZ_RUNS/crashes/<target>/, logs to
# $FUZZ_RUNS/logs/; the seeds in Fuzz/corpus/<target> are read, never written. (Not inside
# the scratch path: SwiftPM empties its `artifacts` folder on every build.)
# Exit status 1 when any target crashed.
set -u
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-1200}
scratch=${FUZZ_SCRATCH:-.build-fuzz}
runs=${FUZZ_RUNS:-.build-fuzz-runs}
niceness=${FUZZ_NICE:-10}
# target  seed corpus     dictionary   max input bytes
all_targets="
FuzzPredicate     predicate      predicate.dict  4096
FuzzStrings       strings        -               16384
FuzzStringsdict   stringsdict    plist.dict      16384
FuzzStringCatalog string-catalog json.dict       16384
FuzzRecordChange  record-change  json.dict       8192
FuzzSubscription  subscription   json.dict       8192
FuzzSchedule      schedule       json.dict       8192
FuzzChangeToken   change-token   -               256
FuzzWireCodec     wire-codec     json.dict       8192
FuzzCompactMatch  compact-match  -               8192
"
selected=${FUZZ_TARGETS:-$(echo "$all_targets" | awk 'NF { print $1 }')}

# Swift's own crash handler reads memory the address sanitizer guards; libFuzzer reports.
export SWIFT_BACKTRACE=enable=no
# Foundation leaks an error object when a property list does not parse (swift-corelibs);
# leaks are not what these targets look for.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
rows=()
failed=0
while read -r target seeds dictionary max_len; do
    [ -n "$target" ] || continue
    case " $(echo $selected) " in *" $target "*) ;; *) continue ;; esac
    binary="$scratch/debug/$target"
    if [ ! -x "$binary" ]; then
        echo "fuzz: $binary is missing; run make fuzz-build" >&2
        exit 2
    fi
    mkdir -p "$runs/corpus/$seeds" "$runs/crashes/$seeds" "$runs/logs"
    log="$runs/logs/$target.log"
    crashes_before=$(find "$runs/crashes/$seeds" -type f | wc -l)
    options=(-max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len" -timeout=10
             -detect_leaks=0 -artifact_prefix="$runs/crashes/$seeds/")
    [ "$dictionary" = "-" ] || options+=(-dict="Fuzz/dictionaries/$dictionary")
    echo "fuzz: $target for ${seconds}s (log $log)"
    nice -n "$niceness" "$binary" "${options[@]}" "$runs/corpus/$seeds" "Fuzz/corpus/$seeds" >"$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    crashes=$(( $(find "$runs/crashes/$seeds" -type f | wc -l) - crashes_before ))
    [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] || failed=1
    rows+=("$(printf '%-18s %12s %8s %8s %8s %6s' "$target" "${executions:-?}" \
        "$(echo "$coverage" | awk '{ print $2 }')" "$(echo "$coverage" | awk '{ print $4 }')" "$crashes" "$status")")
done <<<"$all_targets"

printf '\n%-18s %12s %8s %8s %8s %6s\n' target executions cov ft crashes exit
printf '%s\n' "${rows[@]}"
[ "$failed" -eq 0 ] || echo "fuzz: crash inputs are in $runs/crashes/ (reproduce: $scratch/debug/<target> <file>)"
exit "$failed"
