#!/usr/bin/env bash
# Compilers for the mock class of `arena grade` (harness/tests/grading.rs):
# g++ for C++ submissions and Debian's JDK for Java ones (bubblewrap and
# Python come from setup-external.sh). Called by .ci/run; under CI=true a
# package that cannot be installed fails the run.
set -euo pipefail
need=()
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null; }; then
    echo "setup-grading: could not install ${need[*]}" >&2
    [ "${CI:-}" = "true" ] && exit 1
  fi
fi
g++ --version | head -1
javac -version
