"""No module but ``heron_pipeline/artifacts/`` decides a path under the artifact root or writes a file
by renaming it into place: read with ``ast``, every other module must ask the layout and write through
``artifacts.atomic``. A failure lists file:line and what was found there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "heron_pipeline"
OWN = PACKAGE / "artifacts"

#: Writing a partial file and renaming it, by hand.
RENAMING_CALLS = {("os", "replace"), ("os", "rename"), ("shutil", "move"), ("tempfile", "mkstemp")}
PARTIAL_NAME = re.compile(r"tmp|temp|partial", re.IGNORECASE)
TMP_TEXT = re.compile(r"\.tmp\b")


def _names_the_root(node: ast.AST) -> bool:
    """``artifacts``, ``settings.artifacts``, ``artifact_dir``, ``Path(artifacts)`` and the like."""
    if isinstance(node, ast.Name):
        return "artifact" in node.id.lower()
    if isinstance(node, ast.Attribute):
        return "artifact" in node.attr.lower()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Path", "PurePath"):
        return bool(node.args) and _names_the_root(node.args[0])
    return False


def _leftmost(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        node = node.left
    return node


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def findings(source: str) -> list[tuple[int, str]]:
    """(line, what) for every hand-built path under the root and every hand-written rename in ``source``."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    inner = {id(node.left) for node in ast.walk(tree) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and id(node) not in inner
                and _names_the_root(_leftmost(node))):
            found.append((node.lineno, f"path built under the artifact root: {ast.unparse(node)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if isinstance(func.value, ast.Name) and (func.value.id, func.attr) in RENAMING_CALLS:
                found.append((node.lineno, f"{func.value.id}.{func.attr}: write through artifacts.atomic"))
            elif (func.attr in ("replace", "rename") and len(node.args) == 1 and not node.keywords
                  and isinstance(func.value, ast.Name) and PARTIAL_NAME.search(func.value.id)):
                found.append((node.lineno, f"{ast.unparse(node)}: write through artifacts.atomic"))
            elif func.attr in ("glob", "rglob", "iterdir") and _names_the_root(func.value):
                found.append((node.lineno, f"{ast.unparse(node)}: list the root through the layout"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and TMP_TEXT.search(node.value)):
            found.append((node.lineno, f"a .tmp file by hand ({node.value!r}): write through artifacts.atomic"))
    return sorted(set(found))


def scan(package: Path = PACKAGE) -> dict[str, list[tuple[int, str]]]:
    """relative file -> its findings, for every module of ``package`` outside ``artifacts/``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        if path.is_relative_to(package / "artifacts"):
            continue
        found = findings(path.read_text(encoding="utf-8"))
        if found:
            out[path.relative_to(package.parent).as_posix()] = found
    return out


def test_no_module_builds_a_path_under_the_root_or_renames_by_hand() -> None:
    found = scan()
    assert not found, "\n" + "\n".join(f"{file}:{line}: {what}" for file, hits in found.items() for line, what in hits)


# -- the scanner itself catches what it is meant to (a scanner that finds nothing passes anything) ----
CAUGHT = [
    'p = settings.artifacts / "dumps"',
    'p = artifacts / "runs" / name',
    'p = Path(artifacts) / "scores" / tool',
    'p = Path(self.artifact_dir) / "x"',
    'os.replace(tmp, path)',
    'fd, tmp = tempfile.mkstemp(dir=folder)',
    'partial.replace(path)',
    'partial = path.with_suffix(".tmp")',
    'partial = path.with_suffix(f".{os.getpid()}.tmp")',
    'paths = sorted((Path(artifacts) / "runs").glob("*.json"))',
    'paths = artifacts.glob("*.json")',
]
LEFT_ALONE = [
    'p = ArtifactLayout(settings.artifacts).dumps()',
    'p = out / name',
    'p = self.data_dir / "artifacts"',  # where the root itself is decided (config)
    'node.replace(other)',  # sqlglot
    'text = "a.b".replace(".", "_")',
    'def f():\n    """Writes a .tmp file? No: through artifacts.atomic."""',
]


def test_the_scanner_catches_each_hand_written_form() -> None:
    for line in CAUGHT:
        assert findings(line), line
    for line in LEFT_ALONE:
        assert not findings(line), line
