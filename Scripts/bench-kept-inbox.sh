#!/usr/bin/env bash
# An inbox that keeps its files: a team whose nightly run leaves what it read where it was has 365,000 inputs after a
# year of 1,000 a night, and every run walks them all. Writes an inbox of INPUTS small inputs (copies of the sample
# in-app signal report, each with a fault address of its own, so each is an input of its own and all are one report;
# PER_FOLDER to a folder, 2,000 unless given), runs `casefile run` over it once, then three times more over it
# unchanged, and prints the time and peak RSS of each kind of run. With KIND `distinct`, each copy's first frame is at
# an address of its own too, so each copy is a report (and a group) of its own: a night of many small crash reports,
# where the default, copies of one report, measures duplicates (every input after the first waits on the report's
# claim).
# Issue 8 asks for a peak RSS within 150 MB at any inbox size; a run holds the listing of the folder it is in, so one
# folder of all the inputs is the largest it holds.
#   Scripts/bench-kept-inbox.sh PATH/TO/casefile [INPUTS] [PER_FOLDER] [copies|distinct]
#   (default: 200,000 copies, 2,000 to a folder, about two minutes)
set -euo pipefail
bin=${1:?usage: Scripts/bench-kept-inbox.sh CASEFILE [INPUTS] [PER_FOLDER] [copies|distinct]}
inputs=${2:-200000}
per_folder=${3:-2000}
kind=${4:-copies}
case "$kind" in copies | distinct) ;; *) echo "KIND is copies or distinct, not $kind" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
# In memory, as the other runs' inboxes (Scripts/bench-run.sh): the disk would be measured, not the run.
memory=${BENCH_INBOX_ROOT:-/dev/shm}
[ -d "$memory" ] && [ -w "$memory" ] || memory=${TMPDIR:-/tmp}
work=$(mktemp -d "$memory/casefile-kept.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$root/SampleReports/Crashes/inapp-signal-sigsegv.txt" "$work/inbox" "$inputs" "$per_folder" "$kind" <<'PY'
import os, sys
sample, inbox, count, per_folder, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
text = open(sample).read()
fault = "at 0x0000000000000018"
assert fault in text, "the sample report changed: its fault address is what makes each input unique"
# The first frame's address is part of what keys a report without an incident (Crash.identity); the fault address is
# not.
frame = "0x0000000104c1f0f4"
assert frame in text, "the sample report changed: its first frame's address is what makes each report unique"
for number in range(count):
    folder = os.path.join(inbox, "night-%03d" % (number // per_folder))
    if number % per_folder == 0:
        os.makedirs(folder)
    copy = text.replace(fault, "at 0x%016x" % (0x100000 + 8 * number))
    if kind == "distinct":
        copy = copy.replace(frame, "0x%016x" % (0x104c1f0f4 + 4 * number))
    with open(os.path.join(folder, "report-%06d.txt" % number), "w") as out:
        out.write(copy)
PY
. "$root/Scripts/bench-inbox.sh"
run_toml "$work"

/usr/bin/time -f "%e %M" -o "$work/first" "$bin" run "$work/run.toml" > /dev/null 2>&1
read -r seconds kilobytes < <(tail -n 1 "$work/first")
# How the inputs lie, for both lines: "2,000 to a folder" or "all in one folder".
layout=$(python3 -c 'import sys; n, p = map(int, sys.argv[1:]); print("all in one folder" if p >= n else "{:,} to a folder".format(p))' \
    "$inputs" "$per_folder")
# What the inputs are, for the first line.
what="one in-app signal report, each copy an input of its own"
[ "$kind" = distinct ] && what="copies of an in-app signal report, each a report and a group of its own"
python3 -c 'import sys; n, s, kb, layout, what = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]; print("first run over a kept inbox of %d small inputs (%s, %s): %.1f s, %.0f inputs/s, peak RSS %.0f MB" % (n, what, layout, s, n / s, kb / 1024))' \
    "$inputs" "$seconds" "$kilobytes" "$layout" "$what"
for round in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/again.$round" "$bin" run "$work/run.toml" > /dev/null 2>&1
done
# The median run by seconds.
read -r seconds kilobytes < <(tail -q -n 1 "$work"/again.{1,2,3} | sort -n | sed -n 2p)
python3 -c 'import sys; n, s, kb, layout = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]; print("second run over that kept inbox of %d unchanged inputs (%s): %.2f s, peak RSS %.0f MB (median of 3 runs)" % (n, layout, s, kb / 1024))' \
    "$inputs" "$seconds" "$kilobytes" "$layout"
