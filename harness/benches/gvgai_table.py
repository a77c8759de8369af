#!/usr/bin/env python3
"""The GVGAI benchmark table from a run's summary.csv, as Markdown.

Usage: gvgai_table.py results/gvgai-benchmark/summary.csv > table.md

`configs/gvgai-benchmark.toml` writes one summary row per agent and level
`GAME:N`; GVGAI's papers give a game per row and, per agent, the win rate
and the mean score over the game's levels. This prints that table (levels
pooled per game, in the agents' order of the config), then a line per
agent over every game: games played, win rate, and failures (time
forfeits, disqualifications, crashes) so that none hides in the means.
"""
import csv
import sys
from collections import OrderedDict


def main(path):
    rows = list(csv.DictReader(open(path, newline="")))
    agents = list(OrderedDict.fromkeys(r["agent"] for r in rows))
    cells = OrderedDict()  # game -> agent -> [episodes, wins, score sum]
    failures = {a: 0 for a in agents}
    for r in rows:
        game, sep, _level = r["level"].rpartition(":")
        if not sep:
            continue  # the "all" rows
        n = int(r["episodes"])
        c = cells.setdefault(game, {}).setdefault(r["agent"], [0, 0, 0.0])
        c[0] += n
        c[1] += int(r["wins"])
        c[2] += float(r["mean_score"]) * n
        failures[r["agent"]] += sum(
            int(r[k]) for k in ("disqualifications", "crashes", "illegal_moves",
                                "bad_output", "other_failures"))
    head = ["game"] + [f"{a} {what}" for a in agents for what in ("win", "score")]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for game in sorted(cells):
        line = [game]
        for a in agents:
            c = cells[game].get(a)
            if c is None or c[0] == 0:
                line += ["", ""]
            else:
                line += [f"{c[1]}/{c[0]}", f"{c[2] / c[0]:.1f}"]
        print("| " + " | ".join(line) + " |")
    print()
    for a in agents:
        eps = sum(g[a][0] for g in cells.values() if a in g)
        wins = sum(g[a][1] for g in cells.values() if a in g)
        won_games = sum(1 for g in cells.values() if a in g and g[a][1] > 0)
        print(f"- `{a}`: {eps} episodes on {sum(1 for g in cells.values() if a in g)} games, "
              f"{wins} won ({100.0 * wins / max(eps, 1):.1f} %), at least one win on "
              f"{won_games} games; failures (disqualified, crashed, illegal, bad output, "
              f"other): {failures[a]}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    main(sys.argv[1])
