#!/usr/bin/env python3
"""Botzone Snake test bots for harness/tests/botzone.rs, one mode per argv[1].

Usage: bot.py MODE MARKER [AT]. MARKER only tags the process (for the leak
scan); AT is the round at which the mode misbehaves (default 2).

Every mode walks straight (snake 0 right, snake 1 left: safe for 11 rounds
on the test's empty 11x12 map) and writes one line per turn to stderr:
  bot-trace {"pid", "round", "kind": "full"|"request", "played": [...], "data", "globaldata"}
"played" are its own directions as arena reports them (full input only).

Every answer but the misbehaving one carries "data": "r<round>".

Modes: walk (traditional), bare (prints the bare response), multiline (the
answer over several lines), garbage, shape, dir7, crash, silent (prints
nothing), flood (2 MiB without a newline), nonzero (answers, then exits
with status 1), bgchild (leaves a
child in its process group, holding stdout), bgchild-setsid (the same in a
new session),
keep (keep-running), keep-hang (keep-running, hangs at AT), keep-exit
(keep-running, answers without the marker at AT and exits), keep-slow
(keep-running, answers 2 (down) / 0 (up) after 1.6 s at AT), data (checks
that data and globaldata come back: data is an object, globaldata counts games).
"""
import json
import os
import sys
import time

MODE = sys.argv[1]
AT = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else 2
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def trace(**kw):
    kw["pid"] = os.getpid()
    # One write per line (print() makes two when Python runs unbuffered).
    sys.stderr.write("bot-trace " + json.dumps(kw) + "\n")
    sys.stderr.flush()


def say(obj, keep=False):
    print(json.dumps(obj))
    if keep:
        print(KEEP)
    sys.stdout.flush()


def misbehave(rnd, walk, keep):
    """Answer for round `rnd`; misbehave at AT. Returns the direction or None."""
    if MODE == "sleepy":
        time.sleep(0.3)  # every round: wall time, no CPU time
    if rnd != AT or MODE == "sleepy":
        say({"response": {"direction": walk}, "data": f"r{rnd}"}, keep)
        return walk
    if MODE == "garbage":
        print("hello from the bot", flush=True)
    elif MODE == "shape":
        say({"response": {"dir": walk}})
    elif MODE == "dir7":
        say({"response": {"direction": 7}})
    elif MODE == "crash":
        print("deliberate crash", file=sys.stderr, flush=True)
        sys.exit(3)
    elif MODE == "silent":
        pass
    elif MODE == "nonzero":
        say({"response": {"direction": walk}})
        sys.exit(1)
    elif MODE == "flood":
        sys.stdout.write("x" * (2 << 20))
        sys.stdout.flush()
    elif MODE in ("bgchild", "bgchild-setsid"):
        # The child keeps stdout open: the answer still ends when the bot exits.
        if os.fork() == 0:
            if MODE == "bgchild-setsid":
                os.setsid()
            time.sleep(1000)
            os._exit(0)
        print("started a background child", file=sys.stderr, flush=True)
        say({"response": {"direction": walk}})
    elif MODE == "keep-hang":
        while True:
            time.sleep(1)
    elif MODE == "keep-exit":
        say({"response": {"direction": walk}, "data": f"r{rnd}"})
        sys.exit(0)
    elif MODE == "keep-slow":
        time.sleep(1.6)
        late = 2 if walk == 1 else 0
        say({"response": {"direction": late}}, keep)
        return late
    elif MODE == "bare":
        say({"direction": walk})
    elif MODE == "multiline":
        print(json.dumps({"response": {"direction": walk}, "debug": "multi"}, indent=2))
        sys.stdout.flush()
    else:
        say({"response": {"direction": walk}, "data": f"r{rnd}"}, keep)
    return walk


def main():
    full = json.loads(input())
    req, resp = full["requests"], full["responses"]
    me = 0 if req[0]["x"] == 1 else 1
    walk = 1 if me == 0 else 3
    rnd = len(resp)
    trace(round=rnd, kind="full", played=[r["direction"] for r in resp],
          data=full.get("data"), globaldata=full.get("globaldata"))
    if MODE == "data":
        if rnd > 0 and full.get("data") != {"round": rnd - 1, "me": me}:
            sys.exit(f"data came back as {full.get('data')!r}")
        games = int(full.get("globaldata") or "0") + (1 if rnd == 0 else 0)
        say({"response": {"direction": walk}, "data": {"round": rnd, "me": me},
             "globaldata": str(games), "debug": {"games": games}})
        return
    keep = MODE.startswith("keep")
    misbehave(rnd, walk, keep)
    if not keep:
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        rnd += 1
        request = json.loads(line)
        trace(round=rnd, kind="request", request=request)
        misbehave(rnd, walk, keep)


if __name__ == "__main__":
    main()
