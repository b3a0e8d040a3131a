#!/usr/bin/env bash
# Builds Tests/Fixtures/Symbols/CrashDemo/: iOSCrashingTest, an arm64 iOS Mach-O from src/crashdemo.c whose functions
# carry Swift-mangled names of an optimized build (a specialization, a closure, an @objc thunk), its dSYM, and
# facts.txt with what llvm-nm and llvm-dwarfdump say of them (UUID, symbol addresses), and iOSCrashingTest.ips: a
# crash whose four frames are return addresses inside those functions (image offsets below), unsymbolicated, as a
# device writes them. Same toolchain as Scripts/make-symbols.sh; outputs committed.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/Symbols/CrashDemo"
build=/tmp/casefile-make-crashdemo
rm -rf "$build" iOSCrashingTest iOSCrashingTest.dSYM && mkdir -p "$build"
export ZERO_AR_DATE=1
trap 'rm -rf "$build"' EXIT
clang -target arm64-apple-ios15.0 -g -O1 -fdebug-prefix-map="$PWD"=. -c src/crashdemo.c -o "$build/crashdemo.o"
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -o iOSCrashingTest "$build/crashdemo.o"
dsymutil-14 iOSCrashingTest -o iOSCrashingTest.dSYM
{
    echo "# llvm-dwarfdump-14 --uuid iOSCrashingTest"
    llvm-dwarfdump-14 --uuid iOSCrashingTest
    echo "# llvm-nm-14 --numeric-sort iOSCrashingTest"
    llvm-nm-14 --numeric-sort iOSCrashingTest
} > facts.txt

# The crash: main + 8 → @objc viewDidLoad + 12 → closure + 8 → pleaseCrash + 4, loaded at 0x102a34000.
uuid=$(llvm-dwarfdump-14 --uuid iOSCrashingTest | awk '{print tolower($2)}')
python3 - "$uuid" <<'PY'
import json, sys
uuid = sys.argv[1]
symbols = {}
for line in open("facts.txt"):
    parts = line.split()
    if len(parts) == 3 and parts[1] == "T":
        symbols[parts[2]] = int(parts[0], 16) - 0x100000000
frames = [
    symbols["_$s15iOSCrashingTest10CrashClassC11pleaseCrashyyFZTf4d_n"] + 4,
    symbols["_$s15iOSCrashingTest14ViewControllerC11viewDidLoadyyFyycfU_"] + 8,
    symbols["_$s15iOSCrashingTest14ViewControllerC11viewDidLoadyyFTo"] + 12,
    symbols["_main"] + 8,
]
base = 0x102a34000
header = {"app_name": "iOSCrashingTest", "timestamp": "2026-11-23 10:00:00.00 +0000", "app_version": "1.0",
          "slice_uuid": uuid, "build_version": "1", "platform": 2, "bundleID": "com.example.iOSCrashingTest",
          "bug_type": "309", "os_version": "iPhone OS 17.2 (21C62)",
          "incident_id": "5E5E5E5E-0000-4000-8000-000000000001", "name": "iOSCrashingTest"}
body = {
    "incident": "5E5E5E5E-0000-4000-8000-000000000001", "modelCode": "iPhone15,2", "cpuType": "ARM-64",
    "osVersion": {"train": "iPhone OS 17.2", "build": "21C62", "releaseType": "User"},
    "procName": "iOSCrashingTest", "procPath": "/private/var/containers/Bundle/Application/X/iOSCrashingTest.app/iOSCrashingTest",
    "bundleInfo": {"CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "CFBundleIdentifier": "com.example.iOSCrashingTest"},
    "captureTime": "2026-11-23 10:00:00.0000 +0000",
    "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": "KERN_INVALID_ADDRESS at 0x0000000000000000",
                  "codes": "0x0000000000000001, 0x0000000000000000"},
    "faultingThread": 0,
    "threads": [{"triggered": True, "id": 1, "queue": "com.apple.main-thread",
                 "frames": [{"imageOffset": offset, "imageIndex": 0} for offset in frames]}],
    "usedImages": [{"source": "P", "arch": "arm64", "base": base, "size": 0x8000, "uuid": uuid,
                    "path": "/private/var/containers/Bundle/Application/X/iOSCrashingTest.app/iOSCrashingTest",
                    "name": "iOSCrashingTest"}],
}
with open("iOSCrashingTest.ips", "w") as out:
    out.write(json.dumps(header) + "\n" + json.dumps(body, indent=2) + "\n")
PY
