#!/usr/bin/env bash
# Create .venv-oracle at the repository root with FIDE's reference tie-break
# engine, gacrux, pinned. Safe to run again: does nothing when it is in place.
# Usage: bash tests/oracle/setup.sh   (from anywhere)
set -euo pipefail

GACRUX_VERSION="1.11.65"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/.venv-oracle"
PY="$VENV/bin/python"

installed() {
    [ -x "$PY" ] && "$PY" -c "import gacrux.version as v, sys; sys.exit(v.__version__ != '$GACRUX_VERSION')" 2>/dev/null
}

if installed; then
    echo "oracle: gacrux $GACRUX_VERSION already in $VENV"
    exit 0
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x "$PY" ]; then
    "$PYTHON" -m venv "$VENV"
fi
"$PY" -m pip install --quiet --disable-pip-version-check "gacrux==$GACRUX_VERSION"

if ! installed; then
    echo "oracle: gacrux $GACRUX_VERSION did not install into $VENV" >&2
    exit 1
fi
echo "oracle: gacrux $GACRUX_VERSION installed in $VENV"
