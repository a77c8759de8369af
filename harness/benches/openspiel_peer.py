"""The peer of `arena bench harness`: OpenSpiel's `evaluate_bots` loop.

Plays N episodes of Connect Four between two uniform random bots with
`open_spiel.python.algorithms.evaluate_bots`, writing one CSV row per
episode (episode, steps, both returns), and prints one JSON line:
{"episodes": N, "acts": A, "seconds": S}. Usage:

    python openspiel_peer.py N OUT.csv SEED
"""

import csv
import json
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots
from open_spiel.python.bots import uniform_random


def main():
    n, out, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    game = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(seed)
    bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
    acts = 0
    start = time.perf_counter()
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["episode", "steps", "return0", "return1"])
        for i in range(n):
            state = game.new_initial_state()
            returns = evaluate_bots.evaluate_bots(state, bots, rng)
            steps = len(state.history())
            acts += steps
            w.writerow([i, steps, returns[0], returns[1]])
    seconds = time.perf_counter() - start
    print(json.dumps({"episodes": n, "acts": acts, "seconds": seconds}))


if __name__ == "__main__":
    main()
