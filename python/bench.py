"""Forward-model speed seen from Python: clone + advance per second, and
``arena.agent``'s cost per act.

    python python/bench.py [--seconds S]       (the `arena` package installed:
    python python/bench.py --agent [--legacy]   python/build.sh, then the venv
                                                target/python-venv)

For Bait (levels 0-4) and Xiangqi (start and a middle-game position), the
`arena` package's ``t = s.clone(); t.advance(a)`` cycling over the legal
actions; for Bait also the same with ``PyBait`` below, a minimal
pure-Python re-implementation of Bait's step (checked against the package
on random playouts before it is timed). Then the Rust figures of
``arena bench bait`` and ``arena bench xiangqi`` (the binary at $ARENA_BIN,
default target/release/arena).

``--agent``: ``arena.agent.run`` fed, from memory, the messages the harness
writes in random games of five games (one seat's side of each game: the
start, an act per decision, the end); per act, the time from reading the
line to the call of ``act`` (parsing it and rebuilding the state: what the
agent's budget loses), as median and 90th percentile. ``--legacy`` leaves
out the keys ``seed``, ``max_steps`` and ``moves``, as an arena before them
wrote the messages, to time an ``arena.agent`` of that time.
python/README.md records runs.
"""

import argparse
import os
import random
import subprocess
import sys
import time

import arena

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DELTA = {"LEFT": (-1, 0), "RIGHT": (1, 0), "DOWN": (0, 1), "UP": (0, -1), "NIL": (0, 0)}


class PyBait:
    """Bait's rules in plain Python (games/src/bait/reference.rs, line by line):
    sets of cell indices, copied on clone."""

    __slots__ = ("w", "h", "walls", "boxes", "holes", "keys", "goals", "mushrooms",
                 "avatar", "alive", "has_key", "score", "tick", "over")

    @staticmethod
    def from_grid(grid):
        rows = grid.split("/")
        s = PyBait()
        s.w, s.h = len(rows[0]), len(rows)
        cells = {}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                cells.setdefault(ch, set()).add(r * s.w + c)
        get = lambda chars: set().union(*(cells.get(ch, set()) for ch in chars))  # noqa: E731
        s.walls = frozenset(get("w"))
        s.boxes, s.holes, s.keys = get("1KG"), get("0"), get("kK")
        s.goals, s.mushrooms = get("gG"), get("m")
        s.avatar = next(iter(get("A")))
        s.alive, s.has_key, s.score, s.tick, s.over = True, False, 0, 0, False
        return s

    def clone(self):
        c = PyBait.__new__(PyBait)
        c.w, c.h, c.walls = self.w, self.h, self.walls
        c.boxes, c.holes, c.keys = set(self.boxes), set(self.holes), set(self.keys)
        c.goals, c.mushrooms = set(self.goals), set(self.mushrooms)
        c.avatar, c.alive, c.has_key = self.avatar, self.alive, self.has_key
        c.score, c.tick, c.over = self.score, self.tick, self.over
        return c

    def _step(self, cell, d):
        c, r = cell % self.w + d[0], cell // self.w + d[1]
        return r * self.w + c if 0 <= c < self.w and 0 <= r < self.h else None

    def advance(self, action):
        if self.over:
            return
        if self.alive:
            self._move(DELTA[action])
        if not self.goals or not self.alive or self.tick >= 2000:
            self.over = True
        self.tick += 1

    def _move(self, d):
        if d == (0, 0):
            return
        frm = self.avatar
        to = self._step(frm, d)
        if to is None or to in self.walls:
            return
        if to in self.holes:
            self.avatar, self.alive = to, False
            return
        avatar = to
        if to in self.boxes:
            beyond = self._step(to, d)
            if beyond is None or beyond in self.walls or beyond in self.boxes or beyond in self.mushrooms:
                return
            self.boxes.discard(to)
            if beyond in self.holes:
                self.holes.discard(beyond)
                self.score += 1
            else:
                self.boxes.add(beyond)
        if avatar in self.keys:
            self.keys.discard(avatar)
            self.has_key = True
        elif not self.has_key and avatar in self.goals:
            avatar = frm
        elif self.has_key and avatar in self.goals:
            self.goals.discard(avatar)
            self.score += 5
        if avatar in self.mushrooms:
            self.mushrooms.discard(avatar)
            self.score += 1
        self.avatar = avatar

    def summary(self):
        # The avatar as [row, column], as the view has it (arena-jsonl/2).
        return (self.avatar // self.w, self.avatar % self.w, self.score, self.has_key, self.alive, self.over, self.tick)


def summary(s):
    import json

    v = json.loads(s.to_json())
    return (v["avatar"][0], v["avatar"][1], int(v["score"]), v["has_key"], v["alive"], v["over"], v["tick"])


def check_pybait(playouts=200):
    """PyBait against the package on random playouts of every level."""
    rng = random.Random(5)
    steps = 0
    for level in range(5):
        start = arena.load("bait", str(level))
        import json

        for _ in range(playouts):
            s, p = start.clone(), PyBait.from_grid(json.loads(start.to_json())["grid"])
            while not s.is_over():
                a = rng.choice(["LEFT", "RIGHT", "DOWN", "UP", "NIL"])
                s.advance(a)
                p.advance(a)
                steps += 1
                assert summary(s) == p.summary(), (level, summary(s), p.summary())
    return steps


def rate(s, actions, seconds):
    """clone + advance per second, cycling over `actions` from `s`."""
    n, k = 0, len(actions)
    end = time.perf_counter() + seconds
    while True:
        for i in range(1000):
            t = s.clone()
            t.advance(actions[i % k])
        n += 1000
        if time.perf_counter() >= end:
            return n / seconds


#: (game, level, seat, max_steps) of the --agent games: two puzzles, Snake
#: (simultaneous) and two alternating games (seat 1 in one).
AGENT_GAMES = [
    ("bait", "1", 0, 200),
    ("sokoban", "microban:3", 0, 200),
    ("snake", "seed:5", 0, None),
    ("connect4", "start", 1, None),
    ("xiangqi", "start", 0, 100),
]


def conversation(game, level, seat, max_steps, seed, rng, legacy):
    """The text the harness writes to `seat` in a random game, and the
    action the seat answers at each tick it is asked."""
    import json

    s = arena.load(game, level, seed, max_steps)
    n = s.num_players()
    start = {"type": "start", "protocol": arena.PROTOCOL, "game": game, "level": level,
             "seed": seed, "max_steps": max_steps, "seat": seat, "players": n,
             "time": {"act_ms": 40.0, "act_hard_ms": 50.0, "init_ms": 1000.0, "init_hard_ms": 1250.0},
             "state": json.loads(s.to_json(seat))}
    lines, answers, moves = [start], {}, []
    while not s.is_over():
        active = s.active_seats()
        # Random moves, avoiding (in a few tries) those that end the game,
        # so that Snake's games last more than a tick or two.
        for _ in range(8):
            joint = [rng.choice(s.legal_actions(k)) if k in active else None for k in range(n)]
            t = s.clone()
            t.advance(joint)
            if not t.is_over():
                break
        if seat in active:
            lines.append({"type": "act", "tick": s.tick(), "moves": moves, "state": json.loads(s.to_json(seat)),
                          "legal": s.legal_actions(seat), "remaining_ms": 40.0})
            answers[s.tick()] = joint[seat]
            moves = []
        moves.append(joint)
        s.advance(joint)
    lines.append({"type": "end", "result": s.result(seat), "score": s.score(seat), "tick": s.tick(),
                  "moves": moves, "state": json.loads(s.to_json(seat))})
    if legacy:
        for m in lines:
            for k in ("seed", "max_steps", "moves"):
                m.pop(k, None)
    return "".join(json.dumps(m) + "\n" for m in lines), answers


def agent_overhead(games, legacy):
    """[(game, level, sorted per-act milliseconds from reading an act line
    to calling act)]."""
    import io

    import arena.agent

    out = []
    for game, level, seat, max_steps in AGENT_GAMES:
        rng = random.Random(game)
        samples = []
        for g in range(games):
            text, answers = conversation(game, level, seat, max_steps, 1000 + g, rng, legacy)

            def act(state, timer, answers=answers):
                samples.append(timer.elapsed_ms())
                return answers[timer.tick]

            arena.agent.run(act, max_steps=max_steps, stdin=io.StringIO(text), stdout=io.StringIO())
        out.append((game, level, sorted(samples)))
    return out


def print_agent_overhead(games, legacy):
    import arena.agent

    print("arena.agent (%s), messages %s" % (
        arena.agent.__file__, "without seed, max_steps, moves" if legacy else "as the harness writes them"))
    print("per act, from reading the line to calling act, ms; %d random games each" % games)
    print("%-10s %-12s %6s %8s %8s" % ("game", "level", "acts", "median", "p90"))
    for game, level, t in agent_overhead(games, legacy):
        print("%-10s %-12s %6d %8.3f %8.3f" % (game, level, len(t), t[len(t) // 2], t[len(t) * 9 // 10]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--agent", action="store_true", help="time arena.agent per act instead")
    ap.add_argument("--legacy", action="store_true", help="with --agent: messages without seed, max_steps, moves")
    ap.add_argument("--games", type=int, default=30, help="with --agent: random games per game")
    args = ap.parse_args()
    if args.agent:
        print_agent_overhead(args.games, args.legacy)
        return
    print("PyBait checked against arena on %d random steps" % check_pybait())
    print("\nclone + advance per second, Python %d.%d, one thread" % sys.version_info[:2])
    print("%-10s %-8s %14s %14s" % ("game", "position", "arena (Rust)", "pure Python"))
    import json

    for level in range(5):
        s = arena.load("bait", str(level))
        acts = s.legal_actions()
        p = PyBait.from_grid(json.loads(s.to_json())["grid"])
        print("%-10s %-8s %14.0f %14.0f" % ("bait", level, rate(s, acts, args.seconds), rate(p, acts, args.seconds)))
    x = arena.load("xiangqi", "start")
    print("%-10s %-8s %14.0f %14s" % ("xiangqi", "start", rate(x, x.legal_actions(), args.seconds), "-"))
    rng = random.Random(1)
    for _ in range(30):
        x.advance(rng.choice(x.legal_actions()))
    print("%-10s %-8s %14.0f %14s" % ("xiangqi", "ply 30", rate(x, x.legal_actions(), args.seconds), "-"))
    binary = os.environ.get("ARENA_BIN", os.path.join(ROOT, "target", "release", "arena"))
    for game in ("bait", "xiangqi"):
        print("\n$ arena bench %s --seconds %s" % (game, args.seconds))
        out = subprocess.run([binary, "bench", game, "--seconds", str(args.seconds)], capture_output=True, text=True)
        print(out.stdout.rstrip() or out.stderr.rstrip())


if __name__ == "__main__":
    main()
