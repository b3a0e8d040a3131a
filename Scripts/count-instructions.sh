#!/usr/bin/env bash
# Instructions one `casefile run` executes over a generated inbox, counted by valgrind's callgrind: the same count on
# every run of one build (two runs of 100 inputs differed by 0.01 %), whatever else the machine is doing, where wall and
# processor time on this project's VM move by 5-10 % from minute to minute and by half between its phases. With two
# builds, each is counted on the same inbox and the change from A to B is printed. Counts compare builds, not stages.
#   Scripts/count-instructions.sh CASEFILE_A [CASEFILE_B] [INPUTS]   (default: 100 inputs, about 40 s a build)
#
# Three things make a count here differ from what the hardware runs, each the same for both builds:
# - valgrind 3.19 cannot read the DWARF of Swift 6.3's release builds ("Possibly corrupted debuginfo file"), so each
#   build is counted from a copy with its debug sections stripped; its symbol table stays, and functions keep names.
# - Foundation's Process adds a close action for every descriptor below the limit when it starts llvm-symbolizer, and
#   under valgrind the limit is a million: a quarter of the count went there. The count runs with `ulimit -n 1024`.
# - SHA-256 runs BoringSSL's AVX code under valgrind (valgrind offers no SHA extensions), about 40 % of the count,
#   where `perf` puts hashing at 5 % of the processor on this VM. The count without it is printed beside the total.
# llvm-symbolizer, which the run starts, is not counted.
set -euo pipefail
a=${1:?usage: Scripts/count-instructions.sh CASEFILE_A [CASEFILE_B] [INPUTS]}
b=""
inputs=100
if [ $# -ge 2 ]; then
    if [[ $2 =~ ^[0-9]+$ ]]; then inputs=$2; else b=$2; fi
fi
[ $# -ge 3 ] && inputs=$3
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is needed: apt-get install -y valgrind" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
memory=${BENCH_INBOX_ROOT:-/dev/shm}
[ -d "$memory" ] && [ -w "$memory" ] || memory=${TMPDIR:-/tmp}
work=$(mktemp -d "$memory/casefile-count.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The inbox and symbols make bench uses (Scripts/bench-run.sh), at a size valgrind gets through in under a minute.
"$root/Scripts/make-large-symbols.sh" "$work/app-symbols" 20000 > /dev/null
python3 "$root/Scripts/make-inbox.py" "$inputs" "$work/inbox" --app-symbols "$work/app-symbols" > /dev/null
cat > "$work/run.toml" <<TOML
version = 1
[inbox]
path = "$work/inbox"
[output]
path = "$work/out"
# The inbox's videos hold no frames (see Scripts/bench-run.sh).
frames = false
[symbols]
paths = ["$root/SampleReports/Symbols", "$work/app-symbols"]
TOML

# Counts build $2 (named $1): prints "total without-sha256".
count() {
    strip --strip-debug -o "$work/$1" "$2"
    rm -rf "$work/out"
    (ulimit -n 1024 && valgrind --tool=callgrind --callgrind-out-file="$work/$1.callgrind" \
        "$work/$1" run "$work/run.toml" > /dev/null 2> "$work/$1.log") || true
    grep -q "Collected" "$work/$1.log" || { echo "valgrind did not finish on $2:" >&2; tail -5 "$work/$1.log" >&2; exit 1; }
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

read -r total_a rest_a <<< "$(count a "$a")"
echo "A ($a): $total_a instructions over $inputs inputs, $((total_a / inputs)) per input; without SHA-256 $rest_a, $((rest_a / inputs)) per input"
if [ -n "$b" ]; then
    read -r total_b rest_b <<< "$(count b "$b")"
    echo "B ($b): $total_b instructions over $inputs inputs, $((total_b / inputs)) per input; without SHA-256 $rest_b, $((rest_b / inputs)) per input"
    python3 -c "
import sys
ta, ra, tb, rb = map(int, sys.argv[1:])
print('B against A: %+.2f %% of the instructions, %+.2f %% without SHA-256' % (100 * (tb - ta) / ta, 100 * (rb - ra) / ra))
" "$total_a" "$rest_a" "$total_b" "$rest_b"
fi
