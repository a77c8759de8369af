#!/usr/bin/env python3
"""Agents that try to escape containment, for harness/tests/containment.rs.

Usage: contain.py MODE MARKER. MARKER tags the command line of every process
the agent leaves behind, so that the test can find survivors in /proc.
Findings are written to stderr (kept in the run's logs/).
"""
import json
import os
import sys
import time

mode = sys.argv[1]
marker = sys.argv[2]
PY = "/usr/bin/python3"


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def orphan():
    """Double fork, setsid, exec with an emptied environment."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv("/usr/bin/env", ["env", "-i", PY, "-c",
                                      "import time; time.sleep(1000)", marker + "-orphan"])
        os._exit(0)
    os.wait()
    log("orphan started")


def group_child():
    """A child that stays in the agent's process group."""
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(PY, [PY, "-c", "import time; time.sleep(1000)", marker + "-child"])
    log("group child started")


if mode in ("orphan", "orphan-hang"):
    orphan()
if mode == "groupchild":
    group_child()
if mode == "uid":
    log(f"uid={os.getuid()}")
    time.sleep(2.0)
if mode == "env":
    log("env=" + json.dumps(dict(os.environ), sort_keys=True))
if mode == "tmpfs":
    # Files of 8 MiB (RLIMIT_FSIZE caps each file, not their sum), up to 400 MiB.
    chunk = b"\0" * (1 << 20)
    for d in ("/tmp", "/dev/shm", "/dev"):
        n = 0
        paths = []
        try:
            while n < 400:
                path = os.path.join(d, f"arena-fill-{len(paths)}")
                paths.append(path)
                with open(path, "wb") as f:
                    for _ in range(8):
                        f.write(chunk)
                        f.flush()
                        n += 1
        except OSError:
            pass
        for path in paths:
            try:
                os.unlink(path)
            except OSError:
                pass
        log(f"tmpfs {d} {n}")

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready"})
        continue
    if msg["type"] == "end":
        break
    if mode in ("groupchild", "orphan-hang"):
        time.sleep(1000)
    if mode == "closeout":
        os.close(1)
        log("closed stdout")
        time.sleep(30)
    if mode == "flood":
        time.sleep(1.0)
        say({"action": msg["legal"][0]})
        sys.stdout.write("\n" * (16 << 20))
        sys.stdout.flush()
        continue
    if mode == "twice":
        say({"action": msg["legal"][0]})
        time.sleep(0.002)
        say({"action": msg["legal"][0]})
        continue
    say({"action": msg["legal"][0]})
