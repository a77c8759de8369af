#!/usr/bin/env bash
# The `arena` Python package: build the wheel (python/build.sh: maturin, in
# the venv target/python-venv), check that the build left the tree as it
# found it (under CI=true: no tracked file changed), install that wheel as a student would
# (a fresh venv, `pip install` of the one file, no Rust) and use it from
# there (`import arena`, `arena check --help`, `arena check` of a Python
# submission under bwrap, and without bwrap), then run python/tests
# (pytest): parity with the Rust games (`arena trace`) and with the harness
# (`arena run`).
# Needs the release `arena` binary (built here if missing, as .ci/run's demo
# run builds it), /usr/bin/python3 with venv (.ci/setup-python.sh), git,
# and bubblewrap (.ci/setup-external.sh). Without python3's venv it skips,
# except under CI=true, where it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null; then
  echo "python-tests: /usr/bin/python3 with venv is missing (.ci/setup-python.sh installs it)" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
  echo "python-tests: skipped"
  exit 0
fi
export PYTHONDONTWRITEBYTECODE=1
cargo build --release -q --bin arena
# python/build.sh must change nothing in the tree (no file, tracked or not);
# under CI=true no tracked file may differ from the commit either (.ci/run
# ran python/build.sh before: a stale Cargo.lock would show here).
before=$(git status --porcelain)
python/build.sh
after=$(git status --porcelain)
tracked=$(git status --porcelain --untracked-files=no)
if [ "$after" != "$before" ] || { [ "${CI:-}" = "true" ] && [ -n "$tracked" ]; }; then
  echo "python-tests: the tree is not clean after python/build.sh:" >&2
  git status --short >&2
  exit 1
fi
echo "python-tests: git status unchanged by python/build.sh"

export ARENA_BIN="$PWD/target/release/arena"
export ARENA_TEST_DIR="$PWD/target/python-tests"
rm -rf "$ARENA_TEST_DIR"
mkdir -p "$ARENA_TEST_DIR"
bash python/tests/student_install.sh "$(ls target/wheels/arena-*.whl)" "$ARENA_TEST_DIR/student"
target/python-venv/bin/python -m pytest -q -p no:cacheprovider python/tests
