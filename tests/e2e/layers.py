#!/usr/bin/env python3
"""The README's source layout is the tree, the include graph and the meson graph.

The README holds the layers as a block between `<!-- layers -->` markers: one line per
module folder, then the modules it may include (a module's own headers always may), a
module written `output(hist.h stream.h)` limited to those headers. This test checks that
every #include of every source file follows that block, that each folder's meson library
declares as dependencies exactly the modules it includes (so the graph in meson is the
graph in the README), that every source file is named in the README's layout section and
that every file the section names exists."""
import os
import re

from common import SRC, Checks

MARK = "<!-- layers -->"
INCLUDE = re.compile(r'^#include "((?:[a-z_]+/)*)([a-z_0-9]+\.h)"', re.M)
SOURCE_DIRS = ("base", "parser", "jobs", "output", "engine", "pts", "cli")


def readme():
    with open(os.path.join(SRC, "README.md")) as f:
        return f.read()


def layers(text):
    """{module: {module: None (any header) or set of headers}} from the README's block."""
    parts = text.split(MARK)
    if len(parts) != 3:
        return None
    graph = {}
    for line in parts[1].splitlines():
        line = line.strip().strip("`")
        if not line or line.startswith("```"):
            continue
        name, _, rest = line.partition(" ")
        allowed = {}
        for m in re.finditer(r"([a-z_/]+)(?:\(([^)]*)\))?", rest.split("#")[0]):
            allowed[m.group(1)] = set(m.group(2).split()) if m.group(2) else None
        graph[name.rstrip("/")] = allowed
    return graph


def holds(mod, path):
    """Whether module mod holds path: a folder holds what is under it, a top-level name
    such as 'cli' the top-level files cli.* and cli_*, and 'main.c' itself."""
    if "/" not in path and "." not in mod:
        return path.startswith((mod + ".", mod + "_"))
    return path == mod or path.startswith(mod + "/")


def module_of(path, graph):
    """The longest module holding path."""
    best = None
    for mod in graph:
        if holds(mod, path):
            if best is None or len(mod) > len(best):
                best = mod
    return best


def sources():
    out = [n for n in os.listdir(SRC) if n.endswith((".c", ".h"))]
    for top in SOURCE_DIRS:
        for root, _, names in os.walk(os.path.join(SRC, top)):
            for n in names:
                if n.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(root, n), SRC))
    return sorted(out)


def includes(path):
    with open(os.path.join(SRC, path)) as f:
        return INCLUDE.findall(f.read())


def check_includes(c, graph, files):
    for path in files:
        mod = module_of(path, graph)
        c.check(mod is not None, "%s: in no module of the README's layers" % path)
        if mod is None:
            continue
        for folder, header in includes(path):
            target = module_of(folder + header, graph)
            if target == mod or (not folder and header == "config.h"):
                continue
            allowed = graph[mod]
            ok = target in allowed and (allowed[target] is None or header in allowed[target])
            c.check(ok, "%s includes %s%s: %s may not include %s" %
                    (path, folder, header, mod, target))


MESON_DEP = re.compile(r"\b([a-z_]+)_dep\b")
MESON_NAME = {"output/resultset": "resultset", "engine/devices": "devices"}


def meson_owner(mod, graph):
    """The module whose meson.build builds mod: itself or the nearest folder above it."""
    while mod and not os.path.exists(os.path.join(SRC, mod, "meson.build")):
        mod = mod.rpartition("/")[0]
    return mod or None


def check_meson(c, graph, files):
    """Each library declares as dependencies exactly the libraries its files include."""
    dep_of = {mod: MESON_NAME.get(mod, mod.split("/")[0]) for mod in graph}
    owner = {mod: meson_owner(mod, graph) for mod in graph if "/" in mod or
             os.path.isdir(os.path.join(SRC, mod))}
    used = {lib: set() for lib in set(owner.values())}
    for path in files:
        mod = module_of(path, graph)
        if mod not in owner:
            continue
        for folder, header in includes(path):
            target = module_of(folder + header, graph)
            if target in owner and owner[target] != owner[mod]:
                used[owner[mod]].add(dep_of[owner[target]])
    libs = {dep_of[m] for m in used}
    for lib, deps in sorted(used.items()):
        with open(os.path.join(SRC, lib, "meson.build")) as f:
            text = f.read()
        call = re.search(r"static_library\((.*?)\)\n", text, re.S)
        declared = set(MESON_DEP.findall(call.group(1))) if call else set()
        for var in re.findall(r"dependencies: ([a-z_]+_deps)\b", call.group(1) if call else ""):
            listed = re.search(r"%s = \[(.*?)\]" % var, text, re.S)
            declared |= set(MESON_DEP.findall(listed.group(1))) if listed else set()
        declared &= libs
        c.check(deps == declared, "%s/meson.build declares %s; its files include %s" %
                (lib, sorted(declared), sorted(deps)))


def check_named(c, text, files):
    """Every source file is named in the layout section, and every name there exists."""
    section = text.split("## Source layout", 1)[-1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_0-9]+\.[ch])`", section))
    base = {os.path.basename(p) for p in files}
    everywhere = set()
    for root, dirs, names in os.walk(SRC):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        everywhere.update(names)
    for p in files:
        n = os.path.basename(p)
        if n.endswith(".c") or n[:-2] + ".c" not in base:
            c.check(n in named, "README's source layout does not name %s" % p)
    for n in sorted(named - everywhere):
        c.check(False, "README's source layout names %s, which does not exist" % n)


def main():
    c = Checks("layers")
    text = readme()
    graph = layers(text)
    c.check(graph is not None, "README.md has no block between two %s markers" % MARK)
    if graph:
        files = sources()
        check_includes(c, graph, files)
        check_meson(c, graph, files)
        check_named(c, text, files)
    c.finish()


if __name__ == "__main__":
    main()
