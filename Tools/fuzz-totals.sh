#!/usr/bin/env bash
# Sums Fuzz/executions.tsv per target, as the table in the Fuzzing section of the Reliability
# article (Sources/MediaMetadata/MediaMetadata.docc/Reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "| target | time fuzzed | executions | findings |"
echo "|---|---:|---:|---:|"
awk -F'\t' 'NR > 1 { e[$2] += $4; t[$2] += $3; f[$2] += $5; total += $4; secs += $3; found += $5 }
    END {
        for (k in e) printf "| `%s` | %d min | %d | %d |\n", k, t[k] / 60, e[k], f[k] | "sort"
        close("sort")
        printf "| all | %d min | %d | %d |\n", secs / 60, total, found
    }' Fuzz/executions.tsv
