"""heron_pipeline's import graph: no cycle, no private name across modules, no Dagster in the core.

Shared machinery sits below the modules that use it (sqlglot's ``optimizer/scope.py`` under its
rules): an import cycle is a module that both uses and is used by another, and ``from x import
_name`` is a helper that should have been moved down and made public. The graph is read from the
source with ``ast`` alone (nothing is imported), so a lazy import inside a function counts as much
as one at the top of a file: it is the same dependency, only paid later.

How the graph is built:

* every ``import a.b``, ``from a import b`` and relative import, at any depth (functions, ``if
  TYPE_CHECKING``, ``if __name__ == "__main__"``) is an edge to the module it names; so is every
  full module name spelled as a string in a module that calls ``__import__`` or
  ``importlib.import_module`` (a registry's table of factories, a lazy package face);
* ``from pkg import name`` goes to ``pkg.name`` when that is a module, and to the module that
  defines ``name`` when ``pkg/__init__.py`` only re-exports it (``from .mod import name``, or a
  lazy ``{"name": "pkg.mod"}`` table): a package's face does not create false cycles;
* a private name is ``_x`` (not ``__x__``) taken from another module: ``from m import _x`` or
  ``m._x`` on a name bound to a module.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PACKAGE = "heron_pipeline"
PACKAGE_DIR = Path(__file__).resolve().parents[2] / PACKAGE

#: The Dagster layer: the only modules that may import dagster (and the only ones the core may not import).
DAGSTER_LAYER = (f"{PACKAGE}.defs", f"{PACKAGE}.definitions")


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` imports ``target`` at ``line`` of its file, for ``names``."""

    source: str
    target: str
    line: int
    names: tuple[str, ...]


@dataclass
class ImportGraph:
    """Modules (dotted name → file), the edges between them, and the imports they make outside the package."""

    root: Path
    files: dict[str, Path] = field(repr=False)
    edges: list[Edge] = field(default_factory=list, repr=False)
    private: list[Edge] = field(default_factory=list, repr=False)
    external: list[Edge] = field(default_factory=list, repr=False)

    def where(self, edge: Edge) -> str:
        return f"{self.files[edge.source].relative_to(self.root.parent)}:{edge.line}"


def module_files(package_dir: Path) -> dict[str, Path]:
    """Dotted module name → file, for every .py file of the package (``pkg/__init__.py`` is ``pkg``)."""
    files = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path
    return files


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


class _Resolver:
    """Module names as the import system finds them, with a package's re-exports followed."""

    def __init__(self, files: dict[str, Path]):
        self.files = files
        self.trees = {m: ast.parse(p.read_text(), filename=str(p)) for m, p in files.items()}
        self._reexports: dict[str, dict[str, str]] = {}

    def is_package(self, module: str) -> bool:
        return self.files[module].name == "__init__.py"

    def absolute(self, module: str, level: int, name: str | None) -> str:
        """The absolute module a (possibly relative) ``from`` names, seen from ``module``."""
        if level == 0:
            return name or ""
        base = module.split(".") if self.is_package(module) else module.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    def known(self, dotted: str) -> str | None:
        """The longest prefix of ``dotted`` that is a module of the package, or None."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in self.files:
                return ".".join(parts[:end])
        return None

    def reexports(self, package: str) -> dict[str, str]:
        """Names a package's ``__init__`` takes from its modules: name → the module that defines it."""
        if package not in self._reexports:
            table: dict[str, str] = {}
            for node in self.trees[package].body:
                if isinstance(node, ast.ImportFrom):
                    source = self.absolute(package, node.level, node.module)
                    if source in self.files:
                        for alias in node.names:
                            table[alias.asname or alias.name] = source
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                    # a lazy face: {"Name": "pkg.module", ...} looked up by a module __getattr__
                    for key, value in zip(node.value.keys, node.value.values):
                        if (isinstance(key, ast.Constant) and isinstance(key.value, str)
                                and isinstance(value, ast.Constant) and value.value in self.files):
                            table[key.value] = value.value
            self._reexports[package] = table
        return self._reexports[package]

    def defining_module(self, module: str, name: str) -> str:
        """Where ``from module import name`` really leads: the submodule, or the module behind a re-export."""
        seen = set()
        while module not in seen:
            seen.add(module)
            if f"{module}.{name}" in self.files:
                return f"{module}.{name}"
            if not self.is_package(module):
                return module
            source = self.reexports(module).get(name)
            if source is None:
                return module
            module = source
        return module


def _is_import_call(node: ast.AST) -> bool:
    """``__import__(...)`` or ``importlib.import_module(...)``, whatever the argument."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id in ("__import__", "import_module")) or (
        isinstance(func, ast.Attribute) and func.attr == "import_module")


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` → ["a", "b", "c"]; None for anything that is not a plain attribute chain."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def build_graph(package_dir: Path) -> ImportGraph:
    """The import graph of every module under ``package_dir`` (see the module docstring)."""
    files = module_files(package_dir)
    resolver = _Resolver(files)
    graph = ImportGraph(package_dir, files)
    top = package_dir.name
    for module, tree in resolver.trees.items():
        bound: dict[str, str] = {}  # a local name → the package module it is bound to

        def add(target: str, line: int, names: tuple[str, ...]) -> None:
            if target != module:
                graph.edges.append(Edge(module, target, line, names))

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = resolver.known(alias.name) if alias.name.split(".")[0] == top else None
                    if target is None:
                        graph.external.append(Edge(module, alias.name, node.lineno, ()))
                        continue
                    add(target, node.lineno, ())
                    if alias.asname:
                        bound[alias.asname] = target
                    else:
                        bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                source = resolver.absolute(module, node.level, node.module)
                if source.split(".")[0] != top or source not in files:
                    graph.external.append(Edge(module, source, node.lineno, tuple(a.name for a in node.names)))
                    continue
                for alias in node.names:
                    target = resolver.defining_module(source, alias.name)
                    add(target, node.lineno, (alias.name,))
                    if f"{source}.{alias.name}" in files:
                        bound[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif _is_private(alias.name) and target != module:
                        graph.private.append(Edge(module, target, node.lineno, (alias.name,)))
        # A module that imports by name (a registry, a lazy face) imports every module whose full
        # name it spells as a string, wherever the string is (an argument, a table of factories).
        if any(_is_import_call(node) for node in ast.walk(tree)):
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in files:
                    add(node.value, node.lineno, (f"{node.value} (dynamic)",))
        # m._x where m is bound to another module of the package (import a.b.c, then a.b.c._x)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                chain = _dotted(node.value)
                if chain is None or chain[0] not in bound:
                    continue
                owner = ".".join([bound[chain[0]], *chain[1:]])
                if owner in files and owner != module:
                    graph.private.append(Edge(module, owner, node.lineno, (node.attr,)))
    return graph


def strongly_connected(nodes: list[str], edges: list[Edge]) -> list[list[str]]:
    """The components of the graph with more than one module (Tarjan), each sorted, in a stable order."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for e in edges:
        succ[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return sorted(found)


def cycles(graph: ImportGraph) -> list[list[str]]:
    return strongly_connected(list(graph.files), graph.edges)


def describe_cycles(graph: ImportGraph) -> str:
    """Each cycle as its modules and the imports that join them (file:line, names)."""
    lines = []
    for component in cycles(graph):
        members = set(component)
        lines.append(f"cycle of {len(component)}: {', '.join(component)}")
        for e in sorted(graph.edges, key=lambda e: (e.source, e.line)):
            if e.source in members and e.target in members:
                lines.append(f"    {graph.where(e)}: {e.source} -> {e.target} ({', '.join(e.names) or 'import'})")
    return "\n".join(lines)


def describe_private(graph: ImportGraph) -> str:
    return "\n".join(f"{graph.where(e)}: {e.source} takes {', '.join(e.names)} from {e.target}"
                     for e in sorted(graph.private, key=lambda e: (e.source, e.line)))


def in_dagster_layer(module: str, layer: tuple[str, ...] = DAGSTER_LAYER) -> bool:
    return any(module == top or module.startswith(top + ".") for top in layer)


def dagster_in_core(graph: ImportGraph, layer: tuple[str, ...] = DAGSTER_LAYER) -> list[str]:
    """Core modules that import dagster (or a dagster-* library) or a module of the Dagster layer."""
    found = []
    for e in graph.external:
        if not in_dagster_layer(e.source, layer) and e.target.split(".")[0].startswith("dagster"):
            found.append(f"{graph.where(e)}: {e.source} imports {e.target}")
    for e in graph.edges:
        if not in_dagster_layer(e.source, layer) and in_dagster_layer(e.target, layer):
            found.append(f"{graph.where(e)}: {e.source} imports {e.target}")
    return sorted(found)


# -- heron_pipeline itself ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def heron_graph() -> ImportGraph:
    return build_graph(PACKAGE_DIR)


def test_no_import_cycle(heron_graph):
    found = cycles(heron_graph)
    assert not found, f"{len(found)} import cycle(s); move the shared names below both sides:\n" + describe_cycles(
        heron_graph)


def test_no_private_name_across_modules(heron_graph):
    assert not heron_graph.private, (f"{len(heron_graph.private)} private name(s) imported across modules; make "
                                     f"the helper public in a module below its users:\n" + describe_private(heron_graph))


def test_core_never_imports_dagster(heron_graph):
    found = dagster_in_core(heron_graph)
    assert not found, "the core imports Dagster (only defs/ and definitions.py may):\n" + "\n".join(found)


def test_the_graph_sees_the_package(heron_graph):
    """A guard on the guard: the graph reads the real tree (the walk found modules and known edges)."""
    assert len(heron_graph.files) > 100
    pairs = {(e.source, e.target) for e in heron_graph.edges}
    assert ("heron_pipeline.mutants", "heron_pipeline.mutants.generate") in pairs  # relative, in an __init__
    assert any(s == "heron_pipeline.definitions" and t.startswith("heron_pipeline.defs.") for s, t in pairs)
    assert any(in_dagster_layer(e.source) and e.target.startswith("dagster") for e in heron_graph.external)


# -- the graph builder on small hand-made packages -------------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def _pairs(graph: ImportGraph) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in graph.edges}


def test_lazy_import_inside_a_function_makes_a_cycle(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg.b import helper\n",
        "b.py": "def helper():\n    from pkg.a import thing\n    return thing\n",
    })
    graph = build_graph(root)
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    assert "pkg/b.py:2: pkg.b -> pkg.a (thing)" in describe_cycles(graph)


def test_a_package_face_does_not_make_a_false_cycle(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "sub/__init__.py": "from .low import low_name\nfrom pkg.sub.high import high_name\n",
        "sub/low.py": "X = 1\ndef low_name(): return X\n",
        "sub/high.py": "from pkg.sub import low_name\ndef high_name(): return low_name()\n",
    })
    graph = build_graph(root)
    assert cycles(graph) == []
    assert ("pkg.sub.high", "pkg.sub.low") in _pairs(graph)
    assert ("pkg.sub", "pkg.sub.low") in _pairs(graph)  # relative import in an __init__


def test_a_name_defined_in_the_face_itself_is_an_edge_to_it(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "sub/__init__.py": "from pkg.sub.high import high_name\nVERSION = '1'\n",
        "sub/high.py": "from pkg.sub import VERSION\ndef high_name(): return VERSION\n",
    })
    assert cycles(build_graph(root)) == [["pkg.sub", "pkg.sub.high"]]


def test_lazy_face_table_is_followed(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "cat/__init__.py": "_EXPORTS = {'load': 'pkg.cat.ddl'}\ndef __getattr__(name): ...\n",
        "cat/ddl.py": "def load(): ...\n",
        "user.py": "from pkg.cat import load\n",
    })
    assert ("pkg.user", "pkg.cat.ddl") in _pairs(build_graph(root))


def test_relative_and_dynamic_imports_resolve(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "sub/__init__.py": "",
        "sub/a.py": "from . import b\nfrom ..top import T\nfrom .b import B\n",
        "sub/b.py": "B = 1\ndef f():\n    return __import__('pkg.top', fromlist=['T']).T\n",
        "top.py": "import importlib\nT = 1\ndef g():\n    return importlib.import_module('pkg.sub.a')\n",
    })
    graph = build_graph(root)
    assert {("pkg.sub.a", "pkg.sub.b"), ("pkg.sub.a", "pkg.top"), ("pkg.sub.b", "pkg.top"),
            ("pkg.top", "pkg.sub.a")} <= _pairs(graph)
    assert cycles(graph) == [["pkg.sub.a", "pkg.sub.b", "pkg.top"]]


def test_module_names_a_registry_imports_by_string_are_edges(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "registry.py": "import importlib\n"
                       "def factory(module):\n    return lambda: importlib.import_module(module)\n"
                       "TOOLS = {'raw': factory('pkg.raw')}\nLABEL = 'pkg.other'\n",
        "raw.py": "from pkg.registry import TOOLS\n",
        "other.py": "",
        "plain.py": "NAME = 'pkg.other'\n",  # a string alone, in a module that imports nothing by name
    })
    graph = build_graph(root)
    assert {("pkg.registry", "pkg.raw"), ("pkg.registry", "pkg.other")} <= _pairs(graph)
    assert ("pkg.plain", "pkg.other") not in _pairs(graph)
    assert cycles(graph) == [["pkg.raw", "pkg.registry"]]


def test_private_names_across_modules(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "def _helper(): ...\nclass Public: ...\n",
        "b.py": "from __future__ import annotations\nfrom pkg.a import _helper, Public\n",
        "c.py": "import pkg.a\nfrom pkg import a as alias\n"
                "def f():\n    return pkg.a._helper(), alias._helper(), alias.__name__\n",
        "d.py": "def _own(): ...\ndef g():\n    from pkg.d import _own as again\n    return again\n",
    })
    graph = build_graph(root)
    assert sorted((e.source, e.line, e.names) for e in graph.private) == [
        ("pkg.b", 2, ("_helper",)), ("pkg.c", 4, ("_helper",)), ("pkg.c", 4, ("_helper",))]
    assert "pkg/b.py:2: pkg.b takes _helper from pkg.a" in describe_private(graph)


def test_dagster_in_the_core_is_found(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "defs/__init__.py": "import dagster\n",
        "definitions.py": "from dagster import Definitions\nfrom pkg.defs import x\n",
        "core.py": "def f():\n    import dagster_postgres\n",
        "face.py": "from pkg.defs import thing\n",
    })
    assert dagster_in_core(build_graph(root), ("pkg.defs", "pkg.definitions")) == [
        "pkg/core.py:2: pkg.core imports dagster_postgres", "pkg/face.py:1: pkg.face imports pkg.defs"]
