#!/usr/bin/env bash
# The `arena` Python package: build the wheel (maturin, in the venv
# target/python-venv), install it, and run python/tests (pytest): parity
# with the Rust games (`arena trace`) and with the harness (`arena run`).
# Needs the release `arena` binary (built here if missing, as .ci/run's demo
# run builds it) and /usr/bin/python3 with venv (.ci/setup-python.sh).
# Without them it skips, except under CI=true, where it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null; then
  echo "python-tests: /usr/bin/python3 with venv is missing (.ci/setup-python.sh installs it)" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
  echo "python-tests: skipped"
  exit 0
fi
cargo build --release -q --bin arena
python/build.sh
export ARENA_BIN="$PWD/target/release/arena"
export ARENA_TEST_DIR="$PWD/target/python-tests"
rm -rf "$ARENA_TEST_DIR"
mkdir -p "$ARENA_TEST_DIR"
target/python-venv/bin/python -m pytest -q -p no:cacheprovider python/tests
