#!/usr/bin/env bash
# System packages for the Slurm test (issue 21): Debian's slurm-wlm (the
# controller slurmctld, the node daemon slurmd, sbatch/squeue/sacct ...) and
# munge (Slurm's authentication). Only installed, not started: the test
# (harness/tests/slurm.rs) writes its own slurm.conf and munge key into a
# temporary folder, starts the daemons on localhost and stops them after.
# Called by .ci/run.
set -euo pipefail

need=()
command -v slurmctld >/dev/null 2>&1 || need+=(slurmctld)
command -v slurmd >/dev/null 2>&1 || need+=(slurmd)
command -v sbatch >/dev/null 2>&1 || need+=(slurm-client)
command -v munged >/dev/null 2>&1 || need+=(munge)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: slurm-wlm munge"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge >/dev/null
fi
slurmctld -V
command -v slurmd sbatch squeue scontrol sinfo munged mungekey
