#!/bin/sh
# Makes the two-player reference traces with GVGAI's own Java engine.
# Usage: make_2p_traces.sh GVGAI_DIR OUT_DIR [GAME...]
#   GVGAI_DIR: a checkout of https://github.com/GAIGResearch/GVGAI (its src/,
#              examples/2player/ and examples/all_games_2p.csv are used)
#   OUT_DIR:   gets one <game>.jsonl.gz per game (all 60 unless GAMEs given)
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
javac -encoding UTF-8 -cp "$CP" -d "$WORK/classes" "$HERE/TwoPlayerTrace.java"
# The list: "id,examples/2player/NAME.txt" per line.
tr -d '\r' < "$GVGAI/examples/all_games_2p.csv" | while IFS=, read -r id path || [ -n "$id" ]; do
    [ -n "$id" ] || continue
    name=$(basename "$path" .txt)
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    # One JVM per game, run from GVGAI's folder (GVGAI reads sprites/ relative to it).
    if (cd "$GVGAI" && java -Djava.awt.headless=true -cp "$CP" TwoPlayerTrace \
            examples/2player "$name" "$id" "$WORK/$name.jsonl") > "$WORK/$name.log" 2>&1; then
        gzip -9n < "$WORK/$name.jsonl" > "$OUT/$name.jsonl.gz"
        echo "$name: $(wc -l < "$WORK/$name.jsonl") records"
    else
        echo "$name: GVGAI failed: $(grep -m1 -i 'exception\|error' "$WORK/$name.log" || tail -n1 "$WORK/$name.log")"
    fi
done
