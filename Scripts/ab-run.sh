#!/usr/bin/env bash
# Two builds of casefile compared on one inbox, run after run in alternation: the medians of their wall and processor
# times over ROUNDS rounds each, and the change from A to B. On this project's VM one run moves by 5-10 % from minute to
# minute, more than most single changes to the run save; alternating puts both builds through the same minutes.
#   Scripts/ab-run.sh CASEFILE_A CASEFILE_B [ROUNDS] [INPUTS]   (default: 10 rounds, 1,000 inputs)
# Copy a build aside before rebuilding (cp .build/release/casefile /tmp/casefile-before) to compare it with the next.
set -euo pipefail
a=${1:?usage: Scripts/ab-run.sh CASEFILE_A CASEFILE_B [ROUNDS] [INPUTS]}
b=${2:?usage: Scripts/ab-run.sh CASEFILE_A CASEFILE_B [ROUNDS] [INPUTS]}
rounds=${3:-10}
inputs=${4:-1000}
# The inbox and symbol folders make bench uses (Scripts/bench-run.sh).
. "$(dirname "$0")/bench-inbox.sh"
bench_inbox ab "$inputs" symbols

# One run of $1 with a new output: "wall user+system" in seconds.
measure() {
    rm -rf "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$1" run "$work/run.toml" > /dev/null 2>&1 || true
    tail -1 "$work/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
}

for round in $(seq "$rounds"); do
    echo "A $(measure "$a")"
    echo "B $(measure "$b")"
done > "$work/times"

python3 - "$work/times" "$a" "$b" "$inputs" "$rounds" <<'PY'
import statistics, sys
path, a, b, inputs, rounds = sys.argv[1:]
times = {"A": ([], []), "B": ([], [])}
for line in open(path):
    build, wall, cpu = line.split()
    times[build][0].append(float(wall))
    times[build][1].append(float(cpu))
for build, binary in (("A", a), ("B", b)):
    walls, cpus = times[build]
    print("%s (%s): median wall %.3f s (%.2f-%.2f), processor %.3f s, over %s inputs, %s rounds" % (
        build, binary, statistics.median(walls), min(walls), max(walls), statistics.median(cpus), inputs, rounds))
for index, name in ((0, "wall"), (1, "processor")):
    before, after = statistics.median(times["A"][index]), statistics.median(times["B"][index])
    print("B against A, %s: %+.1f %%" % (name, 100 * (after - before) / before))
PY
