# Sourced by Scripts/ab-run.sh and Scripts/count-instructions.sh: the seeded inbox they compare two builds on; and by
# Scripts/bench-kept-inbox.sh for run_toml.
#   bench_inbox NAME INPUTS [symbols]
# sets $work to a new folder in memory (/dev/shm, or BENCH_INBOX_ROOT; removed when the script exits) holding the inbox
# of INPUTS inputs that make bench generates (Scripts/make-inbox.py) with the app's debug file, and $work/run.toml, a run
# over it with its output in $work/out; with `symbols`, the run has the sample's and the app's symbol folders, as the
# runs of make bench have.
bench_inbox() {
    local root memory
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    memory=${BENCH_INBOX_ROOT:-/dev/shm}
    [ -d "$memory" ] && [ -w "$memory" ] || memory=${TMPDIR:-/tmp}
    work=$(mktemp -d "$memory/casefile-$1.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    "$root/Scripts/make-large-symbols.sh" "$work/app-symbols" 20000 > /dev/null
    python3 "$root/Scripts/make-inbox.py" "$2" "$work/inbox" --app-symbols "$work/app-symbols" > /dev/null
    run_toml "$work"
    if [ "${3:-}" = symbols ]; then
        cat >> "$work/run.toml" <<TOML
[symbols]
paths = ["$root/SampleReports/Symbols", "$work/app-symbols"]
TOML
    fi
}

# Writes $1/run.toml: a run over the inbox $1/inbox with its output in $1/out, without screen frames (the generated
# inboxes' videos hold none; see Scripts/bench-run.sh).
run_toml() {
    cat > "$1/run.toml" <<TOML
version = 1
[inbox]
path = "$1/inbox"
[output]
path = "$1/out"
frames = false
TOML
}
