"""Alpha-beta (negamax) for Xiangqi, on the `arena` package.

Iterative deepening until the time is nearly up, captures searched first
(most valuable victim first), the previous iteration's best move first at
the root. Evaluation: material from the FEN, from the side to move's point
of view; checkmate, stalemate and the other rules' ends come from the game
itself (`is_over`, `result`).

    arena run agents/examples/python/xiangqi-alphabeta.toml
"""

import json

import arena.agent

MARGIN_MS = 15.0  # answer this long before the soft limit (40 ms by default)
VALUE = {"r": 900, "n": 400, "c": 450, "a": 200, "b": 200, "p": 100, "k": 0}
MATE = 100000


class OutOfTime(Exception):
    pass


def board_of(s):
    """{(file, rank): piece letter} from the FEN (red upper case, rank 0 = red's back rank)."""
    rows = json.loads(s.to_json())["fen"].split()[0].split("/")
    board = {}
    for i, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 9 - i)] = ch
                f += 1
    return board


def evaluate(s, seat):
    total = 0
    for ch in board_of(s).values():
        v = VALUE[ch.lower()]
        total += v if ch.isupper() else -v
    return total if seat == 0 else -total


def ordered(s, moves):
    board = board_of(s)
    victim = lambda m: VALUE[board.get((ord(m[2]) - 97, int(m[3])), "k").lower()] if (ord(m[2]) - 97, int(m[3])) in board else -1  # noqa: E731
    return sorted(moves, key=victim, reverse=True)


def negamax(s, seat, depth, alpha, beta, ply, timer):
    if s.is_over():
        r = s.result(seat)
        return MATE - ply if r == "win" else -MATE + ply if r == "loss" else 0
    if depth == 0:
        return evaluate(s, seat)
    if timer.remaining_ms() < MARGIN_MS:
        raise OutOfTime
    moves = s.legal_actions(seat)
    if depth > 1:
        moves = ordered(s, moves)
    best = -MATE - 1
    for m in moves:
        t = s.clone()
        t.advance(m)
        v = -negamax(t, 1 - seat, depth - 1, -beta, -alpha, ply + 1, timer)
        if v > best:
            best = v
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return best


def act(state, timer):
    seat = timer.seat
    moves = ordered(state, state.legal_actions(seat))
    best = moves[0]
    depth = 1
    while True:
        alpha, best_here = -MATE - 1, None
        try:
            for m in moves:
                t = state.clone()
                t.advance(m)
                v = -negamax(t, 1 - seat, depth - 1, -MATE - 1, -alpha, 1, timer)
                if best_here is None or v > alpha:
                    alpha, best_here = v, m
        except OutOfTime:
            break
        best = best_here
        moves = [best] + [m for m in moves if m != best]
        if alpha >= MATE - 100 or depth >= 8:
            break
        depth += 1
    return best


arena.agent.run(act)
