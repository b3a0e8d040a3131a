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
    printf "run over %d .clue recordings copied from the samples: %.2f s wall, %.0f reports/s (%d cores)\n",
        count, ns / 1e9, count * 1e9 / ns, cores }'

# 3. Peak RSS of `casefile triage` on the checkout sample, and on the same recording whose video entry is 1 GB
#    (the QuickTime header of the sample, then incompressible bytes; stored, as Clue's zips store video).
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
python3 - "$root/SampleReports/checkout-500.clue.zip" "$work/video-1g.clue.zip" <<'PY'
import os, sys, zipfile
source, target = sys.argv[1:]
size = 1 << 30
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", allowZip64=True) as zout:
    for info in zin.infolist():
        data = zin.read(info)
        if not info.filename.endswith("module_video.mp4"):
            zout.writestr(info, data, zipfile.ZIP_DEFLATED)
            continue
        entry = zipfile.ZipInfo(info.filename, info.date_time)
        entry.compress_type = zipfile.ZIP_STORED
        with zout.open(entry, "w", force_zip64=True) as video:
            video.write(data)
            chunk = os.urandom(1 << 20)
            written = len(data)
            while written < size:
                part = chunk[: min(len(chunk), size - written)]
                video.write(part)
                written += len(part)
PY
baseline=$(peak_kb "$bin" triage "$root/SampleReports/checkout-500.clue.zip")
large=$(peak_kb "$bin" triage "$work/video-1g.clue.zip")
awk -v base="$baseline" -v large="$large" 'BEGIN {
    # The two peaks differ by less than a megabyte either way: printed with a tenth and its sign, not as "-0".
    printf "triage with a 1 GB video entry: peak RSS %.0f MB (%.0f MB without it; %+.1f MB above)\n",
        large / 1024, base / 1024, (large - base) / 1024 }'
rm -f "$work/video-1g.clue.zip"

# 3b. A text file that is no report, of one 40 MB line with a few letters that are not ASCII: every file is offered to
#     the crash sniffer and the app-log reader first. The sniffer lowercased each of its first lines whole, eight
#     times: 13 s for the 41 MB line a fuzzer found, 3 s for 10 MB. Wall time, process start included.
python3 -c 'import sys; open(sys.argv[1], "wb").write((("\u00e9" + "a" * 99) * 400000).encode())' "$work/one-line.txt"
/usr/bin/time -f "%e %M" -o "$work/one-line.time" "$bin" triage "$work/one-line.txt" > /dev/null 2>&1 || true
# time's file starts with "Command exited with non-zero status 1": the input is quarantined, no report.
tail -1 "$work/one-line.time" |
    awk '{ printf "triage of a text file of one 40 MB line, no report: %.2f s, peak RSS %.0f MB\n", $1, $2 / 1024 }'
rm -f "$work/one-line.txt" "$work/one-line.time"

# 4. Correlation (issue 9): timeline events correlated per second, and `casefile triage` of a recording with
#    10,000 events and 200 view snapshots (median of 20, process start included: five runs of one binary moved by
#    tens of milliseconds from one bench to the next on this machine).
benchmarks="$(dirname "$bin")/casefile-benchmarks"
if [ -x "$benchmarks" ]; then
    "$benchmarks" "$root/SampleReports" correlation "$work/large.clue"
    times=()
    for _ in $(seq 20); do
        start=$(now_ns)
        "$bin" triage "$work/large.clue" >/dev/null
        times+=($(( ($(now_ns) - start) / 1000 )))
    done
    sorted=($(printf '%s\n' "${times[@]}" | sort -n))
    awk -v low="${sorted[9]}" -v high="${sorted[10]}" -v fastest="${sorted[0]}" 'BEGIN {
        printf "triage of a recording with 10,000 events and 200 view snapshots: median %.0f ms (20 runs; fastest %.0f ms)\n",
            (low + high) / 2000, fastest / 1000 }'
    # 5. The nightly run over an inbox of long recordings: 24 copies of that recording (3.6 MB each; half of them
    #    folders, half zips, which say nothing of their unpacked size until unpacked), each with an info file of its own.
    #    The run keeps twelve inputs per core in flight; its budget of bytes in flight keeps its memory bounded.
    mkdir -p "$work/long-inbox"
    python3 - "$work/large.clue" "$work/long-inbox" <<'PY'
import os, shutil, sys, zipfile
source, inbox = sys.argv[1:]
for copy in range(24):
    folder = os.path.join(inbox, "long-%02d.clue" % copy)
    shutil.copytree(source, folder)
    with open(os.path.join(folder, "Info", "info_bench.json"), "w") as info:
        info.write('{"copy":%d}\n' % copy)
    if copy % 2:
        with zipfile.ZipFile(folder + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
            for directory, _, names in os.walk(folder):
                for name in sorted(names):
                    path = os.path.join(directory, name)
                    archive.write(path, os.path.relpath(path, folder))
        shutil.rmtree(folder)
PY
    printf 'version = 1\n[inbox]\npath = "long-inbox"\n[output]\npath = "long-out"\nframes = false\n' > "$work/long.toml"
    /usr/bin/time -f "%e %M" -o "$work/long.time" "$bin" run "$work/long.toml" > "$work/long.out" 2>/dev/null || true
    read -r seconds kilobytes < <(tail -1 "$work/long.time")
    reports=$(sed -n 's/.*; \([0-9]*\) new reports.*/\1/p' "$work/long.out")
    awk -v s="$seconds" -v kb="$kilobytes" -v n="$reports" 'BEGIN {
        printf "run over 24 long recordings (12 folders, 12 zips; 10,000 events each): %.2f s wall, %d reports, peak RSS %.0f MB\n",
            s, n, kb / 1024 }'
    rm -rf "$work/long-inbox" "$work/long-out"
fi
