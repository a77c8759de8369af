#!/usr/bin/env bash
# Build the `arena` Python package (a wheel in target/wheels/: the forward
# model and the `arena` command, for students) and install it for the
# repository's own use:
#   - into the venv target/python-venv (tests, bench.py), made with
#     /usr/bin/python3 (or $PYTHON) and holding maturin and pytest;
#   - with `pip install --target` into target/python/site, which the example
#     configs in agents/examples/python/ put on PYTHONPATH and which
#     target/release/arena gives graded Python submissions.
# python/ is a member of the workspace (its Cargo.lock, its target/, its
# release profile), so the games/agents/harness crates `cargo build
# --release` compiled are reused. Leaves the tree as it found it. Run from
# anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
VENV=target/python-venv
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import maturin, pytest" 2>/dev/null; then
  "$VENV/bin/pip" install --quiet "maturin>=1.5,<2" pytest
fi
rm -f target/wheels/arena-*.whl
(cd python && ../$VENV/bin/maturin build --release --out ../target/wheels)
wheel=$(ls target/wheels/arena-*.whl)
"$VENV/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"
rm -rf target/python/site
"$VENV/bin/pip" install --quiet --no-deps --target target/python/site "$wheel"
echo "built $wheel; installed in $VENV and target/python/site"
