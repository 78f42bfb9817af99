#!/usr/bin/env bash
# End to end with the release binary: generate an event with tbgen (seed 1,
# kept under the target directory), then time `tb eval` on it — median wall
# time over RUNS runs (hyperfine when installed, a plain loop otherwise) —
# and report its peak memory (/usr/bin/time -v, when present).
#
#   benches/e2e.sh [CHAIN] [FORMAT] [PLAYERS] [ROUNDS] [RUNS]
#
#   CHAIN    fide (BH/C1,BH,SB,PS,ARO,DE), us-chess or cards   (default fide)
#   FORMAT   trf (chess, at most 9999 players) or json          (default trf)
#
# Examples (docs/performance.md):
#   benches/e2e.sh fide trf 9999 15
#   benches/e2e.sh fide json 100000 15 3
#   benches/e2e.sh cards json 10000 15
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

chain=${1:-fide}
format=${2:-trf}
players=${3:-9999}
rounds=${4:-15}
runs=${5:-10}

target=${CARGO_TARGET_DIR:-target}
cargo build --release --workspace --bins --quiet
bin="$target/release"

case "$chain" in
fide)
    gen=chess-swiss
    # Rating tie-breaks need every participant rated (Art. 10): the
    # generated events have 3% unrated players, rated 1000 here.
    args=(--tiebreaks 'BH/C1,BH,SB,PS,ARO,DE' --param unrated_rating=1000)
    ;;
us-chess)
    gen=chess-swiss
    args=(us-chess/swiss)
    ;;
cards)
    gen=cards-swiss
    args=(cards/swiss)
    ;;
*)
    echo "unknown chain $chain (fide, us-chess, cards)" >&2
    exit 2
    ;;
esac

dir="$target/perf-inputs"
mkdir -p "$dir"
file="$dir/${gen}-${players}x${rounds}.${format}"
if [ ! -s "$file" ]; then
    "$bin/tbgen" "$gen" --players "$players" --rounds "$rounds" --seed 1 --format "$format" -o "$file"
fi
cmd=("$bin/tb" eval "${args[@]}" "$file" --format csv)
echo "event:   $file ($(wc -c <"$file") bytes)"
echo "command: ${cmd[*]} > /dev/null"

if command -v hyperfine >/dev/null 2>&1; then
    quoted=$(printf '%q ' "${cmd[@]}")
    hyperfine --warmup 1 --runs "$runs" --style basic --export-json "$dir/last.json" "$quoted"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("median: %.1f ms" % (r["median"]*1000))' "$dir/last.json" 2>/dev/null || true
else
    "${cmd[@]}" >/dev/null # warm-up
    times=()
    for _ in $(seq "$runs"); do
        t0=$(date +%s%N)
        "${cmd[@]}" >/dev/null
        t1=$(date +%s%N)
        times+=($(((t1 - t0) / 1000)))
    done
    sorted=($(printf '%s\n' "${times[@]}" | sort -n))
    n=${#sorted[@]}
    if [ $((n % 2)) -eq 1 ]; then
        med=${sorted[$((n / 2))]}
    else
        med=$(((sorted[n / 2 - 1] + sorted[n / 2]) / 2))
    fi
    echo "runs: $n  min: $((sorted[0] / 1000)) ms  median: $((med / 1000)) ms  max: $((sorted[n - 1] / 1000)) ms"
fi

if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "${cmd[@]}" 2>&1 >/dev/null | grep -E 'Maximum resident|Elapsed' | sed 's/^\s*/peak: /'
fi
