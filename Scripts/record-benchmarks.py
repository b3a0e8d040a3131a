#!/usr/bin/env python3
"""Writes the figures `make bench` printed (standard input) into BENCHMARKS.md's latest-run section, with the machine
they came from; the rest of the file (its introduction, and the list of the history's monthly files in Benchmarks/) is
kept."""
import datetime
import os
import platform
import re
import subprocess
import sys

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "BENCHMARKS.md")
figures = [line.rstrip() for line in sys.stdin if ":" in line and not line.startswith(("[", "Build", "swift", "Building"))]


def command(*arguments):
    try:
        return subprocess.run(arguments, capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
    except Exception:
        return "unknown"


memory = "unknown"
try:
    with open("/proc/meminfo") as meminfo:
        memory = "%.0f GiB" % (int(meminfo.readline().split()[1]) / 1024 / 1024)
except OSError:
    pass
cpu = "unknown"
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "unknown")
except OSError:
    pass
section = "\n".join([
    "<!-- latest: written by make bench (Scripts/record-benchmarks.py) -->",
    "## Latest run — %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "",
    "Machine: %d cores (%s), %s, %s %s; %s." % (os.cpu_count() or 0, cpu, memory, platform.system(), platform.release(),
                                                command("swift", "--version")),
    "",
    "```",
    *figures,
    "```",
    "<!-- /latest -->",
])
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
if "<!-- latest:" in text:
    text = re.sub(r"<!-- latest:.*?<!-- /latest -->", lambda _: section, text, flags=re.S)
else:
    head, _, rest = text.partition("\n## ")
    text = head.rstrip() + "\n\n" + section + "\n" + ("\n## " + rest if rest else "")
open(path, "w").write(text)
print("figures written to BENCHMARKS.md")
