#!/usr/bin/env bash
# Instructions one `casefile run` executes over a generated inbox, counted by valgrind's callgrind: nearly the same
# count on every run of one build (two runs of 100 inputs differed by 0.01 %; two of 1,000 inputs by 0.13 % when other
# jobs shared the processors, since the index writer also ends a batch after two seconds), where wall and processor
# time on this project's VMs move by 5-10 % from minute to minute and by half from one VM to the next. With
# two builds, each is counted on the same inbox and the change from A to B is printed. Counts compare builds, not
# stages.
#   Scripts/count-instructions.sh CASEFILE_A [CASEFILE_B] [INPUTS]   (default: 100 inputs, about 40 s a build; 1,000
#   inputs take about 7 minutes a build)
#
# What makes a count here differ from what the hardware runs, the same for both builds:
# - valgrind 3.19 cannot read the DWARF of Swift 6.3's release builds ("Possibly corrupted debuginfo file"), so each
#   build is counted from a copy with its debug sections stripped; its symbol table stays, and functions keep names.
# - Foundation's Process cannot start llvm-symbolizer under valgrind (it asks to close valgrind's own descriptors too,
#   and the start fails, once per crash), so the run has no symbol folders: the app's frames are not symbolicated, and
#   the count leaves out what a run spends on llvm-symbolizer's answers (`make bench` and Scripts/ab-run.sh time runs
#   with them).
# - valgrind runs one thread at a time; with its default scheduling libdispatch took threads waiting their turn for
#   blocked ones and started more, until at 1,000 inputs the run ran out of descriptors and libdispatch stopped it.
#   The count runs with `--fair-sched=yes`, under which 1,000 inputs ran through.
# - SHA-256 runs BoringSSL's AVX code under valgrind (valgrind offers no SHA extensions), about 40 % of the count,
#   where `perf` puts hashing at 5 % of the processor on this VM. The count without it is printed beside the total.
set -euo pipefail
a=${1:?usage: Scripts/count-instructions.sh CASEFILE_A [CASEFILE_B] [INPUTS]}
b=""
inputs=100
if [ $# -ge 2 ]; then
    if [[ $2 =~ ^[0-9]+$ ]]; then inputs=$2; else b=$2; fi
fi
[ $# -ge 3 ] && inputs=$3
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is needed: apt-get install -y valgrind" >&2; exit 2; }
# The inbox make bench uses, at a size valgrind gets through in under a minute; no symbol folders (above).
. "$(dirname "$0")/bench-inbox.sh"
bench_inbox count "$inputs"

# Counts build $2 (named $1): prints "total without-sha256".
count() {
    strip --strip-debug -o "$work/$1" "$2"
    rm -rf "$work/out"
    local status=0
    valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$work/$1.callgrind" \
        "$work/$1" run "$work/run.toml" > /dev/null 2> "$work/$1.log" || status=$?
    # 1 is the run's own: the inbox's hostile inputs are quarantined. Anything else, and the count is of half a run.
    if [ "$status" -gt 1 ] || grep -q "Too many open files" "$work/$1.log"; then
        echo "casefile under valgrind exited with $status on $2 (log: $work/$1.log):" >&2
        grep -v '^==[0-9]*== *$' "$work/$1.log" | tail -8 >&2
        trap - EXIT
        exit 1
    fi
    callgrind_annotate --inclusive=yes "$work/$1.callgrind" 2> /dev/null | python3 -c '
import re, sys
total = sha = 0
for line in sys.stdin:
    found = re.match(r"\s*([\d,]+)", line)
    if not found:
        continue
    value = int(found.group(1).replace(",", ""))
    if "PROGRAM TOTALS" in line:
        total = value
    elif "CCryptoBoringSSL_SHA256_Update" in line:
        sha = max(sha, value)
print(total, total - sha)'
}

# Prints build $1's line: its name $2 and counts $3 (total) and $4 (without SHA-256).
report() {
    echo "$1 ($2): $3 instructions over $inputs inputs, $(($3 / inputs)) per input;" \
        "without SHA-256 $4, $(($4 / inputs)) per input"
}

read -r total_a rest_a <<< "$(count a "$a")"
report A "$a" "$total_a" "$rest_a"
if [ -n "$b" ]; then
    read -r total_b rest_b <<< "$(count b "$b")"
    report B "$b" "$total_b" "$rest_b"
    python3 -c "
import sys
ta, ra, tb, rb = map(int, sys.argv[1:])
print('B against A: %+.2f %% of the instructions, %+.2f %% without SHA-256' % (
    100 * (tb - ta) / ta, 100 * (rb - ra) / ra))
" "$total_a" "$rest_a" "$total_b" "$rest_b"
fi
