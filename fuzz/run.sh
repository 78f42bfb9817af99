#!/usr/bin/env bash
# Fuzz every target (or the ones named) for a while. Manual: needs the
# nightly toolchain and `cargo install cargo-fuzz`; see fuzz/README.md.
#
#   fuzz/run.sh [seconds-per-target] [target...]
#
# Builds all targets once, then runs each binary directly (so editing the
# tree while it runs does not trigger rebuilds). New inputs go to
# fuzz/corpus/<target> (not committed); crashes to fuzz/artifacts/<target>.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-300}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(ruleset trf native_toml native_json usebio csv descriptors eval)
fi
cargo +nightly fuzz build -O
bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release"
dict() {
  case "$1" in
    ruleset) echo "-dict=dicts/ruleset.dict" ;;
    trf) echo "-dict=dicts/trf.dict" ;;
    native_toml|native_json|csv) echo "-dict=dicts/native.dict" ;;
    usebio) echo "-dict=dicts/usebio.dict" ;;
    descriptors) echo "-dict=dicts/descriptors.dict" ;;
    *) echo "" ;;
  esac
}
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  echo "== $t for ${secs}s"
  # shellcheck disable=SC2046
  "$bin/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$secs" -timeout=5 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 $(dict "$t") \
    "corpus/$t" "seeds/$t" 2>&1 | grep -v "^#[0-9]*\s*\(NEW\|REDUCE\|pulse\)" \
    || echo "!! $t stopped: see fuzz/artifacts/$t"
done
