#!/usr/bin/env bash
# Builds SampleReports/Symbols/ from src/checkout.c: a real arm64 iOS Mach-O, its dSYM, a fat (arm64 + x86_64)
# binary with its dSYM, and facts.txt with what llvm's own tools say of them (UUIDs, symbol addresses), which the
# tests read as independent expectations. Needs clang (the Swift toolchain's), ld64.lld-14 (Debian lld-14) and
# dsymutil-14 / llvm-lipo-14 / llvm-nm / llvm-dwarfdump-14 (Debian llvm-14). The outputs are committed.
set -euo pipefail
scripts=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$0")/../SampleReports/Symbols"
# A fixed build folder: its path lands in the binaries (the debug map names the object files), so a fixed path
# keeps the UUIDs the same from one run of this script to the next.
build=/tmp/casefile-make-symbols
rm -rf "$build" && mkdir -p "$build"
# And no object-file times in the debug map (lld reads ld64's switch for it).
export ZERO_AR_DATE=1
trap 'rm -rf "$build"' EXIT

compile() {  # target, output object
    clang -target "$1" -g -O1 -fdebug-prefix-map="$PWD"=. -c src/checkout.c -o "$2"
}

rm -rf ShopApp ShopApp.dSYM Fat Build420
compile arm64-apple-ios15.0 "$build/arm64.o"
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -o ShopApp "$build/arm64.o"
dsymutil-14 ShopApp -o ShopApp.dSYM

mkdir -p Fat
compile x86_64-apple-ios15.0-simulator "$build/x86_64.o"
# A different build of the same code: an extra define changes nothing but the UUID would differ anyway.
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -o "$build/fat-arm64" "$build/arm64.o" \
    -sectcreate __DATA __fat_slice /dev/null
ld64.lld-14 -arch x86_64 -platform_version ios-simulator 15.0 15.0 -e _main -o "$build/fat-x86_64" "$build/x86_64.o"
llvm-lipo-14 -create "$build/fat-arm64" "$build/fat-x86_64" -output Fat/ShopApp
# dsymutil merges fat dSYMs with Apple's lipo, which Debian lacks: link each slice's DWARF, then merge with llvm's.
dsymutil-14 "$build/fat-arm64" -o "$build/arm64.dSYM"
dsymutil-14 "$build/fat-x86_64" -o "$build/x86_64.dSYM"
mkdir -p Fat/ShopApp.dSYM/Contents/Resources/DWARF
cp "$build/arm64.dSYM/Contents/Info.plist" Fat/ShopApp.dSYM/Contents/Info.plist
llvm-lipo-14 -create "$build/arm64.dSYM/Contents/Resources/DWARF/fat-arm64" \
    "$build/x86_64.dSYM/Contents/Resources/DWARF/fat-x86_64" -output Fat/ShopApp.dSYM/Contents/Resources/DWARF/ShopApp

# ShopApp 2.4.0 (420): the same code where the compiler did not inline apply_discount (`inline` defined away), so
# the grouping samples have one bug from two builds that differ in inlining (no tail calls, so every caller shows).
mkdir -p Build420
clang -target arm64-apple-ios15.0 -g -O1 -fdebug-prefix-map="$PWD"=. "-Dinline=__attribute__((noinline))" -fno-optimize-sibling-calls \
    -c src/checkout.c -o "$build/build420.o"
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -o Build420/ShopApp "$build/build420.o"
dsymutil-14 Build420/ShopApp -o Build420/ShopApp.dSYM

dwarfdump=$(command -v llvm-dwarfdump-14 || echo /usr/lib/llvm-14/bin/llvm-dwarfdump)
{
    echo "# Written by Scripts/make-symbols.sh from llvm's tools; tests read these as expectations."
    "$dwarfdump" --uuid ShopApp Fat/ShopApp Build420/ShopApp
    echo "# llvm-nm ShopApp"
    llvm-nm -n ShopApp
    echo "# llvm-nm Build420/ShopApp"
    llvm-nm -n Build420/ShopApp
    echo "# llvm-nm -arch x86_64 Fat/ShopApp"
    llvm-nm -n -arch x86_64 Fat/ShopApp
} > facts.txt
cat facts.txt
python3 "$scripts/make-breakpad.py" > /dev/null
# A stripped copy (same UUID): only LC_FUNCTION_STARTS tells its functions apart. Kept out of the pipeline's symbol
# folder, so the demo symbolicates against the dSYM.
mkdir -p ../../Tests/Fixtures/Symbols/Stripped
llvm-strip-14 -o ../../Tests/Fixtures/Symbols/Stripped/ShopApp ShopApp
# A zipped dSYM, as App Store Connect hands them out, for the archive path of the debug-file index.
mkdir -p ../../Tests/Fixtures/Symbols
rm -f ../../Tests/Fixtures/Symbols/ShopApp.dSYM.zip
python3 - <<'PY'
import os, zipfile
with zipfile.ZipFile("../../Tests/Fixtures/Symbols/ShopApp.dSYM.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, names in os.walk("ShopApp.dSYM"):
        for name in sorted(names):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo(path, date_time=(2026, 11, 22, 8, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, open(path, "rb").read())
PY
