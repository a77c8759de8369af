#!/bin/sh
# Makes single-player reference traces of games played by GVGAI's sampleMCTS.
# Usage: make_mcts_traces.sh GVGAI_DIR OUT_DIR [GAME...]
#   GVGAI_DIR: a checkout of https://github.com/GAIGResearch/GVGAI (its src/,
#              examples/gridphysics/ and examples/all_games_sp.csv are used)
#   OUT_DIR:   gets one <game>.jsonl.gz per game (all 110 unless GAMEs given)
#   BUDGET_MS: sampleMCTS's time per action in phase 1 (default 15)
# Needs a JDK (javac, java) and gzip. See README.md beside this script.
set -eu
GVGAI=$(cd "$1" && pwd)
OUT=$2
shift 2
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CP="$WORK/classes:$GVGAI/gson-2.6.2.jar"
mkdir -p "$WORK/classes"
find "$GVGAI/src" -name '*.java' > "$WORK/sources.txt"
javac -nowarn -encoding UTF-8 -cp "$GVGAI/gson-2.6.2.jar" -d "$WORK/classes" @"$WORK/sources.txt" 2> "$WORK/javac.log" || { cat "$WORK/javac.log"; exit 1; }
javac -encoding UTF-8 -cp "$CP" -d "$WORK/classes" "$HERE/MctsTrace.java"
# The list: "id,examples/gridphysics/NAME.txt" per line (the contphysics
# games at its end are not shipped).
tr -d '\r' < "$GVGAI/examples/all_games_sp.csv" | while IFS=, read -r id path || [ -n "$id" ]; do
    [ -n "$id" ] || continue
    case "$path" in examples/gridphysics/*) ;; *) continue ;; esac
    name=$(basename "$path" .txt)
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    # One JVM per game, run from GVGAI's folder (GVGAI reads sprites/ relative to it).
    if (cd "$GVGAI" && java -Djava.awt.headless=true -cp "$CP" MctsTrace \
            examples/gridphysics "$name" "$id" "${BUDGET_MS:-15}" "$WORK/$name.jsonl") > "$WORK/$name.log" 2>&1; then
        gzip -9n < "$WORK/$name.jsonl" > "$OUT/$name.jsonl.gz"
        echo "$name: $(wc -l < "$WORK/$name.jsonl") records"
    else
        echo "$name: GVGAI failed: $(grep -m1 -i 'exception\|error' "$WORK/$name.log" || tail -n1 "$WORK/$name.log")"
    fi
done
