#!/usr/bin/env python3
"""Fail when source files of a crate import each other in a circle.

Usage: import-cycles.py CRATE/src [CRATE/src ...]; exit 1 on a circle.

Edges are `crate::`, `super::` and `self::` paths (in `use` items and inline),
resolved to the module file they name; test modules are ignored, and so are
a module's edges to its own ancestors and descendants; a parent's
`use child::X` re-exports count as its edges to other modules."""
import os
import re
import sys


def graph(root):
    files = {}
    for dp, _, fs in os.walk(root):
        for f in fs:
            if f.endswith(".rs"):
                p = os.path.join(dp, f)
                files[os.path.relpath(p, root)] = open(p).read()

    def modpath(rel):
        parts = rel[:-3].split("/")
        return parts[:-1] if parts[-1] in ("mod", "lib", "main") else parts

    mods = {tuple(modpath(r)): r for r in files}

    # Names a module re-exports from its children: `pub use child::{a, b}`.
    exports = {}
    for r, src in files.items():
        me = modpath(r)
        for m in re.finditer(r"pub use ([a-z_]\w*)::(\{[^}]*\}|[A-Za-z_]\w*)", src):
            child = tuple(me + [m.group(1)])
            if child not in mods:
                continue
            for name in m.group(2).strip("{}").split(","):
                name = name.strip().split(" as ")[-1].split("::")[-1].strip()
                if name:
                    exports[(r, name)] = mods[child]

    def resolve(parts):
        for k in range(len(parts), -1, -1):
            if tuple(parts[:k]) in mods:
                t = mods[tuple(parts[:k])]
                seen = set()
                while k < len(parts) and (t, parts[k]) in exports and t not in seen:
                    seen.add(t)
                    t = exports[(t, parts[k])]
                return t
        return None

    edges = {r: set() for r in files}
    for r, src in files.items():
        src = re.split(r"#\[cfg\(test\)\]\s*mod tests", src)[0]
        src = re.sub(r"//[^\n]*", "", src)
        me = modpath(r)
        bases = {"crate": [], "super": me[:-1], "self": me}
        for m in re.finditer(r"\b(crate|super|self)((?:::[A-Za-z_]\w*)+)", src):
            t = resolve(bases[m.group(1)] + m.group(2).split("::")[1:])
            if t and t != r:
                edges[r].add(t)
        # `use child::...` / `pub use child::...` of a module's own children.
        for m in re.finditer(r"\buse ([a-z_]\w*)::", src):
            if m.group(1) not in ("crate", "super", "self", "std", "core", "alloc"):
                t = mods.get(tuple(me + [m.group(1)]))
                if t and t != r:
                    edges[r].add(t)
        for m in re.finditer(r"\b(crate|super|self)((?:::\w+)*)::\{([^}]*)\}", src):
            prefix = bases[m.group(1)] + [p for p in m.group(2).split("::") if p]
            for item in m.group(3).split(","):
                item = [p.strip() for p in item.split(" as ")[0].split("::")]
                if item[0] and item[0] != "self":
                    t = resolve(prefix + item)
                    if t and t != r:
                        edges[r].add(t)
    # A module and its own ancestors or descendants are one unit (a parent
    # re-exports its children, children use their parent's types): only
    # circles between modules where neither contains the other count.
    def related(a, b):
        pa, pb = modpath(a), modpath(b)
        n = min(len(pa), len(pb))
        return pa[:n] == pb[:n]

    return {r: {t for t in ts if not related(r, t)} for r, ts in edges.items()}


def cycles(edges):
    sys.setrecursionlimit(10000)
    idx, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        idx[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in idx:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in idx:
            visit(v)
    return out


bad = 0
for root in sys.argv[1:]:
    found = cycles(graph(root))
    for c in found:
        print(f"import circle in {root}: {' <-> '.join(c)}")
    bad += len(found)
    print(f"{root}: {len(found)} import circles")
sys.exit(1 if bad else 0)
