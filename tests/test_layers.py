"""The package's layers (docs/architecture.md), checked on the AST of termeval/ (imports inside
functions included): imports point down only, no module or package cycle, no cycle between the
folders inside a package either (termeval/tde and its zrc2020/, zr2015/, seeddoc/: a package's
own modules are the floor its sub-folders build on, and they reach a sub-folder only through a
record naming it), no library module imports the entry points (bin/) or the CLI layer,
argparse only in bin/ and run/, at most 8 modules in the package root."""
from __future__ import annotations

import ast
import collections
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "termeval")

# package -> layer; a package may import its own modules and those of lower layers only
LAYERS = {
    "termeval.core": 0,                                                         # foundation
    "termeval.classes": 1, "termeval.gold": 1, "termeval.bootstrap": 1,           # inputs, engines
    "termeval.report": 1,                                                        # report.html, TextGrids
    "termeval.tde": 2, "termeval.std": 2, "termeval.units": 2,                  # benchmarks
    "termeval.quesst": 3, "termeval.kws": 3, "termeval.segmentation": 3,        # on std's readers
    "termeval.resources": 4, "termeval.textseg": 4,                              # on quesst / segmentation
    "termeval.results": 5,                                  # reads every benchmark's declared tables
    "termeval.run": 6,                                      # driver, plan, launcher, the command line
    "termeval.zrc": 7,                                      # facade: runs a benchmark through the plan
    "termeval.steps": 8,                                    # the declaration: one record per step
    "termeval.api_inputs": 9, "termeval.api": 10,           # the Python API
    "termeval.bin": 11,                                     # entry points
    "termeval": 12, "termeval.command": 12,                 # the package's faces: the API, the command
    "termeval.__main__": 13,                                # python -m termeval: the command
}


def _modules() -> dict[str, str]:
    mods = {}
    for d, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(d, f)
                name = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
                mods[name.removesuffix(".__init__")] = path
    return mods


MODS = _modules()


def _known(name: str) -> str:
    """The module a dotted import name lands in (a package's __init__ or a module)."""
    while name and name not in MODS:
        name = name.rpartition(".")[0]
    return name


def _imports() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = collections.defaultdict(set)
    for mod, path in MODS.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                edges[mod] |= {_known(a.name) for a in node.names if a.name.startswith("termeval")}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = mod.split(".") if path.endswith("__init__.py") else mod.split(".")[:-1]
                    base = ".".join(pkg[:len(pkg) - node.level + 1] + ([base] if base else []))
                if base.startswith("termeval"):
                    edges[mod] |= {_known(f"{base}.{a.name}") if f"{base}.{a.name}" in MODS else _known(base)
                                   for a in node.names}
        edges[mod].discard(mod)
    return edges


EDGES = _imports()


def package(mod: str) -> str:
    """The layer unit of a module: termeval.<first part> (the root modules are their own)."""
    return ".".join(mod.split(".")[:2])


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_package_has_a_layer():
    assert sorted({package(m) for m in MODS} - set(LAYERS)) == []


def test_imports_point_down():
    wrong = [f"{a} -> {b}" for a, bs in EDGES.items() for b in bs
             if package(a) != package(b) and LAYERS[package(b)] >= LAYERS[package(a)]]
    assert wrong == [], "imports that do not point to a lower layer (docs/architecture.md)"


def test_no_module_cycle():
    assert _cycles(EDGES) == []


def test_no_package_cycle():
    graph: dict[str, set[str]] = collections.defaultdict(set)
    for a, bs in EDGES.items():
        graph[package(a)] |= {package(b) for b in bs if package(b) not in (package(a), "termeval")}
    assert _cycles(graph) == []


def folder(mod: str) -> str:
    """The folder a module lies in, as a dotted name (a package's __init__ is in its own)."""
    return mod if MODS[mod].endswith("__init__.py") else mod.rpartition(".")[0]


def test_no_folder_cycle():
    """Folders are layers inside packages too: no cycle between any two folders."""
    graph: dict[str, set[str]] = collections.defaultdict(set)
    for a, bs in EDGES.items():
        graph[folder(a)] |= {folder(b) for b in bs if folder(b) not in (folder(a), "termeval")}
    assert _cycles(graph) == []


def test_sub_folders_import_their_package_not_the_reverse():
    """Inside a package, a module of the package's own folder never imports one of its
    sub-folders (it names them in a record and loads them when scoring); the sub-folders build
    on the package's modules."""
    wrong = [f"{a} -> {b}" for a, bs in EDGES.items() for b in bs
             if a.count(".") >= 2 and folder(b).startswith(folder(a) + ".") and folder(a) != "termeval"]
    assert wrong == []


def test_library_never_imports_the_entry_points_or_the_cli():
    wrong = [f"{a} -> {b}" for a, bs in EDGES.items() for b in bs
             if (b.startswith("termeval.bin") and not a.startswith("termeval.bin"))
             or (b == "termeval.run.cli" and not a.startswith(("termeval.bin", "termeval.run", "termeval.command")))]
    assert wrong == []


def test_argparse_only_in_the_entry_points_and_the_cli_layer():
    users = []
    for mod, path in MODS.items():
        if mod.startswith(("termeval.bin", "termeval.run")):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        if any(isinstance(n, ast.Import) and any(a.name == "argparse" for a in n.names)
               or isinstance(n, ast.ImportFrom) and n.module == "argparse" for n in ast.walk(tree)):
            users.append(mod)
    assert users == []


def test_package_root_is_small():
    root = [m for m in MODS if m.count(".") == 1 and not MODS[m].endswith("__init__.py")]
    assert len(root) <= 8, sorted(root)


@pytest.mark.parametrize("doc", ["docs/architecture.md"])
def test_architecture_doc_names_every_package(doc):
    with open(os.path.join(os.path.dirname(ROOT), doc), encoding="utf-8") as f:
        text = f.read()
    missing = [p for p in sorted({package(m) for m in MODS}) if p != "termeval"
               and f"{p.split('.', 1)[1]}/" not in text and f"{p.split('.', 1)[1]}.py" not in text]
    assert missing == []
    sub = sorted({folder(m) for m in MODS if folder(m).count(".") >= 2})
    assert [f for f in sub if f"{f.split('.', 1)[1].replace('.', '/')}/" not in text] == []
