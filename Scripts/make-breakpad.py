#!/usr/bin/env python3
"""Writes SampleReports/Symbols/Breakpad/ShopApp.sym for the arm64 ShopApp fixture, in Breakpad's text format.

Debian ships no dump_syms, so this reads what llvm's tools print of the dSYM — the UUID, the function starts
(llvm-nm), the line table and the inlined subroutines (llvm-dwarfdump) — and writes the records dump_syms would:
MODULE, INFO CODE_ID, FILE, INLINE_ORIGIN, FUNC with INLINE and line records, PUBLIC. Addresses are relative to
the image's __TEXT base (0x100000000), as Breakpad's are. Run by Scripts/make-symbols.sh.
"""
import os
import re
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "SampleReports", "Symbols")
BINARY = os.path.join(ROOT, "ShopApp")
DWARF = os.path.join(ROOT, "ShopApp.dSYM", "Contents", "Resources", "DWARF", "ShopApp")
BASE = 0x100000000
DWARFDUMP = "llvm-dwarfdump-14" if subprocess.run(["which", "llvm-dwarfdump-14"], capture_output=True).returncode == 0 \
    else "/usr/lib/llvm-14/bin/llvm-dwarfdump"


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


uuid = re.search(r"UUID: ([0-9A-F-]+)", run(DWARFDUMP, "--uuid", DWARF)).group(1).replace("-", "")
functions = []
for line in run("llvm-nm", "-n", BINARY).splitlines():
    address, kind, name = line.split(maxsplit=2)
    if kind == "T" and name != "__mh_execute_header":
        functions.append([int(address, 16), name[1:] if name.startswith("_") else name])
# A function ends where the next symbol starts; the last one at the end of the line table.
rows = []
for line in run(DWARFDUMP, "--debug-line", DWARF).splitlines():
    match = re.match(r"0x([0-9a-f]{16})\s+(\d+)\s+(\d+)\s+(\d+)", line)
    if match:
        rows.append((int(match.group(1), 16), int(match.group(2)), "end_sequence" in line))
end = rows[-1][0]
for index, function in enumerate(functions):
    function.append(functions[index + 1][0] if index + 1 < len(functions) else end)

inlines = []
info = run(DWARFDUMP, "--debug-info", DWARF)
for block in info.split("DW_TAG_inlined_subroutine")[1:]:
    origin = re.search(r'DW_AT_abstract_origin\s+\(0x[0-9a-f]+ "([^"]+)"\)', block).group(1)
    low = int(re.search(r"DW_AT_low_pc\s+\(0x([0-9a-f]+)\)", block).group(1), 16)
    high = int(re.search(r"DW_AT_high_pc\s+\(0x([0-9a-f]+)\)", block).group(1), 16)
    call_line = int(re.search(r"DW_AT_call_line\s+\((\d+)\)", block).group(1))
    inlines.append((origin, low, high, call_line))
origins = sorted({origin for origin, _, _, _ in inlines})

out = [f"MODULE mac arm64 {uuid}0 ShopApp", f"INFO CODE_ID {uuid}", "FILE 0 ./src/checkout.c"]
out += [f"INLINE_ORIGIN {index} {name}" for index, name in enumerate(origins)]
for start, name, stop in functions:
    out.append(f"FUNC {start - BASE:x} {stop - start:x} 0 {name}")
    for origin, low, high, call_line in inlines:
        if start <= low < stop:
            out.append(f"INLINE 0 {call_line} 0 {origins.index(origin)} {low - BASE:x} {high - low:x}")
    for (address, line, is_end), following in zip(rows, rows[1:]):
        if start <= address < stop and not is_end and line > 0:
            out.append(f"{address - BASE:x} {min(following[0], stop) - address:x} {line} 0")
for start, name, _ in functions:
    out.append(f"PUBLIC {start - BASE:x} 0 {name}")
os.makedirs(os.path.join(ROOT, "Breakpad"), exist_ok=True)
with open(os.path.join(ROOT, "Breakpad", "ShopApp.sym"), "w") as f:
    f.write("\n".join(out) + "\n")
print("\n".join(out))
