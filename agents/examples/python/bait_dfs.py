"""Depth-first search for Bait, on the `arena` package (the real forward model).

The search runs from the position the agent is in, with a visited set
(State objects hash by position), in the init budget and then in every act's
budget, playing NIL (which leaves the position unchanged) until it has found
a winning plan; then it replays the plan. If the game strays from the plan
(e.g. the harness played NIL for a late answer), the plan is picked up
where the position matches, or the search starts again.

    arena run agents/examples/python/bait-search.toml
"""

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


class DFS:
    def __init__(self):
        self.root = None
        self.plan = []  # [(position before, action)]
        self.nodes = 0

    def restart(self, state):
        self.root = state
        self.stack = [state]
        self.parent = {state: None}  # position -> (previous position, action)

    def path_to(self, state):
        steps = []
        while self.parent[state] is not None:
            before, action = self.parent[state]
            steps.append((before, action))
            state = before
        return steps[::-1]

    def search(self, timer, margin=MARGIN_MS):
        """Expand positions until a win is found, the stack is empty or time is up."""
        while self.stack:
            reserve = margin + len(self.parent) * RESIZE_MS_PER_ENTRY
            if self.nodes % 64 == 0 and timer.remaining_ms() < reserve:
                return
            s = self.stack.pop()
            self.nodes += 1
            # Reversed, so that the game's first action (LEFT) is tried first.
            for a in reversed(s.legal_actions(0)):
                t = s.clone()
                t.advance(a)
                if t in self.parent:
                    continue
                self.parent[t] = (s, a)
                if t.is_over():
                    if t.result(0) == "win":
                        self.plan = self.path_to(t)
                        self.stack = []
                        print("dfs: plan of %d moves after %d nodes" % (len(self.plan), self.nodes), file=sys.stderr)
                        return
                    continue  # a lost game: not expanded
                self.stack.append(t)

    def next_action(self, state):
        for i, (before, action) in enumerate(self.plan):
            if before == state:
                self.plan = self.plan[i + 1 :]
                return action
        return None


dfs = DFS()


def init(state, timer):
    dfs.restart(state)
    dfs.search(timer, INIT_MARGIN_MS)


def act(state, timer):
    action = dfs.next_action(state)
    if action is not None:
        return action
    if dfs.root is None or state != dfs.root:
        dfs.restart(state)
    dfs.search(timer)
    return dfs.next_action(state) or "NIL"


arena.agent.run(act, init=init)
