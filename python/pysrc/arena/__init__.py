"""arena's games for Python: the Rust rules themselves, as a forward model.

    import arena
    s = arena.load("bait", "0")          # a built-in level, a level file, or level text
    s.legal_actions()                    # ['LEFT', 'RIGHT', 'DOWN', 'UP']
    t = s.clone(); t.advance("UP")       # one-player and alternating games: one name
    t.tick(), t.is_over(), t.score(), t.result()
    t.to_json()                          # the `state` the harness sends (arena-jsonl/2)

Two-player simultaneous games (Snake) take a joint action, one name per seat:
``s.advance(["D0", "D2"])``. ``State`` objects hash and compare by position,
so they go into sets and dicts (visited sets, transposition tables).

``arena.agent.run(act)`` runs the arena-jsonl/2 protocol loop for an agent
written as ``def act(state, timer): return name``. ``arena.PROTOCOL`` is
the protocol version whose views ``to_json`` gives (``"arena-jsonl/2"``:
every position ``[row, column]``).
"""

from ._native import PROTOCOL, State, games, load

__all__ = ["PROTOCOL", "State", "games", "load", "agent"]


def __getattr__(name):
    # `arena.agent` without an explicit `import arena.agent`.
    if name == "agent":
        import importlib

        return importlib.import_module(".agent", __name__)
    raise AttributeError(name)
