"""The arena-jsonl/2 protocol loop (docs/protocol.md), so that an agent is one
function::

    import arena.agent

    def act(state, timer):           # state: arena.State, rebuilt exactly
        return state.legal_actions(timer.seat)[0]

    arena.agent.run(act)

``run`` answers ``start`` with ``ready`` (after ``init``, if given), calls
``act`` once per ``act`` message with the harness's state rebuilt as an
``arena.State`` (a fresh copy: change it freely) and a :class:`Timer`, writes
the action name it returns, and returns after ``end``.

The ``ready`` names the protocol version the package speaks
(``arena.PROTOCOL``), so an arena of another version stops the agent with
a clear message; a start message of another version raises
:class:`RebuildError` here, for the same reason (its views differ).

How the state is rebuilt (:class:`Session`): the start message's level is
loaded (``arena.load``, with its ``seed`` and ``max_steps`` when the message
has them) and checked against the start message's state; then, at every act,
the actions played since the last known state are replayed: from the
message's ``moves`` when it has them, otherwise found by trying this seat's
own answer (or the fallback the harness plays for a late answer) and every
legal action of the other seats until the state's JSON view equals the one
the harness sent. Any mismatch raises :class:`RebuildError` (the agent then
crashes with the reason on stderr) rather than playing on a wrong state.
"""

import itertools
import json
import sys
import time

from ._native import PROTOCOL, load

__all__ = ["run", "Timer", "Session", "RebuildError"]


class RebuildError(RuntimeError):
    """The harness's state could not be rebuilt from the messages."""


class Timer:
    """The clock of one decision, started when the request was read.

    ``remaining_ms()`` is what is left of the soft budget: the message's
    ``remaining_ms`` minus the time since the message was read. Also holds
    the context of the decision: ``seat``, ``players``, ``game``, ``tick``,
    ``legal`` (the harness's list of legal action names) and ``message``
    (the request as a dict).
    """

    def __init__(self, remaining_ms, seat, players, game, message, start=None):
        self._start = time.perf_counter() if start is None else start
        self._remaining = float(remaining_ms)
        self.seat = seat
        self.players = players
        self.game = game
        self.message = message
        self.tick = message.get("tick", 0)
        self.legal = message.get("legal", [])

    def elapsed_ms(self):
        """Milliseconds since the request was read."""
        return (time.perf_counter() - self._start) * 1000.0

    def remaining_ms(self):
        """Milliseconds left of the soft budget (0 once it is used up)."""
        return max(0.0, self._remaining - self.elapsed_ms())

    def exceeded(self):
        """Whether the soft budget is used up."""
        return self.remaining_ms() <= 0.0


def _view(state, seat):
    return json.loads(state.to_json(seat))


class Session:
    """Rebuilds the harness's exact state from the protocol's messages.

    ``Session(start_message)``, then for each act message ``update(msg)``
    (returns the ``arena.State``) and ``played(action)`` with the answer.
    ``seed`` and ``max_steps`` stand in for the start message's keys of
    those names while the harness does not send them (a config's
    ``max_steps`` ends the game early: pass it, or the rebuilt state will
    not end where the harness's does).
    """

    #: Most states tried when looking for the other seats' moves.
    MAX_STATES = 200000

    def __init__(self, start, seed=None, max_steps=None):
        spoken = start.get("protocol", PROTOCOL)
        if spoken != PROTOCOL:
            raise RebuildError(
                "arena speaks %s, this arena package %s: use the package built with your arena "
                "(python/build.sh; docs/protocol.md says what changed)" % (spoken, PROTOCOL)
            )
        self.game = start["game"]
        self.seat = start["seat"]
        self.players = start["players"]
        level = start.get("level_text") or start["level"]
        try:
            self.state = load(
                self.game,
                level,
                start.get("seed", 0 if seed is None else seed),
                start.get("max_steps", max_steps),
            )
        except ValueError as e:
            raise RebuildError("cannot load the level of the start message: %s" % e)
        if _view(self.state, self.seat) != start["state"]:
            raise RebuildError(
                "level %r of %s loaded here differs from the harness's start state "
                "(a level generated from the episode seed, or a level file not visible here?)"
                % (start["level"], self.game)
            )
        self.initial = self.state.clone()
        self._answer = None

    def played(self, action):
        """Record this seat's answer to the last act message."""
        self._answer = action

    def update(self, msg):
        """The state of act (or end) message ``msg``, as an ``arena.State``."""
        target = msg["state"]
        tick = msg["tick"]
        if "moves" in msg:
            s = self.initial.clone()
            for item in msg["moves"]:
                names = item.split("/") if isinstance(item, str) else list(item)
                s.advance(names[0] if len(names) == 1 else names)
            found = [s] if s.tick() == tick and _view(s, self.seat) == target else []
        else:
            found = self._search(tick, target)
        if not found:
            raise RebuildError(
                "tick %d: no sequence of moves from tick %d gives the harness's state"
                % (tick, self.state.tick())
            )
        self.state = found[0]
        self._answer = None
        return self.state.clone()

    def _options(self, s, seat, own):
        if not s.is_active(seat):
            return [None]
        if seat == self.seat and own and self._answer is not None:
            out = [self._answer]
            fb = s.fallback_action(seat)
            if fb != self._answer:
                out.append(fb)
            return [a for a in out if s.is_legal(a, seat)] or out
        return s.legal_actions(seat)

    def _search(self, tick, target):
        frontier = [self.state]
        own = True
        tried = 0
        while frontier and frontier[0].tick() < tick:
            seen = set()
            nxt = []
            for s in frontier:
                if s.is_over():
                    continue
                options = [self._options(s, k, own) for k in range(self.players)]
                for joint in itertools.product(*options):
                    t = s.clone()
                    try:
                        t.advance(joint[0] if self.players == 1 else list(joint))
                    except ValueError:
                        continue
                    tried += 1
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
                if tried > self.MAX_STATES:
                    raise RebuildError("tick %d: gave up after %d states" % (tick, tried))
            frontier = nxt
            own = False
        return [s for s in frontier if s.tick() == tick and _view(s, self.seat) == target]


def _send(out, obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def run(act, init=None, end=None, seed=None, max_steps=None, stdin=None, stdout=None):
    """Play one game over arena-jsonl/2 on stdin/stdout.

    ``act(state, timer)`` returns an action name; ``init(state, timer)``
    (optional) runs before ``ready`` with the init budget; ``end(state,
    message)`` (optional) gets the final state and the end message.
    ``seed`` and ``max_steps``: see :class:`Session`.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    session = None
    while True:
        line = stdin.readline()
        if not line:
            return
        start = time.perf_counter()
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            session = Session(msg, seed, max_steps)
            if init is not None:
                t = msg.get("time", {})
                init(
                    session.state.clone(),
                    Timer(t.get("init_ms", 1000.0), session.seat, session.players, session.game, msg, start),
                )
            _send(stdout, {"type": "ready", "protocol": PROTOCOL})
        elif kind == "act":
            if session is None:
                raise RebuildError("act before start")
            state = session.update(msg)
            timer = Timer(msg.get("remaining_ms", 0.0), session.seat, session.players, session.game, msg, start)
            action = act(state, timer)
            action = str(action)
            session.played(action)
            # Echo the tick: a stray answer can then never be taken for
            # the answer to a later request (docs/protocol.md).
            _send(stdout, {"action": action, "tick": msg.get("tick")})
        elif kind == "end":
            if end is not None and session is not None:
                try:
                    final = session.update(msg)
                except RebuildError:
                    final = None
                end(final, msg)
            return
