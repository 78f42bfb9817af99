#!/usr/bin/env bash
# CI: every shipped example's HTML page (`tb eval --format html`) in headless
# Chromium. For each page, at a desktop and a phone width: every participant
# of the standings (read from `tb eval --format json`) is on the page, and
# nothing is wider than the window (the page, the table, the explanations,
# all opened); then a full-page screenshot, closed and with every explanation
# open, and a PDF as printed. Pages, screenshots and PDFs go to $OUT
# (default target/ci-artifacts/html; CI keeps them as artifacts, git never).
#
# Usage: .ci/screenshots.sh ["RULESET DATA"...]   (env: TB, CHROMIUM, OUT)
# Exit 1 when a page misses a participant or overflows.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TB=${TB:-target/release/tb}
OUT=${OUT:-target/ci-artifacts/html}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
    echo "screenshots: chromium not found (apt-get install chromium)" >&2
    exit 1
fi
[ -x "$TB" ] || { echo "screenshots: $TB not built (cargo build --release)" >&2; exit 1; }

# Each shipped example with the ruleset it is first evaluated with
# (tests/output_corpus.rs, EXAMPLES).
# Arguments, if any, name other pages: "RULESET DATA" each.
PAGES=(
    "wbf/bam examples/bridge-bam.toml"
    "ebu/split-tie examples/bridge-individual.toml"
    "wbf/knockout examples/bridge-knockout.toml"
    "wbf/pairs examples/bridge-pairs.toml"
    "ebu/split-tie examples/bridge-pairs.toml"
    "wbf/round-robin examples/bridge-round-robin.toml"
    "wbf/swiss-teams examples/bridge-swiss-teams.toml"
    "cards/swiss examples/cards-swiss.toml"
    "cards/swiss examples/cards-swiss.csv"
    "cards/swiss examples/cards-unplayed.toml"
    "fide/swiss examples/chess-swiss.toml"
    "us-chess/swiss examples/chess-swiss.json"
    "fide/team-swiss examples/team-swiss.toml"
    "fide/swiss examples/chess-open-round7.trf"
)
if [ $# -gt 0 ]; then
    PAGES=("$@")
fi
# name:width: a desktop and a phone.
WIDTHS=("desktop:1280" "phone:390")

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# Chromium's profile and crash files stay out of the home directory.
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
chrome() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --no-first-run --user-data-dir="$PROFILE" --force-device-scale-factor=1 "$@" 2>/dev/null
}

# Chromium's headless window is never narrower than 500 pixels (a phone's
# 390 would be laid out at 500 and cropped), so each page is shown in an
# iframe of exactly the width wanted, inside a page of its own; a srcdoc
# iframe shares its parent's origin, so the parent's script can measure it.
# wrap PAGE WIDTH HEIGHT [SCRIPT]: that page on standard output.
wrap() {
    printf '<!DOCTYPE html>\n<html><body style="margin:0">\n'
    printf '<iframe id="page" style="display:block;border:0;width:%spx;height:%spx" srcdoc="' "$2" "$3"
    sed 's/&/\&amp;/g; s/"/\&quot;/g' "$1"
    printf '"></iframe>\n'
    if [ -n "${4:-}" ]; then cat "$4"; fi
    printf '</body></html>\n'
}

# The check: the standings (tb's JSON) against the names in the table;
# the widths measured with every <details> closed, then opened. It writes
# its findings into the outer page, which --dump-dom prints.
check_script() {
    printf '<script>\nconst doc = '
    # A name holding "</script>" must not end the script.
    sed 's#</#<\\/#g' "$1"
    cat <<'JS'
;
const frame = document.getElementById("page");
function check() {
  const d = frame.contentDocument, root = d.documentElement, out = [];
  const names = [...d.querySelectorAll("td.name")].map(td => td.textContent);
  for (const r of doc.standings) {
    const want = r.name + " (" + r.id + ")";
    if (!names.some(n => n.startsWith(want))) out.push("MISSING " + want);
  }
  if (names.length !== doc.standings.length)
    out.push("ROWS " + names.length + " for " + doc.standings.length + " participants");
  const heights = [];
  for (const open of [false, true]) {
    d.querySelectorAll("details").forEach(e => e.open = open);
    heights.push(root.scrollHeight);
    if (root.scrollWidth > root.clientWidth)
      out.push("OVERFLOW page " + root.scrollWidth + " > " + root.clientWidth);
    d.querySelectorAll(".scroll, pre, td, dd, p, li").forEach(e => {
      if (e.scrollWidth > e.clientWidth + 1)
        out.push("OVERFLOW " + e.tagName.toLowerCase() + "." + e.className + " " + e.scrollWidth +
                 " > " + e.clientWidth + ": " + e.textContent.slice(0, 40).replace(/\s+/g, " "));
    });
  }
  const res = document.createElement("pre");
  res.id = "tb-check";
  res.textContent = "WIDTH " + root.clientWidth + "\nHEIGHT " + heights.join(" ") + "\n" +
    (out.length ? [...new Set(out)].join("\n") : "OK");
  document.body.append(res);
}
// The outer page's load waits for the iframe's.
addEventListener("load", check);
</script>
JS
}

failed=0
for page in "${PAGES[@]}"; do
    read -r ruleset data <<<"$page"
    name="$(echo "$ruleset" | tr '/' '_')__$(basename "$data" | tr '.' '_')"
    html="$OUT/$name.html"
    "$TB" eval "$ruleset" "$data" --format html >"$html"
    "$TB" eval "$ruleset" "$data" --format json >"$OUT/$name.json"
    check_script "$OUT/$name.json" >"$OUT/$name.check.js"
    for w in "${WIDTHS[@]}"; do
        label=${w%%:*} width=${w##*:}
        wrap "$html" "$width" 900 "$OUT/$name.check.js" >"$OUT/$name.check.html"
        result=$(chrome --window-size="$width,900" --virtual-time-budget=3000 --dump-dom \
            "file://$OUT/$name.check.html" |
            sed -n '/<pre id="tb-check">/,/<\/pre>/p' | sed 's/<[^>]*>//g; s/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g')
        seen=$(echo "$result" | sed -n 's/^WIDTH //p')
        read -r height open_height <<<"$(echo "$result" | sed -n 's/^HEIGHT //p')"
        problems=$(echo "$result" | grep -v '^WIDTH \|^HEIGHT \|^OK$\|^$' || true)
        if [ "$seen" != "$width" ]; then
            problems="the check did not run at ${width}px (${seen:-no result})${problems:+
$problems}"
        fi
        if [ -n "$problems" ]; then
            echo "FAIL $ruleset $data ($label, ${width}px):"
            echo "$problems" | sed 's/^/    /'
            failed=1
        else
            echo "ok   $ruleset $data ($label, ${width}px): every participant, no overflow"
        fi
        # Screenshots of the whole page: as shipped, and every explanation open.
        wrap "$html" "$width" "${height:-900}" >"$OUT/$name.shot.html"
        chrome --window-size="$width,${height:-900}" --screenshot="$OUT/$name.$label.png" \
            "file://$OUT/$name.shot.html" >/dev/null
        sed 's/<details>/<details open>/g' "$html" >"$OUT/$name.open.html"
        wrap "$OUT/$name.open.html" "$width" "${open_height:-2000}" >"$OUT/$name.shot.html"
        chrome --window-size="$width,${open_height:-2000}" --screenshot="$OUT/$name.$label.open.png" \
            "file://$OUT/$name.shot.html" >/dev/null
    done
    rm -f "$OUT/$name.shot.html" "$OUT/$name.open.html" "$OUT/$name.check.js"
    [ "$failed" = 1 ] || rm -f "$OUT/$name.check.html"
    chrome --no-pdf-header-footer --print-to-pdf="$OUT/$name.pdf" "file://$html" >/dev/null
done
echo "screenshots and PDFs: $OUT"
exit "$failed"
