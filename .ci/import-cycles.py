#!/usr/bin/env python3
"""Fail when source files of a crate, or its modules, import each other in
a circle.

Usage: import-cycles.py [--edges] CRATE/src [CRATE/src ...]; exit 1 on a
circle. `--edges` also prints every edge between a crate's top-level
modules with the files that make it (`a -> b: file -> file`), to find the
back edges of a circle.

Two checks. Files: no two files import each other, directly or through
others. Modules: at every level of the tree, the children of a module
(each with everything below it) do not import each other in a circle. A
module circle that is known and being taken apart is listed in
`.ci/module-circles.txt` (`CRATE/src: a <-> b <-> c`, sorted): it passes
while it stays exactly as listed; a new circle, a bigger one, or a listed
one that has shrunk or gone (update the list) fails.

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
            # Test modules in files of their own (`tests.rs`, `*_tests.rs`).
            if f.endswith(".rs") and not (f == "tests.rs" or f.endswith("_tests.rs")):
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

    return {r: {t for t in ts if not related(r, t)} for r, ts in edges.items()}, modpath


def module_edges(edges, modpath):
    """The circles' graph one level up: for every module with children,
    its children (each with everything below it) as nodes, an edge where
    some file below one imports some file below another."""
    out = {}
    for r, ts in edges.items():
        pr = modpath(r)
        for t in ts:
            pt = modpath(t)
            # The deepest module containing both; its two children below it.
            n = 0
            while n < min(len(pr), len(pt)) and pr[n] == pt[n]:
                n += 1
            if n < len(pr) and n < len(pt):
                a, b = "/".join(pr[: n + 1]), "/".join(pt[: n + 1])
                out.setdefault(a, set()).add(b)
                out.setdefault(b, set())
    return out


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


KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-circles.txt")
known = set()
if os.path.exists(KNOWN):
    for line in open(KNOWN):
        line = line.split("#")[0].strip()
        if line:
            known.add(line)

args = sys.argv[1:]
show_edges = "--edges" in args
args = [a for a in args if a != "--edges"]

bad = 0
for root in args:
    edges, modpath = graph(root)
    if show_edges:
        for r in sorted(edges):
            for t in sorted(edges[r]):
                a, b = modpath(r)[:1], modpath(t)[:1]
                if a != b:
                    print(f"edge {root}: {'/'.join(a) or '.'} -> {'/'.join(b) or '.'}: {r} -> {t}")
    found = cycles(edges)
    for c in found:
        print(f"import circle in {root}: {' <-> '.join(c)}")
    mods = cycles(module_edges(edges, modpath))
    seen = set()
    for c in mods:
        line = f"{root.rstrip('/')}: {' <-> '.join(c)}"
        seen.add(line)
        if line in known:
            print(f"known module circle (.ci/module-circles.txt), {line}")
        else:
            print(f"module circle in {line}")
            bad += 1
    for line in sorted(k for k in known if k.split(":")[0] == root.rstrip("/")):
        if line not in seen:
            print(f"listed in .ci/module-circles.txt but not found (shrunk or gone: update the list): {line}")
            bad += 1
    bad += len(found)
    print(f"{root}: {len(found)} file circles, {len(mods)} module circles")
sys.exit(1 if bad else 0)
