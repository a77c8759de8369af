"""Monte Carlo tree search (UCT) for Bait, on the `arena` package.

Like GVGAI's sampleMCTS: every act grows a fresh tree from the current state
until the time is nearly up (selection by UCB1, one expansion, a random
rollout to depth ROLLOUT_DEPTH), and plays the most visited move. A leaf is
valued by the score, +10 for a win, -10 for a loss, +2 with the key, -5
for a box pushed onto the key, minus a tenth of the distance to the key (or,
with the key, to the door), all normalised to [0, 1] by the bounds seen so
far.

    arena run agents/examples/python/bait-search.toml
"""

import gc
import json
import math
import random

import arena.agent

gc.disable()  # the tree has no reference cycles; full GC passes stall answers

MARGIN_MS = 15.0  # answer this long before the soft limit (40 ms by default)
ROLLOUT_DEPTH = 10
K = math.sqrt(2)
rng = random.Random(1)


def cells(grid, chars):  # [(row, column)], as the view's positions
    return [(r, c) for r, row in enumerate(grid.split("/")) for c, ch in enumerate(row) if ch in chars]


def value(s):
    view = json.loads(s.to_json())
    v = s.score(0)
    if s.is_over():
        return v + (10.0 if s.result(0) == "win" else -10.0)
    (r, c) = view["avatar"]  # [row, column] (arena-jsonl/2)
    grid = view["grid"]
    v += 2.0 if view["has_key"] else -5.0 * grid.count("K")  # K: a box on the key
    targets = cells(grid, "gG" if view["has_key"] else "k")
    if targets:
        v -= 0.1 * min(abs(r - y) + abs(c - x) for y, x in targets)
    return v


class Node:
    __slots__ = ("state", "children", "untried", "visits", "total")

    def __init__(self, state):
        self.state = state
        self.children = {}
        self.untried = [] if state.is_over() else state.legal_actions(0)
        rng.shuffle(self.untried)
        self.visits = 0
        self.total = 0.0


def search(root_state, timer):
    root = Node(root_state)
    lo, hi = [float("inf")], [float("-inf")]
    while timer.remaining_ms() > MARGIN_MS:
        node, path = root, [root]
        # Selection: UCB1 on normalised values while the node is fully expanded.
        while not node.untried and node.children:
            node = max(
                node.children.values(),
                key=lambda c: c.total / c.visits + K * math.sqrt(math.log(node.visits) / c.visits),
            )
            path.append(node)
        # Expansion.
        if node.untried:
            a = node.untried.pop()
            child_state = node.state.clone()
            child_state.advance(a)
            node.children[a] = node = Node(child_state)
            path.append(node)
        # Rollout.
        s = node.state.clone()
        for _ in range(ROLLOUT_DEPTH - len(path) + 1):
            if s.is_over():
                break
            s.advance(rng.choice(s.legal_actions(0)))
        v = value(s)
        lo[0], hi[0] = min(lo[0], v), max(hi[0], v)
        norm = (v - lo[0]) / (hi[0] - lo[0]) if hi[0] > lo[0] else 0.5
        for n in path:
            n.visits += 1
            n.total += norm
    if not root.children:
        return root_state.legal_actions(0)[0]
    return max(root.children.items(), key=lambda kv: kv[1].visits)[0]


def act(state, timer):
    return search(state, timer)


arena.agent.run(act)
