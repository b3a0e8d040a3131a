#!/usr/bin/env bash
# Writes OUT/index.html: the run digest, then every group page and report summary of the output folder OUT, each
# rendered with cmark-gfm (GitHub-flavoured: tables, strike-through, autolinks; <details> kept) under a small
# stylesheet, with the links between them turned into links within the page.
#   Scripts/render-html.sh OUT
set -euo pipefail
out=${1:?usage: Scripts/render-html.sh OUTPUT-FOLDER}
command -v cmark-gfm >/dev/null || { echo "cmark-gfm is not installed (apt-get install cmark-gfm)" >&2; exit 1; }
render() { cmark-gfm --unsafe --extension table --extension strikethrough --extension autolink "$1"; }
# reports/ID.md, ../reports/ID.md, groups/FP.md, ../groups/FP.md, FP.md (a group page's pointer) → #report-ID, #group-FP
relink() {
    sed -E -e 's#href="(\.\./)?reports/([^"/]+)\.md"#href="\#report-\2"#g' \
        -e 's#href="(\.\./)?groups/([^"/]+)\.md"#href="\#group-\2"#g' \
        -e 's#href="([0-9a-f]{16})\.md"#href="\#group-\1"#g' \
        -e 's#src="(\.\./)?reports/#src="reports/#g'
}
# Each page of FOLDER as <section id="KIND-NAME">.
sections() {
    local kind=$1 file
    for file in "$2"/*.md; do
        [ -e "$file" ] || continue
        echo "<section id=\"$kind-$(basename "$file" .md)\">"
        render "$file" | relink
        echo '</section>'
    done
}
page="$out/index.html.tmp"
{
    cat <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Casefile</title>
<style>
body { font: 15px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #1f2328; }
section { border-top: 1px solid #d0d7de; margin-top: 2.5em; padding-top: 1em; }
table { border-collapse: collapse; margin: 1em 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
code { background: #eff1f3; padding: 0.1em 0.3em; border-radius: 4px; font-size: 90%; }
pre { background: #f6f8fa; padding: 1em; overflow-x: auto; }
nav a { margin-right: 1em; }
</style></head><body>
<nav><a href="#digest">Digest</a><a href="#groups">Groups</a><a href="#reports">Reports</a></nav>
HTML
    echo '<section id="digest">'
    [ -f "$out/digest.md" ] && render "$out/digest.md" | relink
    echo '</section><h1 id="groups">Groups</h1>'
    sections group "$out/groups"
    echo '<h1 id="reports">Reports</h1>'
    sections report "$out/reports"
    echo '</body></html>'
} > "$page"
mv "$page" "$out/index.html"
echo "$out/index.html"
