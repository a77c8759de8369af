#!/usr/bin/env python3
"""A misbehaving arena-jsonl/2 agent for the zoo test (harness/tests/external_zoo.rs).

Usage: zoo.py MODE MARKER [ARG]. MARKER only tags the command line (and so
every forked child) so that the test can find leaked processes in /proc.
Findings the test checks are written to stderr (kept in the run's logs/).
"""
import json
import os
import random
import socket
import sys
import time

mode = sys.argv[1]
arg = sys.argv[3] if len(sys.argv) > 3 else ""
rng = random.Random(1)
acts = 0


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


if mode == "crash-start":
    log("crashing at start")
    sys.exit(3)

if mode == "forkbomb":
    n = 0
    try:
        while n < 10000:
            if os.fork() == 0:
                time.sleep(1000)
                os._exit(0)
            n += 1
    except OSError as e:
        log(f"fork failed after {n}: {e}")
    else:
        log(f"fork never failed: {n} children")

if mode == "net":
    s = socket.socket()
    s.settimeout(1.0)
    try:
        s.connect(("127.0.0.1", int(arg)))
        log("net: connected")
    except OSError as e:
        log(f"net: blocked ({e})")

if mode == "sibling":
    try:
        with open(os.path.join("..", arg, "secret.txt")) as f:
            log("sibling: read " + f.read().strip())
    except OSError as e:
        log(f"sibling: blocked ({e})")

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        say({"type": "ready"})
        continue
    if msg["type"] == "end":
        break
    acts += 1
    if mode == "crash-mid" and acts == 3:
        raise RuntimeError("deliberate crash at the third act")
    if mode == "hang":
        while True:
            time.sleep(1000)
    if mode == "slow-soft":
        # Never NIL itself, so that each NIL played is an overrun's.
        time.sleep(0.15)
        say({"action": rng.choice([a for a in msg["legal"] if a != "NIL"])})
        continue
    if mode == "slow-hard" and acts == 2:
        time.sleep(5)
    if mode == "garbage":
        sys.stdout.write("hello, I am not JSON\n")
        sys.stdout.flush()
        continue
    if mode == "noisy" and acts == 1:
        chunk = "e" * (1 << 20)
        for _ in range(8):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    if mode == "illegal":
        say({"action": "JUMP"})
        continue
    if mode == "flood":
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        continue
    if mode == "alloc" and acts == 1:
        big = bytearray(4 << 30)
        log(f"allocated {len(big)} bytes")
    if mode in ("bgchild", "bgchild-setsid") and acts == 1:
        if os.fork() == 0:
            if mode == "bgchild-setsid":
                os.setsid()
            time.sleep(1000)
            os._exit(0)
        log("started a background child, exiting")
        sys.exit(0)
    say({"action": rng.choice(msg["legal"])})
