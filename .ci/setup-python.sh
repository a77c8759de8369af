#!/usr/bin/env bash
# System packages for the `arena` Python package's tests (.ci/python-tests.sh):
# Debian's python3 with venv and pip. maturin and pytest come from PyPI into
# the venv target/python-venv (python/build.sh). Under CI=true a package
# that cannot be installed fails the run.
set -euo pipefail
need=()
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null || need+=(python3-venv)
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"; }; then
    echo "setup-python: could not install ${need[*]}" >&2
    [ "${CI:-}" = "true" ] && exit 1
  fi
fi
/usr/bin/python3 -c "import venv, ensurepip" || { [ "${CI:-}" != "true" ] || exit 1; }
echo "python: $(/usr/bin/python3 --version)"
