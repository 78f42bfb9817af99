#!/usr/bin/env bash
# tb against gacrux (FIDE's reference tie-break engine, PyPI) side by side,
# in the same run, on the same generated TRF: whole processes, start-up
# included, as a user runs them. Prints each one's median wall time and
# the ratio (issue #19's target: at least 500× at 1,000 × 9).
#
#   benches/vs-gacrux.sh [PLAYERS] [ROUNDS] [TB_RUNS] [GACRUX_RUNS]
#   (defaults 1000 9 31 3)
#   TB=/path/to/tb benches/vs-gacrux.sh   times that binary (a reference
#   build, for a before/after) instead of building the release one.
#
# gacrux runs from .venv-oracle, which tests/oracle/setup.sh creates (pip,
# pinned version); without it (no network, no python3 -m venv) tb alone
# is timed and the comparison is skipped with a message.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

players=${1:-1000}
rounds=${2:-9}
tb_runs=${3:-31}
gx_runs=${4:-3}
chain='PTS,BH/C1,BH,SB,PS,ARO'

target=${CARGO_TARGET_DIR:-target}
if [ -z "${TB:-}" ]; then
    cargo build --release --workspace --bins --quiet
fi
tb_bin=${TB:-$target/release/tb}
dir="$target/perf-inputs"
mkdir -p "$dir"
trf="$dir/chess-swiss-${players}x${rounds}.trf"
[ -s "$trf" ] || "$target/release/tbgen" chess-swiss --players "$players" --rounds "$rounds" --seed 1 -o "$trf"

# Wall time of one run of a command, in microseconds. Bash's own clock
# (`EPOCHREALTIME`, seconds with six decimals): a `date` process per
# reading would add its own start-up, about a millisecond, to tb's time.
time_us() {
    local t0 t1
    t0=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null 2>&1 || true
    t1=${EPOCHREALTIME/[.,]/}
    echo $((10#$t1 - 10#$t0))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
ms() { echo "scale=2; $1 / 1000" | bc; }

tb=("$tb_bin" eval --tiebreaks "$chain" "$trf" --format csv)
echo "event:  $trf"
echo "tb:     ${tb[*]}"
"${tb[@]}" >/dev/null # warm-up
if ! bash tests/oracle/setup.sh >/dev/null 2>&1; then
    for _ in $(seq "$tb_runs"); do time_us "${tb[@]}"; done >"$dir/tb.us"
    echo "tb median of $tb_runs: $(ms "$(median <"$dir/tb.us")") ms"
    echo "gacrux: not available (tests/oracle/setup.sh failed: no network or no venv); comparison skipped"
    exit 0
fi
gx=(.venv-oracle/bin/python tests/oracle/oracle.py values --trf "$trf" --tiebreaks "$chain")
echo "gacrux: ${gx[*]}"
# Interleaved (one gacrux run, then a share of tb's), so that a change in
# the machine's speed during the run weighs on both alike.
: >"$dir/tb.us"
: >"$dir/gx.us"
for _ in $(seq "$gx_runs"); do
    time_us "${gx[@]}" >>"$dir/gx.us"
    for _ in $(seq $(((tb_runs + gx_runs - 1) / gx_runs))); do
        time_us "${tb[@]}" >>"$dir/tb.us"
    done
done
tb_us=$(median <"$dir/tb.us")
gx_us=$(median <"$dir/gx.us")
echo "tb     median of $(wc -l <"$dir/tb.us"): $(ms "$tb_us") ms"
echo "gacrux median of $gx_runs: $(ms "$gx_us") ms"
printf 'tb is %.0f× faster than gacrux (%d players × %d rounds, %s; %s)\n' \
    "$(echo "$gx_us / $tb_us" | bc -l)" "$players" "$rounds" "$chain" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
