#!/usr/bin/env python3
"""A random agent for arena, speaking the line-JSON protocol arena-jsonl/2.

Works for every game: it picks one of the action names the harness lists in
each request's "legal" field. Copy this file and replace choose() with your
own logic; see docs/protocol.md for every message.
"""
import json
import random
import sys


def choose(state, legal, remaining_ms, rng):
    """Return the name of the action to play (one of `legal`)."""
    return rng.choice(legal)


def main():
    rng = random.Random()
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            # msg: game, level, seat, players, time limits, initial state.
            rng.seed(msg["seat"])
            print(json.dumps({"type": "ready"}), flush=True)
        elif kind == "act":
            action = choose(msg["state"], msg["legal"], msg["remaining_ms"], rng)
            print(json.dumps({"action": action}), flush=True)
        elif kind == "end":
            # Debug output goes to stderr: arena keeps it in results/<run>/logs/.
            print(f"game over: {msg['result']}, score {msg['score']}", file=sys.stderr)
            break


if __name__ == "__main__":
    main()
