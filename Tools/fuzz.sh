#!/usr/bin/env bash
# Fuzzes every target (or the ones named) with libFuzzer for a given time each.
#
#   Tools/fuzz.sh [--seconds N] [--jobs J] [TARGET...]
#
# Targets: atoms, id3-tag, id3-frame, read-mp4, read-mpeg, read-iff, read-flac, read-ogg, read-ts, write
# (Fuzz/Harness), and taglib, run only by name: it compares with the system TagLib (libtag1-dev), and
# the classes of difference it finds are still being judged (the Reliability article, Fuzzing), so it is not in the
# default round that .ci/run runs.
# Builds Fuzz/mediafuzz in release mode with `-sanitize=fuzzer,address` (every module of the
# package is instrumented for coverage and checked by AddressSanitizer; linked with lld) into
# .build-fuzz, seeds each target from the fixtures and its past findings, and runs it with:
#   -timeout=2          an input taking longer than 2 s is a finding (a hang)
#   -rss_limit_mb=3072  the process growing past 3 GiB is a finding (ASan's own overhead
#                       included)
#   -malloc_limit_mb=256  any single allocation over 256 MiB is a finding (no input is that
#                       big; the parsers' documented caps are lower)
# The growing corpus stays in .build-fuzz/corpus/TARGET (not committed). A crash, hang or
# finding is written to Fuzz/Findings/TARGET/ and the script exits 1: fix the code, keep the
# input (the test suite replays every file there). Each run appends a line per target to
# Fuzz/executions.tsv (date, target, fuzzing seconds over all workers, executions, findings);
# Tools/fuzz-totals.sh sums it for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH

seconds=60
jobs=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(atoms id3-tag id3-frame read-mp4 read-mpeg read-iff read-flac read-ogg read-ts write)

swift build -c release --scratch-path .build-fuzz --product mediafuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
fuzzer=.build-fuzz/release/mediafuzz

status=0
for target in "${targets[@]}"; do
    case "$target" in
        atoms|read-mp4) dict=Fuzz/Dictionaries/atoms.dict ;;
        id3-tag|id3-frame|read-mpeg|read-iff) dict=Fuzz/Dictionaries/id3.dict ;;
        read-ts) dict=Fuzz/Dictionaries/ts.dict ;;
        read-flac) dict=Fuzz/Dictionaries/flac.dict ;;
        read-ogg) dict=Fuzz/Dictionaries/ogg.dict ;;
        write|taglib) dict=.build-fuzz/all.dict; cat Fuzz/Dictionaries/*.dict > "$dict" ;;
        *) echo "unknown target $target" >&2; exit 64 ;;
    esac
    corpus=.build-fuzz/corpus/$target
    seeds=.build-fuzz/seeds/$target
    findings=Fuzz/Findings/$target
    mkdir -p "$corpus" "$findings"
    rm -rf "$seeds"
    "$fuzzer" --write-seeds "$target" "$seeds" Fixtures/*
    log=.build-fuzz/$target.log
    echo "== $target: $seconds s"
    set +e
    # The differential target's findings are property maps, not memory faults: it runs without
    # the allocation stacks AddressSanitizer records (a third of its time).
    asan=${ASAN_OPTIONS:-}
    if [ "$target" = taglib ] && [ -z "$asan" ]; then asan=malloc_context_size=0; fi
    ASAN_OPTIONS=$asan MEDIAFUZZ_TARGET=$target "$fuzzer" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=3072 -malloc_limit_mb=256 \
        -dict="$dict" -artifact_prefix="$findings/" -print_final_stats=1 $( [ "$jobs" -gt 1 ] && echo "-jobs=$jobs -workers=$jobs" ) \
        "$corpus" "$seeds" "$findings" > "$log" 2>&1
    result=$?
    set -e
    # With --jobs, each worker logs to fuzz-N.log.
    executions=$(awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}' "$log" $(ls fuzz-*.log 2>/dev/null || true))
    found=0
    if [ $result -ne 0 ]; then
        found=1
        status=1
        grep -hE 'ERROR|finding|Fatal error|SUMMARY|Test unit written' "$log" $(ls fuzz-*.log 2>/dev/null || true) | awk 'NR <= 20' >&2 || true
    fi
    # The package's code must really be instrumented (a build without -sanitize=fuzzer reaches
    # libFuzzer with a few hundred counters from the driver alone).
    counters=$(sed -n 's/.*Loaded 1 modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" $(ls fuzz-*.log 2>/dev/null || true) | awk 'NR == 1')
    if [ "${counters:-0}" -lt 20000 ]; then
        echo "   only ${counters:-0} coverage counters: the libraries are not instrumented" >&2
        status=1
    fi
    grep -hE '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true
    rm -f fuzz-*.log
    echo "   $executions executions, $( [ $found -eq 0 ] && echo 'no findings' || echo "FINDING (log: $log)" )"
    # Fuzzing time counts every worker: J jobs for N seconds is J*N seconds.
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%d)" "$target" "$((seconds * jobs))" "$executions" "$found" >> Fuzz/executions.tsv
done
exit $status
