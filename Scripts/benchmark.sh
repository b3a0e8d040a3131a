#!/usr/bin/env bash
# Prints issue #2's figures for a release build of casefile:
#   1. wall time of `casefile triage` on the checkout sample, process start included (median and p90 of 30 runs);
#   2. reports per second of `casefile run` over 1,000 distinct inputs made from the samples (half package
#      folders, half tar.gz archives; each copy carries its own Info/info_bench.json, so none is skipped as seen).
set -euo pipefail
bin=${1:?usage: Scripts/benchmark.sh PATH/TO/casefile}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now_ns() { date +%s%N; }

times=()
for _ in $(seq 30); do
    start=$(now_ns)
    "$bin" triage "$root/SampleReports/checkout-500.clue.zip" >/dev/null
    times+=($(( ($(now_ns) - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
awk -v median="${sorted[14]}" -v p90="${sorted[26]}" 'BEGIN {
    printf "triage checkout-500.clue.zip: median %.1f ms, p90 %.1f ms (30 runs, wall, process start included)\n",
        median / 1000, p90 / 1000 }'

sources=("$root/SampleReports/5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue"
         "$root/SampleReports/E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue")
for zip in clean-session.zip offline-1009.clue.zip; do
    mkdir -p "$work/src/$zip"
    python3 -m zipfile -e "$root/SampleReports/$zip" "$work/src/$zip"
    package=$(find "$work/src/$zip" -type d -name Info -print -quit | xargs dirname)
    sources+=("$package")
done
mkdir -p "$work/inbox"
count=1000
for i in $(seq "$count"); do
    source=${sources[$(( i % ${#sources[@]} ))]}
    cp -R "$source" "$work/inbox/r$i.clue"
    printf '{"copy":%d}\n' "$i" > "$work/inbox/r$i.clue/Info/info_bench.json"
    if (( i % 2 == 0 )); then
        tar -czf "$work/inbox/r$i.tar.gz" -C "$work/inbox" "r$i.clue"
        rm -rf "$work/inbox/r$i.clue"
    fi
done
cat > "$work/bench.toml" <<TOML
version = 1
[inbox]
path = "inbox"
[output]
path = "out"
TOML
start=$(now_ns)
"$bin" run "$work/bench.toml" >/dev/null
elapsed_ns=$(( $(now_ns) - start ))
awk -v count="$count" -v ns="$elapsed_ns" -v cores="$(nproc)" 'BEGIN {
    printf "run over %d inputs: %.2f s wall, %.0f reports/s (%d cores)\n", count, ns / 1e9, count * 1e9 / ns, cores }'
