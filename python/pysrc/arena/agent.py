"""The arena-jsonl/2 protocol loop (docs/protocol.md), so that an agent is one
function::

    import arena.agent

    def act(state, timer):           # state: arena.State, exactly the harness's
        return state.legal_actions(timer.seat)[0]

    arena.agent.run(act)

``run`` answers ``start`` with ``ready`` (after ``init``, if given), calls
``act`` once per ``act`` message with the harness's state as an
``arena.State`` (a fresh copy: change it freely) and a :class:`Timer`, writes
the action name it returns, and returns after ``end``.

The ``ready`` names the protocol version the package speaks
(``arena.PROTOCOL``), so an arena of another version stops the agent with
a clear message; a start message of another version raises
:class:`RebuildError` here, for the same reason (its views differ).

How the state is kept (:class:`Session`): the start message's level is
loaded with the episode's ``seed`` and ``max_steps`` (``arena.load``) and
checked against the start message's state; each act (and the end) message
lists the joint actions played since this seat's previous message
(``moves``: the fallback where a late answer's was played), which are
applied with ``State.advance``, and the result is checked against the
message's ``state``. Nothing is searched. A mismatch raises
:class:`RebuildError` naming the tick and what differs (the agent then
crashes with the reason on stderr) rather than playing on a wrong state.
An arena whose messages lack ``seed``, ``max_steps`` or ``moves`` (older than
these keys) is refused the same way, at the start.
"""

import json
import sys
import time

from ._native import PROTOCOL, load

__all__ = ["run", "Timer", "Session", "RebuildError"]

#: The keys of the start message this module needs beyond the first
#: arena-jsonl/2 messages.
_START_KEYS = ("seed", "max_steps")


class RebuildError(RuntimeError):
    """The harness's state could not be rebuilt from the messages."""


class Timer:
    """The clock of one decision, started when the request was read.

    ``remaining_ms()`` is what is left of the soft budget: the message's
    ``remaining_ms`` minus the time since the message was read. Also holds
    the context of the decision: ``seat``, ``players``, ``game``, ``tick``,
    ``legal`` (the harness's list of legal action names), ``message`` (the
    request as a dict), ``seed`` (the episode's seed: the one the level was
    loaded with, for an agent that wants to draw its own randomness from
    it) and ``max_steps`` (the config's, or ``None``).
    """

    def __init__(self, remaining_ms, seat, players, game, message, start=None, seed=None, max_steps=None):
        self._start = time.perf_counter() if start is None else start
        self._remaining = float(remaining_ms)
        self.seat = seat
        self.players = players
        self.game = game
        self.message = message
        self.seed = seed
        self.max_steps = max_steps
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


def _short(value):
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _differences(here, harness):
    """What differs between two views, for an error message."""
    if not (isinstance(here, dict) and isinstance(harness, dict)):
        return "here %s, harness %s" % (_short(here), _short(harness))
    keys = [k for k in harness if here.get(k) != harness[k]] + [k for k in here if k not in harness]
    parts = ["`%s`: here %s, harness %s" % (k, _short(here.get(k)), _short(harness.get(k))) for k in keys[:4]]
    if len(keys) > 4:
        parts.append("and %d more keys" % (len(keys) - 4))
    return "; ".join(parts)


class Session:
    """The harness's exact state, kept from the protocol's messages.

    ``Session(start_message)``, then ``update(msg)`` for each act message
    and the end message (returns the ``arena.State``, a copy). ``seed`` and
    ``max_steps`` are the episode's, from the start message; the arguments
    of those names are only compared with them (a note on stderr when they
    differ: the game's own values are the ones played).
    """

    def __init__(self, start, seed=None, max_steps=None):
        spoken = start.get("protocol", PROTOCOL)
        if spoken != PROTOCOL:
            raise RebuildError(
                "arena speaks %s, this arena package %s: use the package built with your arena "
                "(python/build.sh; docs/protocol.md says what changed)" % (spoken, PROTOCOL)
            )
        missing = [k for k in _START_KEYS if k not in start]
        if missing:
            raise RebuildError(
                "the start message has no %s: this arena writes %s messages without the keys "
                "`seed`, `max_steps` and `moves` this arena package applies the game's moves with "
                "(an older arena): use the arena and the package of the same build (python/build.sh)"
                % (" or ".join("`%s`" % k for k in missing), PROTOCOL)
            )
        self.game = start["game"]
        self.seat = start["seat"]
        self.players = start["players"]
        self.seed = start["seed"]
        self.max_steps = start["max_steps"]
        for name, given, sent in (("seed", seed, self.seed), ("max_steps", max_steps, self.max_steps)):
            if given is not None and given != sent:
                print("arena.agent: %s=%r ignored: this game's %s is %r (from the start message)"
                      % (name, given, name, sent), file=sys.stderr)
        try:
            # A level file's own text when the harness sent it (the
            # sandbox may not show the file itself).
            level = start.get("level_text") or start["level"]
            self.state = load(self.game, level, self.seed, self.max_steps)
        except ValueError as e:
            raise RebuildError("cannot load the level of the start message: %s" % e)
        here = _view(self.state, self.seat)
        if here != start["state"]:
            raise RebuildError(
                "level %r of %s loaded here differs from the harness's start state (a level file "
                "not visible here, or another build of the game?): %s"
                % (start["level"], self.game, _differences(here, start["state"]))
            )

    def update(self, msg):
        """Apply the ``moves`` of act (or end) message ``msg`` and check the
        result against its ``state``; the state, as an ``arena.State`` copy."""
        tick = msg["tick"]
        moves = msg.get("moves")
        if moves is None:
            raise RebuildError("tick %s: the %s message has no `moves`" % (tick, msg.get("type")))
        for joint in moves:
            at = self.state.tick()
            try:
                self.state.advance(list(joint))
            except (ValueError, TypeError) as e:
                raise RebuildError("tick %d: the harness's move %s cannot be played here: %s"
                                   % (at, _short(joint), e))
        if self.state.tick() != tick:
            raise RebuildError("tick %s: the message's %d moves lead to tick %d here"
                               % (tick, len(moves), self.state.tick()))
        here = _view(self.state, self.seat)
        if here != msg["state"]:
            raise RebuildError("tick %s: after the moves %s the state differs from the harness's: %s"
                               % (tick, _short(moves), _differences(here, msg["state"])))
        return self.state.clone()


def _send(out, obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def run(act, init=None, end=None, seed=None, max_steps=None, stdin=None, stdout=None):
    """Play one game over arena-jsonl/2 on stdin/stdout.

    ``act(state, timer)`` returns an action name; ``init(state, timer)``
    (optional) runs before ``ready`` with the init budget; ``end(state,
    message)`` (optional) gets the final state (``None`` if it could not be
    rebuilt: the reason is on stderr) and the end message. ``seed`` and
    ``max_steps`` need not be given: the start message carries the
    episode's (see :class:`Session`).
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
                init(session.state.clone(), _timer(session, t.get("init_ms", 1000.0), msg, start))
            _send(stdout, {"type": "ready", "protocol": PROTOCOL})
        elif kind == "act":
            if session is None:
                raise RebuildError("act before start")
            state = session.update(msg)
            action = str(act(state, _timer(session, msg.get("remaining_ms", 0.0), msg, start)))
            # Echo the tick: a stray answer can then never be taken for
            # the answer to a later request (docs/protocol.md).
            _send(stdout, {"action": action, "tick": msg.get("tick")})
        elif kind == "end":
            if end is not None and session is not None:
                try:
                    final = session.update(msg)
                except RebuildError as e:
                    print("arena.agent: %s" % e, file=sys.stderr)
                    final = None
                end(final, msg)
            return


def _timer(session, remaining_ms, msg, start):
    return Timer(remaining_ms, session.seat, session.players, session.game, msg, start,
                 seed=session.seed, max_steps=session.max_steps)
