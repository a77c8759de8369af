"""An arena-jsonl/2 agent that checks the `arena` package against the harness.

At every act: the state arena.agent.Session keeps (by applying the moves
the messages list) must give exactly the harness's `state` (the same JSON
text), the same `legal` list (same order) and tick; at the end, the same
result and score. The start message's `max_steps` must be the config's
(the first argument, if any). It plays a random legal move (seeded by the
game, the seat and the tick, so a run is reproducible). Any mismatch
raises: the episode's outcome is `crash` and the reason is in the agent's
stderr log. A checked game ends with the line `parity ok: acts=N result=R
seed=S` on stderr (S: the episode seed the agent was given).
"""

import json
import random
import sys

import arena
import arena.agent

acts = 0


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def check(state, seat, msg):
    text = state.to_json(seat)
    if text != compact(msg["state"]):
        raise AssertionError("state differs at tick %s:\n  python %s\n  arena  %s" % (msg["tick"], text, compact(msg["state"])))
    if state.tick() != msg["tick"]:
        raise AssertionError("tick %s != %s" % (state.tick(), msg["tick"]))


def act(state, timer):
    global acts
    msg = timer.message
    check(state, timer.seat, msg)
    legal = state.legal_actions(timer.seat)
    if legal != msg["legal"]:
        raise AssertionError("legal actions differ at tick %s: python %s, arena %s" % (msg["tick"], legal, msg["legal"]))
    if not state.is_active(timer.seat) or state.is_over():
        raise AssertionError("asked to act in a state where the seat is not active")
    for name in legal:
        if not state.is_legal(name, timer.seat) or state.parse_action(name, timer.seat) != name:
            raise AssertionError("action name %r does not round-trip" % name)
    acts += 1
    rng = random.Random("%s/%s/%s" % (timer.game, timer.seat, msg["tick"]))
    return rng.choice(legal)


def end(state, msg):
    seat = session_seat[0]
    if state is None:
        raise AssertionError("the final state could not be rebuilt")
    check(state, seat, msg)
    if state.result(seat) != msg["result"]:
        raise AssertionError("result %s != %s" % (state.result(seat), msg["result"]))
    if state.score(seat) != msg["score"]:
        raise AssertionError("score %s != %s" % (state.score(seat), msg["score"]))
    if not state.is_over():
        raise AssertionError("the harness ended a game that is not over here")
    print("parity ok: acts=%d result=%s seed=%d" % (acts, msg["result"], session_seed[0]), file=sys.stderr)


session_seat = [0]
session_seed = [None]

# The config's max_steps, which the start message must carry.
max_steps = int(sys.argv[1]) if len(sys.argv) > 1 else None


def init(state, timer):
    session_seat[0] = timer.seat
    session_seed[0] = timer.seed
    if timer.max_steps != max_steps:
        raise AssertionError("max_steps %r in the start message, %r in the config" % (timer.max_steps, max_steps))
    if not isinstance(timer.seed, int):
        raise AssertionError("no seed in the start message: %r" % timer.seed)


arena.agent.run(act, init=init, end=end)
