#!/usr/bin/env bash
# Regenerate tests/fixtures/oracle/: generated events and gacrux's values for
# them in both FIDE editions.
#   bash tests/oracle/make_fixtures.sh           rewrite the fixtures
#   bash tests/oracle/make_fixtures.sh --check   regenerate into a temporary
#       directory, fail if anything differs from the committed fixtures, and
#       check gacrux against the tables in ../shared/data/chess (if present)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$ROOT/tests/oracle/setup.sh" >/dev/null
ORACLE=("$ROOT/.venv-oracle/bin/python" "$ROOT/tests/oracle/oracle.py")
FIXTURES="$ROOT/tests/fixtures/oracle"
SEED=2026

# Group-relative codes (DE, EDE*, TBR, BBE) depend on the codes before them:
# they rank only within groups still tied at their place in the list.
INDIVIDUAL="PTS,DE,WIN,WON,BPG,BWG,PS,PS/C1,REP,BH,BH/C1,BH/C2,BH/M1,BH/M2,FB,FB/C1,AOB,SB,SB/C1,SB/M1,KS,KS/L-1,ARO,ARO/C1,TPR,PTP,APRO,APPO,STD,TPN,RTNG"
TEAM="PTS,EDE,MPvGP,TBR,BC,BBE,EDET,EDEB,EDEC,EMMSB,EMGSB,EGMSB,EGGSB,EMMSB/C1,EGGSB/C1,BH,BH:GP,BH/C1,FB,AOB,SSSC,WIN,WON,BPG,REP,PS,STD,TPN"

build() {
    local out="$1"
    mkdir -p "$out"
    rm -f "$out"/*.trf "$out"/*.json
    "${ORACLE[@]}" generate --out "$out" --count 5 --seed "$SEED" >/dev/null
    "${ORACLE[@]}" generate --out "$out" --count 2 --seed "$SEED" --rr >/dev/null
    "${ORACLE[@]}" generate --out "$out" --count 2 --seed "$SEED" --team >/dev/null
    for trf in "$out"/*.trf; do
        case "$(basename "$trf")" in
            team_*) codes="$TEAM" ;;
            *) codes="$INDIVIDUAL" ;;
        esac
        for edition in 2024 2026; do
            "${ORACLE[@]}" values --trf "$trf" --tiebreaks "$codes" --edition "$edition" \
                --output "${trf%.trf}.$edition.json"
        done
        # Standings after earlier rounds (gacrux -n; tb --after-round):
        # round 3, and two rounds before the end.
        case "$(basename "$trf")" in team_*) continue ;; esac
        rounds="$(awk '$1 == "142" { print $2 }' "$trf")"
        for n in 3 $((rounds - 2)); do
            for edition in 2024 2026; do
                "${ORACLE[@]}" values --trf "$trf" --tiebreaks "$codes" --edition "$edition" \
                    --round "$n" --output "${trf%.trf}.after$n.$edition.json"
            done
        done
    done
}

if [ "${1:-}" = "--check" ]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    build "$tmp/oracle"
    diff -r --exclude=README.md "$tmp/oracle" "$FIXTURES"
    DATA="$ROOT/../shared/data/chess"
    if [ -d "$DATA" ]; then
        "${ORACLE[@]}" compare --trf "$DATA/uzchesscup_rr.trf" --tsv "$DATA/uzchesscup_rr.expected.tsv"
        "${ORACLE[@]}" compare --trf "$DATA/uzchesscup_rr.trf" --tsv "$DATA/uzchesscup_rr.expected_DE.tsv"
        "${ORACLE[@]}" compare --trf "$DATA/tec_swiss_de.trf" --tsv "$DATA/tec_swiss_de.expected_DE.tsv"
    fi
    echo "oracle fixtures: up to date"
else
    build "$FIXTURES"
    ls "$FIXTURES"
fi
