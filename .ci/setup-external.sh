#!/usr/bin/env bash
# System packages for external agents (issue 8): bubblewrap for
# sandbox = "bwrap" (the agent zoo test runs agents under it), Python 3
# (the zoo's agents and the example agents), Fairy-Stockfish and Sjaak II
# (real Xiangqi engines, unmodified: the UCI / UCCI adapter's tests play
# them). Called by .ci/run.
set -euo pipefail

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/bin/python3 ] || need+=(python3)
[ -x /usr/games/fairy-stockfish ] || need+=(fairy-stockfish)
[ -x /usr/games/sjaakii ] || need+=(sjaakii)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
bwrap --version
# Fail here, with bubblewrap's own message, if it cannot create a sandbox on
# this machine (the zoo test would otherwise skip its bwrap rows).
bwrap --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev true
echo "bubblewrap works"
