#!/usr/bin/env bash
# Byte-identical outputs: run the release `tb` and a reference binary on
# the same commands and compare stdout, stderr and exit code of each.
# Speed work must not change a single byte (issue #19); run this after
# every optimisation.
#
#   benches/same-output.sh [REFERENCE]      (default /tmp/tb-base)
#
# Commands: every shipped ruleset checked; every shipped ranking ruleset
# on every example (errors included: they are outputs too); generated
# events (tbgen, seed 1) in every format tb reads, ranked with FIDE,
# US Chess and card-game chains, in text, CSV and JSON, with the default
# threads and with one and two. Prints one line per difference and a
# count; exits 1 if any differ.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ref=${1:-/tmp/tb-base}
target=${CARGO_TARGET_DIR:-target}
cargo build --release --workspace --bins --quiet || exit 2
new="$target/release/tb"
gen="$target/release/tbgen"
if [ ! -x "$ref" ]; then
    echo "no reference binary at $ref" >&2
    exit 2
fi

dir="$target/same-output"
mkdir -p "$dir"
events=()
make() { # NAME GENERATOR ARGS...: a generated event, made once
    local f="$dir/$1"
    shift
    [ -s "$f" ] || "$gen" "$@" --seed 1 -o "$f" || exit 2
    events+=("$f")
}
make chess-1000x9.trf chess-swiss --players 1000 --rounds 9
make chess-3000x9.trf chess-swiss --players 3000 --rounds 9
make chess-9999x15.trf chess-swiss --players 9999 --rounds 15
make chess-2000x9.json chess-swiss --players 2000 --rounds 9 --format json
make chess-500x7.toml chess-swiss --players 500 --rounds 7 --format toml
make cards-3000x9.json cards-swiss --players 3000 --rounds 9
make cards-500x7.toml cards-swiss --players 500 --rounds 7 --format toml
make bridge-60x8.json bridge-swiss-teams --players 60 --rounds 8
# CSV: the card-game event's match list (tbgen writes no CSV).
csv="$dir/cards-2000x5.csv"
if [ ! -s "$csv" ]; then
    "$gen" cards-swiss --players 2000 --rounds 5 --seed 1 -o "$dir/cards-2000x5.json" || exit 2
    python3 benches/to_csv.py "$dir/cards-2000x5.json" >"$csv" || exit 2
fi
events+=("$csv")

runs=0
diffs=0
same() { # ARGS...: run both binaries, compare everything
    runs=$((runs + 1))
    local a b
    a=$("$new" "$@" 2>&1 >"$dir/new.out"; echo "exit $?")
    b=$("$ref" "$@" 2>&1 >"$dir/ref.out"; echo "exit $?")
    if [ "$a" != "$b" ] || ! cmp -s "$dir/new.out" "$dir/ref.out"; then
        diffs=$((diffs + 1))
        echo "DIFFERS: tb $*"
    fi
}

shipped=$("$new" list --all 2>/dev/null | awk '/^[a-z]/ {print $1}')
for r in $shipped; do
    same check "$r"
done
rankers=$("$new" list 2>/dev/null | awk '/^[a-z]/ {print $1}')
for r in $rankers; do
    for e in examples/*; do
        same eval "$r" "$e"
    done
done
for e in examples/*; do
    same eval --tiebreaks PTS,BH/C1,BH,SB,PS,ARO "$e"
done

fide='PTS,BH/C1,BH,SB,PS,ARO,DE'
for e in "${events[@]}"; do
    case "$e" in
    *chess-*)
        chains=("--tiebreaks $fide --param unrated_rating=1000" "fide/swiss" "us-chess/swiss")
        ;;
    *cards-*) chains=("cards/swiss" "--tiebreaks MP,OMW%,GW%,OGW%") ;;
    *bridge-*) chains=("wbf/swiss-teams") ;;
    esac
    for c in "${chains[@]}"; do
        # shellcheck disable=SC2086 # a chain is several words
        for f in text csv json; do
            same eval $c "$e" --format "$f"
        done
        # shellcheck disable=SC2086
        for t in 1 2; do
            same eval $c "$e" --format csv --threads "$t"
        done
    done
done

echo "$runs commands, $diffs differ (reference $ref)"
[ "$diffs" -eq 0 ]
