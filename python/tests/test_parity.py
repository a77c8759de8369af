"""Parity of the `arena` Python package with the Rust games and the harness.

Run by pytest or as a plain script (``python tests/test_parity.py``), with
the package installed and the `arena` binary built (``ARENA_BIN``, default
``target/release/arena`` of the repository). Three checks:

- the package knows exactly the games of ``arena list``;
- random playouts of every game (several levels and seeds) give, line by
  line, the same states as ``arena trace`` fed the same actions, and
  legal moves, results and the position identity behave at every tick;
- `arena run` plays every game (Snake's `random` map included) with
  ``parity_agent.py``, an arena-jsonl/2 agent on ``arena.agent``, which
  checks at every act that the state it keeps by applying the messages'
  moves, its legal moves and tick are the harness's own (JSON text
  equality), and at the end the result and score; the seed it was given
  is the episode's (``moves.jsonl``);
- ``arena.agent`` on messages written here: a start without ``seed`` (an
  older arena) is refused, a late answer's fallback is applied, and a
  mismatch names the tick and what differs.
"""

import csv
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import arena

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARENA = os.environ.get("ARENA_BIN", os.path.join(ROOT, "target", "release", "arena"))
WORK = os.environ.get("ARENA_TEST_DIR") or tempfile.mkdtemp(prefix="arena-parity-")


def arena_cmd(*args):
    out = subprocess.run([ARENA] + list(args), capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError("arena %s failed (%d): %s" % (" ".join(args), out.returncode, out.stderr))
    return out.stdout


def registry():
    """{game: [level names]} from `arena list <game>` (named levels only)."""
    games = {}
    for name in re.findall(r"^(\w+): ", arena_cmd("list"), re.M):
        text = arena_cmd("list", name)
        block = text.split("  levels:\n", 1)[1].split("  agents:", 1)[0]
        levels = [l.split()[0] for l in block.splitlines() if l.startswith("    ") and not l.startswith("     ")]
        games[name] = [l for l in levels if l not in ("...", "seed:N")]
    return games


def test_games_are_the_registry():
    assert arena.games() == list(registry())


def pick_levels(game, levels):
    # A few levels per game; Snake's `random` is drawn from the seed, so add fixed maps.
    out = levels[:3]
    if game == "snake":
        out += ["seed:5", "seed:77"]
    return out


def random_playout(state, rng, limit):
    """Play random legal moves; return the trace items and the states."""
    items, states = [], [state.clone()]
    seen_positions = {state.clone(): 0}
    while not state.is_over() and state.tick() < limit:
        n = state.num_players()
        active = state.active_seats()
        assert active, "a game that is not over has an active seat"
        joint = []
        for seat in range(n):
            legal = state.legal_actions(seat)
            if seat in active:
                assert legal, "an active seat has legal actions"
                assert state.is_active(seat)
                joint.append(rng.choice(legal))
            else:
                assert legal == [], "an inactive seat has no legal actions"
                joint.append(None)
        before = state.clone()
        if len(active) == 1:
            state.advance(joint[active[0]])
            items.append(joint[active[0]])
        else:
            state.advance(joint)
            items.append("/".join(joint))
        assert before.tick() + 1 == state.tick()
        # Position identity: equal states hash equally; a copy is equal.
        c = state.clone()
        assert c == state and hash(c) == hash(state)
        if c in seen_positions:
            assert seen_positions[c] is not None
        seen_positions[c] = state.tick()
        states.append(c)
    if state.is_over():
        for seat in range(state.num_players()):
            assert state.result(seat) in ("win", "loss", "draw")
            assert state.legal_actions(seat) == []
    else:
        assert all(state.result(s) == "none" for s in range(state.num_players()))
    return items, states


def test_random_playouts_match_arena_trace():
    checked = 0
    for game, levels in registry().items():
        for level in pick_levels(game, levels):
            for seed in range(3):
                rng = random.Random("%s/%s/%d" % (game, level, seed))
                items, states = random_playout(arena.load(game, level), rng, 150)
                lines = arena_cmd("trace", game, "--level", level, "--actions", ",".join(items)).splitlines()
                assert len(lines) == len(states), (game, level, len(lines), len(states))
                for i, (line, s) in enumerate(zip(lines, states)):
                    assert s.trace_json() == line, "%s %s seed %d tick %d:\n  python %s\n  arena  %s" % (
                        game, level, seed, i, s.trace_json(), line)
                checked += len(states)
    print("trace parity: %d states" % checked)


def test_gvgai_games_load_with_a_seed_and_match_arena_trace():
    # The VGDL family is not in ``arena list``'s game lines: a few members,
    # one that draws random numbers (aliens), with GVGAI's game seed.
    checked = 0
    for game in ("gvgai:aliens", "gvgai:bait", "gvgai:zelda"):
        for seed in (1, 20000000):
            state = arena.load(game, "0", seed=seed)
            assert state.game == game
            rng = random.Random("%s/%d" % (game, seed))
            items, states = random_playout(state, rng, 80)
            lines = arena_cmd("trace", game, "--level", "0", "--seed", str(seed),
                              "--actions", ",".join(items)).splitlines()
            assert len(lines) == len(states), (game, seed, len(lines), len(states))
            for i, (line, s) in enumerate(zip(lines, states)):
                assert json.loads(s.trace_json()) == json.loads(line), (game, seed, i)
            view = json.loads(states[-1].to_json(0))
            assert view["game"] == game and "grid" in view
            checked += len(states)
    print("gvgai trace parity: %d states" % checked)


def parity_config(game, levels, max_steps, folder):
    players = arena.load(game, levels[0]).num_players()
    python = sys.executable
    lines = [
        'name = "python-parity-%s"' % game,
        'game = "%s"' % game,
        "levels = %s" % json.dumps(levels),
        "repetitions = 1",
        "seed = 7",
        "concurrency = 2",
    ]
    if max_steps:
        lines.append("max_steps = %d" % max_steps)
    lines += [
        "[time]",
        'act = "2s"',
        'act_hard = "4s"',
        'init = "4s"',
        'init_hard = "8s"',
        "[[agents]]",
        'name = "parity"',
        "command = %s" % json.dumps([python, "parity_agent.py"] + ([str(max_steps)] if max_steps else [])),
        "workdir = %s" % json.dumps(HERE),
        'sandbox = "none"',
    ]
    if players > 1:
        lines += ["[[agents]]", 'agent = "random"']
    path = os.path.join(folder, "parity-%s.toml" % game)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def test_jsonl_agent_rebuilds_the_harness_state():
    # Without max_steps the games run to their own ends (Bait 2000 ticks,
    # Xiangqi 400 plies); Bait and Xiangqi also once with max_steps. Snake's
    # `random` map is drawn from the episode seed the start message carries.
    runs = []
    for game, levels in registry().items():
        runs.append((game, pick_levels(game, levels), None))
    assert "random" in runs[[g for g, _, _ in runs].index("snake")][1]
    runs.append(("bait", ["0", "1"], 60))
    runs.append(("xiangqi", ["start"], 30))
    episodes = 0
    for game, levels, max_steps in runs:
        folder = os.path.join(WORK, "jsonl-%s-%s" % (game, max_steps or "full"))
        os.makedirs(folder, exist_ok=True)
        cfg = parity_config(game, levels, max_steps, folder)
        out = os.path.join(folder, "out")
        arena_cmd("run", "--quiet", cfg, "--out", out)
        with open(os.path.join(out, "episodes.csv")) as f:
            rows = list(csv.DictReader(f))
        assert rows, "no episode played"
        mine = [r for r in rows if r["agent"] == "parity"]
        assert mine, "the parity agent played no episode"
        logs = os.path.join(out, "logs")
        names = [n for n in sorted(os.listdir(logs)) if n.endswith("-parity.stderr.log")]
        texts = [open(os.path.join(logs, n)).read() for n in names]
        failures = [r["outcome"] + ": " + r["detail"] for r in rows if r["outcome"] != "normal"]
        failures += [t[-2000:] for t in texts if "parity ok" not in t]
        assert not failures, "%s %s: %s" % (game, levels, "\n".join(failures))
        assert len(texts) == len(mine), "%d parity logs for %d episodes" % (len(texts), len(mine))
        # The seed the agent was given is its episode's.
        with open(os.path.join(out, "moves.jsonl")) as f:
            seeds = {e["episode"]: e["seed"] for e in map(json.loads, f)}
        for name, text in zip(names, texts):
            given = int(re.search(r"parity ok: .* seed=(\d+)", text).group(1))
            assert given == seeds[int(name[2:6])], (name, given, seeds)
        episodes += len(mine)
    print("jsonl parity: %d episodes" % episodes)


def test_bait_view_is_row_first_and_the_agent_names_its_protocol():
    import io

    import arena.agent

    assert arena.PROTOCOL == "arena-jsonl/2"
    # Level 0's avatar is in row 1, column 2 of the grid: [row, column].
    for level in ("0", "1", "2", "3", "4"):
        v = json.loads(arena.load("bait", level).to_json())
        r, c = v["avatar"]
        assert v["grid"].split("/")[r][c] == "A", (level, v)
    v = json.loads(arena.load("bait", "0").to_json())
    assert v["avatar"] == [1, 2], v
    # arena.agent's ready names the version; a start of another version is refused.
    start = {"type": "start", "protocol": arena.PROTOCOL, "game": "bait", "level": "0",
             "seed": 0, "max_steps": None, "seat": 0, "players": 1, "time": {}, "state": v}
    out = io.StringIO()
    arena.agent.run(lambda state, timer: "NIL", stdin=io.StringIO(json.dumps(start) + "\n"), stdout=out)
    assert json.loads(out.getvalue()) == {"type": "ready", "protocol": "arena-jsonl/2"}
    start["protocol"] = "arena-jsonl/1"
    try:
        arena.agent.run(lambda state, timer: "NIL", stdin=io.StringIO(json.dumps(start) + "\n"),
                        stdout=io.StringIO())
    except arena.agent.RebuildError as e:
        assert "arena speaks arena-jsonl/1, this arena package arena-jsonl/2" in str(e), e
    else:
        raise AssertionError("a start message of arena-jsonl/1 was accepted")

def _agent_run(lines, act):
    """arena.agent.run on `lines` (dicts); what it wrote, as dicts."""
    import io

    import arena.agent

    out = io.StringIO()
    arena.agent.run(act, stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), stdout=out)
    return [json.loads(l) for l in out.getvalue().splitlines()]


def test_agent_applies_the_messages_moves_and_names_a_mismatch():
    import arena.agent

    s = arena.load("snake", "random", 12345, 30)
    view = lambda s, seat: json.loads(s.to_json(seat))  # noqa: E731
    start = {"type": "start", "protocol": arena.PROTOCOL, "game": "snake", "level": "random",
             "seed": 12345, "max_steps": 30, "seat": 1, "players": 2, "time": {}, "state": view(s, 1)}
    acts = []
    # Seat 1 answered "0" late: its fallback was played, and is listed.
    joint = ["1", s.fallback_action(1)]
    s.advance(joint)
    act = {"type": "act", "tick": 1, "moves": [joint], "state": view(s, 1), "legal": s.legal_actions(1),
           "remaining_ms": 40.0}

    def record(state, timer):
        acts.append((state.to_json(1), timer.seed, timer.max_steps, timer.tick))
        return "0"

    out = _agent_run([start, act], record)
    assert out == [{"type": "ready", "protocol": arena.PROTOCOL}, {"action": "0", "tick": 1}], out
    assert acts == [(s.to_json(1), 12345, 30, 1)], acts
    # Another seed draws another map: the start is refused, saying what differs.
    try:
        _agent_run([dict(start, seed=1)], record)
    except arena.agent.RebuildError as e:
        assert "differs from the harness's start state" in str(e) and "`obstacle`" in str(e), e
    else:
        raise AssertionError("a start state of another map was accepted")
    # A move list that does not give the message's state: the tick is named.
    wrong = dict(act, moves=[["2", joint[1]]])
    try:
        _agent_run([start, wrong], record)
    except arena.agent.RebuildError as e:
        assert str(e).startswith("tick 1: after the moves [[\"2\"") and "`bodies`" in str(e), e
    else:
        raise AssertionError("a wrong move list was accepted")
    # An arena older than these keys is refused at the start, by name.
    old = {k: v for k, v in start.items() if k not in ("seed", "max_steps")}
    try:
        _agent_run([old], record)
    except arena.agent.RebuildError as e:
        assert "the start message has no `seed` or `max_steps`" in str(e), e
    else:
        raise AssertionError("a start message without seed was accepted")


def _world_readable(path):
    """Open `path` and the folders above it to others (a sandboxed agent
    runs under an unprivileged uid when arena runs as root)."""
    os.chmod(path, 0o755)


def test_examples_play_under_the_default_rules_plain_and_in_bwrap():
    """The example agents, under GVGAI's default time rules (no [time]
    section), unsandboxed and under bwrap with the package installed in the
    submission's own folder (agents/examples/README.md)."""
    import glob
    import shutil
    wheels = sorted(glob.glob(os.path.join(ROOT, "target", "wheels", "arena-*.whl")))
    assert wheels, "no wheel built (python/build.sh)"
    base = tempfile.mkdtemp(prefix="arena-examples-")
    _world_readable(base)
    sub = os.path.join(base, "student")
    os.mkdir(sub)
    _world_readable(sub)
    for f in ("bait_dfs.py", "bait_astar.py"):
        shutil.copy(os.path.join(ROOT, "agents", "examples", "python", f), sub)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", os.path.join(sub, "pylib"), wheels[-1]], check=True)
    for dp, dirs, files in os.walk(sub):
        for d in dirs:
            os.chmod(os.path.join(dp, d), 0o755)
        for f in files:
            os.chmod(os.path.join(dp, f), 0o644)
    for sandbox in ("none", "bwrap"):
        cfg = os.path.join(base, "examples-%s.toml" % sandbox)
        with open(cfg, "w") as f:
            f.write(
                'game = "bait"\nlevels = [0, 1]\nmax_steps = 300\nsandbox = "%s"\n'
                '[[agents]]\nname = "py-dfs"\ncommand = ["/usr/bin/python3", "student/bait_dfs.py"]\n'
                'env = { PYTHONPATH = "pylib" }\n'
                '[[agents]]\nname = "py-astar"\ncommand = ["/usr/bin/python3", "student/bait_astar.py"]\n'
                'env = { PYTHONPATH = "pylib" }\n' % sandbox
            )
        out = os.path.join(base, "out-%s" % sandbox)
        arena_cmd("run", cfg, "--out", out, "-q")
        with open(os.path.join(out, "episodes.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 4, rows
        for r in rows:
            assert r["outcome"] == "normal", (sandbox, r)
            assert r["result"] == "win", (sandbox, r)


def main():
    tests = [v for k, v in sorted(globals().items()) if k.startswith("test_") and callable(v)]
    passed = failed = 0
    for t in tests:
        try:
            t()
            passed += 1
            print("PASS %s" % t.__name__)
        except Exception as e:  # noqa: BLE001 - report every failure
            failed += 1
            print("FAIL %s: %s" % (t.__name__, e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
