"""A* for Bait, on the `arena` package (the real forward model).

Cost: one per move. Heuristic (admissible: the avatar moves one cell per
move, must walk onto a key, then onto a door): the Manhattan distance to the
door when the key is held, else the shortest key-then-door Manhattan route.
Like the DFS example, the search runs in the init budget and in every act,
NIL is played until a plan is found, and the plan is then replayed.

    arena run agents/examples/python/bait-search.toml
"""

import heapq
import itertools
import json
import gc
import sys

import arena.agent

# The search makes millions of tuples and no reference cycles: without this,
# the garbage collector's full passes over them stall answers by 100s of ms.
gc.disable()

MARGIN_MS = 15.0  # answer this long before the soft limit (40 ms by default)
INIT_MARGIN_MS = 250.0  # init: the interpreter's start-up (before the timer) counts too
# A dict of n positions that grows past its table is copied in one step
# (about 70 ns per entry here: 50 ms at 700,000): keep that time back, or
# the copy lands after the 50 ms hard limit.
RESIZE_MS_PER_ENTRY = 80e-6


def cells(grid, chars):  # [(row, column)], as the view's positions
    return [(r, c) for r, row in enumerate(grid.split("/")) for c, ch in enumerate(row) if ch in chars]


class AStar:
    def __init__(self):
        self.root = None
        self.plan = []
        self.nodes = 0

    def restart(self, state):
        view = json.loads(state.to_json())
        self.keys = cells(view["grid"], "kK")  # K: a box on a key
        self.doors = cells(view["grid"], "gG")
        self.root = state
        self.count = itertools.count()
        self.open = [(self.h(state), next(self.count), 0, state)]
        self.seen = {state: (0, None)}  # position -> (g, (previous position, action))

    def h(self, s):
        view = json.loads(s.to_json())
        (r, c) = view["avatar"]  # [row, column] (arena-jsonl/2)
        dist = lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1])  # noqa: E731
        to_door = lambda p: min((dist(p, d) for d in self.doors), default=0)  # noqa: E731
        if view["has_key"] or not self.keys:
            return to_door((r, c))
        return min(dist((r, c), k) + to_door(k) for k in self.keys)

    def search(self, timer, margin=MARGIN_MS):
        while self.open:
            reserve = margin + len(self.seen) * RESIZE_MS_PER_ENTRY
            if self.nodes % 64 == 0 and timer.remaining_ms() < reserve:
                return
            _, _, g, s = heapq.heappop(self.open)
            if g > self.seen[s][0]:
                continue  # an outdated entry
            if s.is_over():  # only wins are queued as over
                self.plan = self.path_to(s)
                self.open = []
                print("astar: plan of %d moves after %d nodes" % (len(self.plan), self.nodes), file=sys.stderr)
                return
            self.nodes += 1
            for a in s.legal_actions(0):
                t = s.clone()
                t.advance(a)
                if (t.is_over() and t.result(0) != "win") or self.seen.get(t, (g + 2,))[0] <= g + 1:
                    continue
                self.seen[t] = (g + 1, (s, a))
                heapq.heappush(self.open, (g + 1 + self.h(t), next(self.count), g + 1, t))

    def path_to(self, state):
        steps = []
        while self.seen[state][1] is not None:
            before, action = self.seen[state][1]
            steps.append((before, action))
            state = before
        return steps[::-1]

    def next_action(self, state):
        for i, (before, action) in enumerate(self.plan):
            if before == state:
                self.plan = self.plan[i + 1 :]
                return action
        return None


astar = AStar()


def init(state, timer):
    astar.restart(state)
    astar.search(timer, INIT_MARGIN_MS)


def act(state, timer):
    action = astar.next_action(state)
    if action is not None:
        return action
    if astar.root is None or state != astar.root:
        astar.restart(state)
    astar.search(timer)
    return astar.next_action(state) or "NIL"


arena.agent.run(act, init=init)
