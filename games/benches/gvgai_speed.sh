#!/usr/bin/env bash
# Side-by-side speed of GVGAI's own forward model (Java) and arena's VGDL
# engine: per shipped game, level 0, copy/clone + advance per second by the
# same method (games/benches/gvgai_speed/README.md), the Java then the Rust
# for each game in turn, and their ratio; then the median and minimum.
#
# Usage: games/benches/gvgai_speed.sh GVGAI_CHECKOUT [SECONDS] [game ...]
#   GVGAI_CHECKOUT  a checkout of https://github.com/GAIGResearch/GVGAI
#                   (its sources are compiled into WORK/classes once)
#   SECONDS         warm-up and timed seconds per game and side (default 1)
# Environment: WORK (default /tmp/gvgai_speed) holds the compiled classes;
# NO_BUILD=1 skips building the Rust side; JAVA_WARMUP (default 3) is the
# Java side's untimed warm-up in seconds; ROUND (default 2000; 0: off) makes
# each side time whole rounds of the same ROUND steps from the start state
# (action Random reseeded 1 each round), so that both time the same play;
# with ROUND=0 each times one stretch of play from wherever its warm-up
# left the action Random (a game's cost per step depends on how far it got:
# rivers takes 30 times longer per step once its water spreads).
set -euo pipefail

gvgai=${1:?usage: gvgai_speed.sh GVGAI_CHECKOUT [SECONDS] [game ...]}
seconds=${2:-1}
# The JVM's untimed warm-up per game (its JIT compiles in this time).
java_warmup=${JAVA_WARMUP:-3}
round=${ROUND:-2000}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/games/data/gvgai"
work=${WORK:-/tmp/gvgai_speed}
mkdir -p "$work"

gson=$(ls "$gvgai"/gson-*.jar 2>/dev/null | head -n 1 || true)
cp="$work/classes${gson:+:$gson}"
if [ ! -f "$work/classes/core/game/Game.class" ]; then
    echo "compiling GVGAI into $work/classes ..." >&2
    find "$gvgai/src" -name '*.java' > "$work/sources.txt"
    javac -nowarn -encoding UTF-8 ${gson:+-cp "$gson"} -d "$work/classes" @"$work/sources.txt" 2> "$work/javac.log"
fi
javac -nowarn -cp "$cp" -d "$work/driver" "$here/gvgai_speed/ForwardModelSpeed.java"
# NO_BUILD=1: use the vgdl_speed binary as it is.
if [ "${NO_BUILD:-0}" != 1 ]; then
    (cd "$root" && cargo build --release -q -p games --example vgdl_speed)
fi
rust="$root/target/release/examples/vgdl_speed"

if [ $# -gt 0 ]; then
    games=("$@")
else
    mapfile -t games < <(tail -n +2 "$data/games.tsv" | cut -f2)
fi

echo "| game | GVGAI copy + advance /s | arena clone + advance /s | ratio |"
echo "| --- | ---: | ---: | ---: |"
results="$work/results.tsv"
: > "$results"
for g in "${games[@]}"; do
    # Only the driver's line for the game (GVGAI may print other lines).
    j=$(java -cp "$cp:$work/driver" ForwardModelSpeed "$seconds" \
        "$data/gridphysics/$g.txt" "$data/gridphysics/${g}_lvl0.txt" "$java_warmup" "$round" 2>/dev/null |
        awk -F'\t' -v g="$g" '$1 == g { print $2 }')
    r=$("$rust" --tsv --seconds "$seconds" --round "$round" "$g" | awk -F'\t' -v g="$g" '$1 == g { print $2 }')
    ratio=$(awk -v j="$j" -v r="$r" 'BEGIN { if (j + 0 > 0) printf "%.1f", r / j; else print "-" }')
    echo "| $g | $j | $r | $ratio |"
    printf '%s\t%s\t%s\t%s\n' "$g" "$j" "$r" "$ratio" >> "$results"
done
awk -F'\t' '
    $4 != "-" { n++; ratio[n] = $4 + 0; java[n] = $2 + 0; rust[n] = $3 + 0; name[n] = $1 }
    function median(a, n,   i, j, t, b) {
        for (i = 1; i <= n; i++) b[i] = a[i]
        for (i = 2; i <= n; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
        return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
    }
    END {
        if (n == 0) exit
        lo = 1; for (i = 2; i <= n; i++) if (ratio[i] < ratio[lo]) lo = i
        below = 0; for (i = 1; i <= n; i++) if (ratio[i] < 50) below++
        printf "\n%d games: median ratio %.1fx (GVGAI median %.0f/s, arena median %.0f/s); ", n, median(ratio, n), median(java, n), median(rust, n)
        printf "minimum %.1fx (%s); %d below 50x\n", ratio[lo], name[lo], below
    }' "$results"
