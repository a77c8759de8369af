#!/usr/bin/env bash
# Regenerates set.txt, the shipped supply-maze instances (24 = 6 sizes x 4),
# with fixed seeds. Run from the repository root:
#   bash games/data/supply/make-set.sh
# then rebuild (set.txt is compiled into the games crate).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=games/data/supply/set.txt
cargo build --release -q
{
  echo "; The shipped supply-maze set: 24 instances, 6 sizes x 4, made by"
  echo "; games/data/supply/make-set.sh (arena generate supply, seed 2026)."
  echo "; Harness names: set:0 .. set:23, in file order."
  echo
  for spec in "8x8 4" "12x12 6" "16x20 8" "25x25 10" "30x40 14" "50x50 18"; do
    set -- $spec
    target/release/arena generate supply --count 4 --size "$1" --food "$2" --seed 2026
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
