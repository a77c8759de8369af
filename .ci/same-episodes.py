#!/usr/bin/env python3
"""Do two arena binaries play the same episodes? Runs every shipped config
(configs/*.toml, or the CONFIGs given) under the counted clock
(`arena run CONFIG --clock counted`) with the same seed under OLD and NEW,
each into a 0700 temp folder, and compares their episodes.csv without the
timing columns, printing per config "identical (N rows)" or the first row
that differs.

    .ci/same-episodes.py OLD_ARENA NEW_ARENA [CONFIG...]
        [--seed S] [--repetitions N] [--counted-step D] [--full] [--keep]

Configs with an external agent are listed and skipped: the counted clock
counts only built-in agents' looks at their timer (and takes UCI/UCCI
engines with a fixed `search`, which are charged nothing). The exceptions
(OWN_CLOCKS) are configs whose external agents choose their moves from
their input alone and answer far inside their limits (the Botzone Snake
sample bots seed their random choice from the game so far): they run under
their own clocks, without `--clock counted`. A full run of some
shipped configs takes tens of minutes, so by default each is cut down
(`--repetitions` and a coarser `--counted-step`, both printed; the same for
both binaries); `--full` runs them as they are. Exit code 1 when a config
differs or a run fails.
"""

import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

# Columns that read a clock or name the machine (the act times are the
# counted times under the counted clock: compared, but reported apart).
TIMING = {"total_ms", "cpu_ms", "mean_act_ms", "max_act_ms", "p99_act_ms", "init_ms"}
MACHINE = {"host", "cpu_model", "run"}
# The detail of a request abandoned at the wall-clock safety net.
SAFETY_NET = "worker thread abandoned"
COUNTED = {"total_ms", "mean_act_ms", "max_act_ms", "p99_act_ms", "init_ms"}

# The cut-down of each shipped config (repetitions, counted step) unless
# --full: a few minutes for the whole set on a 2-core machine.
CUT = {
    "bait-agents.toml": (1, "200us"),
    "bait-agents-100ms.toml": (1, "500us"),
    "connect4-ratings.toml": (1, None),
    "connect4.toml": (2, None),
    "demo.toml": (1, "200us"),
    "fairness-cpu.toml": (1, None),
    "fairness-wall.toml": (1, None),
    "gvgai-benchmark.toml": (1, "2ms"),
    "snake-agents.toml": (2, "1ms"),
    "snake-agents-50ms.toml": (2, None),
    "snake-botzone.toml": (1, None),
    "sokoban-microban.toml": (1, None),
    "supply-agents.toml": (1, None),
    "vgdl-own.toml": (1, "200us"),
    "xiangqi-agents.toml": (1, "5ms"),
    "xiangqi-fairy-stockfish.toml": (1, "5ms"),
    "xiangqi-sjaak.toml": (1, "5ms"),
    "xiangqi-gauntlet.toml": (1, "2ms"),
    "xiangqi-sprt.toml": (1, "5ms"),
}


# Configs whose external agents are deterministic given their input and
# answer in a small part of their budget: run under their own clocks.
OWN_CLOCKS = {"snake-botzone.toml"}


def externals(path):
    """The labels of the config's external agents (those with `command`)
    that cannot be counted: all but UCI/UCCI engines with a fixed `search`."""
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    return [
        a.get("name") or os.path.basename(a["command"][-1])
        for a in cfg.get("agents", [])
        if "command" in a and not (a.get("protocol") in ("uci", "ucci") and "search" in a)
    ]


def read(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, list(r)


def run(arena, config, out, flags, counted=True):
    t = time.monotonic()
    clock = ["--clock", "counted"] if counted else []
    p = subprocess.run(
        [arena, "run", config, "--out", out, "-q", *clock, *flags],
        capture_output=True,
        text=True,
    )
    return p, time.monotonic() - t


def compare(old_csv, new_csv, counted_clock=True):
    """(identical?, message)."""
    (ho, ro), (hn, rn) = read(old_csv), read(new_csv)
    common = [c for c in ho if c in hn and c not in TIMING | MACHINE]
    counted = [c for c in ho if c in hn and c in COUNTED]
    note = "" if ho == hn else f" (headers differ: compared the {len(common)} shared columns)"

    def key(h, rows, cols):
        idx = [h.index(c) for c in cols]
        ep, seat = h.index("episode"), h.index("seat")
        rows = sorted(rows, key=lambda r: (int(r[ep]), int(r[seat])))
        return [[r[i] for i in idx] for r in rows]

    a, b = key(ho, ro, common), key(hn, rn, common)
    if len(a) != len(b):
        return False, f"DIFFER: {len(a)} rows vs {len(b)}{note}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            # Every row of that episode that differs (both seats of a game).
            ep = dict(zip(common, x))["episode"]
            parts = []
            for u, v in zip(a, b):
                if u != v and dict(zip(common, u))["episode"] == ep:
                    cols = [f"{c}: {p!r} -> {q!r}" for c, p, q in zip(common, u, v) if p != q]
                    head = dict(zip(common, u))
                    parts.append(f"seat {head['seat']} ({head['agent']}): " + "; ".join(cols))
            net = any(SAFETY_NET in r[common.index("detail")] for r in a + b if r[common.index("episode")] == ep)
            why = " [the wall-clock safety net: the one verdict that may differ]" if net else ""
            return False, f"DIFFER at row {i + 1}, episode {ep}{why}: " + " | ".join(parts) + note
    if not counted_clock:
        return True, f"identical ({len(a)} rows; own clocks, times not compared){note}"
    same_counted = key(ho, ro, counted) == key(hn, rn, counted)
    extra = ", counted times identical too" if same_counted else ", counted times differ"
    return True, f"identical ({len(a)} rows{extra}){note}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--seed", default="1", help="the master seed of every run (default 1)")
    ap.add_argument("--repetitions", help="instead of each config's cut-down")
    ap.add_argument("--counted-step", help="instead of each config's cut-down")
    ap.add_argument("--full", action="store_true", help="run the configs as they are")
    ap.add_argument("--keep", action="store_true", help="keep the temp folders")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    configs = args.configs or sorted(glob.glob(os.path.join(root, "configs", "*.toml")))
    print(f"old: {args.old}\nnew: {args.new}\nseed {args.seed}, --clock counted")
    print(f"{'config':30} {'cut to':36} {'old s':>6} {'new s':>6}  result")
    failed = False
    for config in configs:
        name = os.path.basename(config)
        ext = externals(config)
        own = name in OWN_CLOCKS
        if ext and not own:
            print(f"{name:30} skipped: external agent(s) {', '.join(ext)} cannot be counted")
            continue
        reps, step = (None, None) if args.full else CUT.get(name, (None, None))
        reps, step = args.repetitions or reps, args.counted_step or step
        flags = ["--seed", args.seed]
        cut = []
        if reps:
            flags += ["--repetitions", str(reps)]
            cut.append(f"--repetitions {reps}")
        if step and not own:
            flags += ["--counted-step", step]
            cut.append(f"--counted-step {step}")
        if own:
            cut.append("(own clocks)")
        tmp = tempfile.mkdtemp(prefix=f"same-episodes-{name[:-5]}-")  # mode 0700
        os.chmod(tmp, 0o700)
        outs, secs, err = [], [], None
        for side, arena in (("old", args.old), ("new", args.new)):
            out = os.path.join(tmp, side)
            p, s = run(arena, config, out, flags, counted=not own)
            outs.append(os.path.join(out, "episodes.csv"))
            secs.append(s)
            if p.returncode != 0:
                err = f"{side} failed (exit {p.returncode}): {(p.stderr or p.stdout).strip()[-400:]}"
                break
        if err:
            ok, msg = False, err
            secs += [0.0] * (2 - len(secs))
        else:
            ok, msg = compare(*outs, counted_clock=not own)
        failed |= not ok
        print(f"{name:30} {' '.join(cut) or 'full':36} {secs[0]:6.1f} {secs[1]:6.1f}  {msg}", flush=True)
        if args.keep:
            print(f"  kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
