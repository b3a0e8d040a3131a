#!/usr/bin/env bash
# Runs the libFuzzer harnesses (Fuzz/) for SECONDS each, JOBS at a time, seeded from SampleReports/.
#   Scripts/fuzz.sh [SECONDS] [JOBS] [TARGET...]      (defaults: 600 seconds, 2 at a time, every target)
# A finding (crash, leak, timeout, out-of-memory) is written to Fuzz/findings/TARGET/ and stops that target's run
# (libFuzzer's default), so the line printed says how long it really ran; each run's log is Fuzz/findings/TARGET.log.
# Fix a finding, add it to SampleReports/Hostile/ (Scripts/make-hostile.py), and fuzz the target again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
jobs=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(crash clue-network clue-interaction clue-view clue-info debug-menu network-log app-log archive breakpad macho)
binary="$root/Fuzz/.build/release/casefile-fuzz"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds: every sample of the kind each parser reads (zip members through Python's zipfile).
seed() {
    local target=$1 dir="$work/corpus-$1"
    mkdir -p "$dir"
    case $target in
        crash)
            find "$root/SampleReports/Crashes" -type f ! -name '*.zip' -exec cp {} "$dir/" \;
            # Crash reports the size of real ones (50-400 KB): the decoders of large .ips and KSCrash reports
            # (IPSBodyDecoder, KSCrashBodyDecoder from 64 KB) only meet inputs like these.
            python3 "$root/Scripts/make-inbox.py" 40 "$work/inbox-crash" > /dev/null
            find "$work/inbox-crash" -maxdepth 1 -type f \( -name '*.ips' -o -name '*.crash' -o -name '*.json' \) \
                -exec cp {} "$dir/" \; ;;
        clue-*)
            local module=${target#clue-}
            [ "$module" = info ] && module=device
            for file in "$root"/SampleReports/*.clue/*/*_"$module".json; do cp "$file" "$dir/$(basename "$(dirname "$(dirname "$file")")")-$(basename "$file")"; done ;;
        debug-menu|network-log|app-log)
            python3 - "$root/SampleReports/checkout-bugreport.zip" "$dir" "$target" <<'PY'
import sys, zipfile
archive, folder, target = sys.argv[1:]
pick = {"debug-menu": "DebugMenu/", "network-log": "DebugMenu/network-log", "app-log": "app.log"}[target]
with zipfile.ZipFile(archive) as z:
    for name in z.namelist():
        if name.startswith(pick) and not name.endswith("/"):
            open(folder + "/" + name.replace("/", "_"), "wb").write(z.read(name))
PY
            ;;
        breakpad) find "$root/SampleReports/Symbols" -name '*.sym' -exec cp {} "$dir/" \; ;;
        macho)
            # The fixture binaries and dSYMs, thin and fat (a few KB to 30 KB each).
            local number=0
            while IFS= read -r file; do
                number=$((number + 1))
                cp "$file" "$dir/$number-$(basename "$file")"
            done < <(find "$root/SampleReports/Symbols" "$root/Tests/Fixtures/Symbols" -type f -size -200k \
                -exec sh -c 'head -c 4 "$1" | od -An -tx1 | grep -qE "cf fa ed fe|ca fe ba b[ef]"' _ {} \; -print) ;;
        archive)
            find "$root/SampleReports" -maxdepth 2 -type f \( -name '*.zip' -o -name '*.tar*' -o -name '*.gz' -o -name '*.cpio' \) \
                -size -2M -exec cp {} "$dir/" \; ;;
    esac
}

run() {
    local target=$1
    mkdir -p "$root/Fuzz/findings/$target"
    seed "$target"
    local started=$SECONDS
    # Real-sized crash reports reach 400 KB; other targets read files of a few KB.
    local length=262144
    [ "$target" = crash ] && length=524288
    CASEFILE_FUZZ=$target "$binary" "$work/corpus-$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -max_len="$length" -timeout=20 -artifact_prefix="$root/Fuzz/findings/$target/" -print_final_stats=1 \
        > "$root/Fuzz/findings/$target.log" 2>&1 || true
    local runs findings
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$root/Fuzz/findings/$target.log" | tail -1)
    findings=$(find "$root/Fuzz/findings/$target" -type f | wc -l)
    echo "fuzz $target: ${runs:-0} executions in $((SECONDS - started)) s, $findings findings"
}

running=0
for target in "${targets[@]}"; do
    run "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
