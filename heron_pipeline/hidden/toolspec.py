"""``tool.toml``: how heron runs a submitted tool on a draw nobody has seen.

A submission's SQL answers the public draw; a runnable submission also says how to produce SQL for
any draw, so the hidden evaluation can ask the tool questions it has never seen. Two protocols:

``cli`` — the ``cli`` adapter's protocol (one JSON request on stdin, SQL or a JSON object on stdout,
examples/cli/README.md), with how the command is installed, exactly one of::

    protocol = "cli"
    command = "python3 answer.py"      # split like a shell would, run without one
    path = "tool"                      # a folder of the submission: the command's working directory
    # or
    requirement = "my-tool==1.4.2"     # a pinned requirement line, installed into a fresh venv

``llm`` — one of heron's LLM adapters with the board's one model at temperature 0::

    protocol = "llm"
    adapter = "raw-llm"
    model = "gpt-4o"
    temperature = 0.0

The static check (``check_tool_spec``) reads the file through ``read_submission_file`` (a regular
file, at most ``TOOL_SPEC_LIMIT`` bytes), refuses unknown keys, a path or a command word that leaves
the folder, an unpinned requirement, an adapter heron does not have, and a model or temperature
the board does not allow. A submission without ``tool.toml`` stays an SQL-only submission: valid
for the public draw, shown as "public draw only — not checked".
"""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heron_pipeline.submissions.files import FileRefused, read_submission_file, stays_inside

TOOL_FILE = "tool.toml"
TOOL_SPEC_LIMIT = 16 * 1024
PROTOCOLS = ("cli", "llm")
KEYS = {"cli": {"protocol", "command", "path", "requirement"},
        "llm": {"protocol", "adapter", "model", "temperature"}}
#: ``name==version`` (optionally with extras): the only requirement line heron installs.
PINNED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?==[A-Za-z0-9][A-Za-z0-9.+!_-]*$")


@dataclass(frozen=True)
class ToolSpec:
    """A checked ``tool.toml``. ``path`` is relative to the submission folder."""

    protocol: str
    command: str | None = None
    path: str | None = None
    requirement: str | None = None
    adapter: str | None = None
    model: str | None = None
    temperature: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class ToolSpecError(ValueError):
    """``tool.toml`` is not runnable: ``code`` is the verdict's reason code, the message one line."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _llm_adapters() -> list[str]:
    from heron_pipeline.adapters.registry import adapter_spec, tool_names

    return [n for n in tool_names() if adapter_spec(n).needs_llm]


def parse_tool_spec(text: str, folder: Path | None = None, *, board_model: str | None = None) -> ToolSpec:
    """The spec of ``text`` (the file's content). ToolSpecError (code + one line) when it cannot run."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: not TOML ({err})") from None
    protocol = doc.get("protocol")
    if protocol not in PROTOCOLS:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: protocol must be one of {', '.join(PROTOCOLS)}, "
                                         f"got {protocol!r}")
    unknown = sorted(set(doc) - KEYS[protocol])
    if unknown:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: key(s) {', '.join(unknown)} do not belong to protocol "
                                         f"{protocol!r} (its keys: {', '.join(sorted(KEYS[protocol]))})")
    if protocol == "cli":
        return _cli_spec(doc, folder)
    return _llm_spec(doc, board_model)


def _cli_spec(doc: dict[str, Any], folder: Path | None) -> ToolSpec:
    command, path, requirement = doc.get("command"), doc.get("path"), doc.get("requirement")
    if not isinstance(command, str) or not command.strip():
        raise ToolSpecError("malformed", f"{TOOL_FILE}: command must be a non-empty string")
    try:
        words = shlex.split(command)
    except ValueError as err:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: command cannot be split into words ({err})") from None
    if (path is None) == (requirement is None):
        raise ToolSpecError("malformed", f"{TOOL_FILE}: give exactly one of path (a folder of the submission) "
                                         f"or requirement (a pinned line such as my-tool==1.0)")
    if requirement is not None and (not isinstance(requirement, str) or not PINNED.match(requirement)):
        raise ToolSpecError("malformed", f"{TOOL_FILE}: requirement must be pinned as name==version "
                                         f"(got {str(requirement)[:80]!r})")
    if path is not None:
        if not isinstance(path, str) or not path or Path(path).is_absolute():
            raise ToolSpecError("malformed", f"{TOOL_FILE}: path must be a folder of the submission, relative "
                                             f"to it (got {str(path)[:80]!r})")
        if folder is not None:
            where = Path(folder) / path
            if not stays_inside(Path(folder), where) or where.is_symlink() or not where.is_dir():
                raise ToolSpecError("malformed", f"{TOOL_FILE}: path {path!r} is not a folder inside the "
                                                 f"submission")
    for word in words:
        if "/" in word or word.startswith(".."):
            base = Path(folder or ".") / (path or ".")
            if Path(word).is_absolute() or (folder is not None and not stays_inside(Path(folder), base / word)):
                raise ToolSpecError("malformed", f"{TOOL_FILE}: command word {word[:80]!r} leaves the submission "
                                                 f"folder; name files relative to path")
    return ToolSpec("cli", command=command, path=path, requirement=requirement)


def _llm_spec(doc: dict[str, Any], board_model: str | None) -> ToolSpec:
    adapter, model, temperature = doc.get("adapter"), doc.get("model"), doc.get("temperature")
    known = _llm_adapters()
    if adapter not in known:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: adapter must be one of heron's LLM adapters "
                                         f"({', '.join(known)}), got {adapter!r}")
    if not isinstance(model, str) or not model:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: model must be a non-empty string")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
        raise ToolSpecError("malformed", f"{TOOL_FILE}: temperature must be a number")
    if board_model is not None and model != board_model:
        raise ToolSpecError("model", f"{TOOL_FILE}: model {model!r} is not the board's model {board_model!r}")
    if float(temperature) != 0.0:
        raise ToolSpecError("model", f"{TOOL_FILE}: temperature must be 0 on the board, got {temperature}")
    return ToolSpec("llm", adapter=adapter, model=model, temperature=float(temperature))


def read_tool_spec(folder: Path, *, board_model: str | None = None) -> ToolSpec | None:
    """The checked spec of ``folder/tool.toml``; None when the folder has none (an SQL-only submission)."""
    try:
        raw = read_submission_file(Path(folder), TOOL_FILE, TOOL_SPEC_LIMIT)
    except FileNotFoundError:
        return None
    except FileRefused as err:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: {err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolSpecError("malformed", f"{TOOL_FILE}: not UTF-8 text") from None
    return parse_tool_spec(text, Path(folder), board_model=board_model)


def render_tool_spec(spec: ToolSpec) -> str:
    """``tool.toml``'s text for ``spec`` (``heron submit --runnable`` writes it)."""
    lines = ["# How heron runs this tool on a hidden draw (docs/METHODOLOGY.md, section 16).",
             f"protocol = {_toml(spec.protocol)}"]
    for key in ("command", "path", "requirement", "adapter", "model", "temperature"):
        value = getattr(spec, key)
        if value is not None:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


#: A runnable submission's tool folder: at most this many regular files and bytes in all.
TOOL_TREE_FILES, TOOL_TREE_BYTES = 2_000, 64 * 1024 * 1024


def tool_files(folder: Path, path: str) -> list[tuple[str, bytes]]:
    """(name relative to the submission, bytes) of every file of the tool folder ``path``, in name order.
    ToolSpecError for a link, a device or FIFO, or a folder over its bounds: a stranger's folder is
    read as bounded regular files only, like the submission's own files."""
    import os
    import stat

    root = Path(folder) / path
    found: list[tuple[str, bytes]] = []
    total = 0
    for here, dirs, files in os.walk(root, followlinks=False):
        for name in sorted(dirs + files):
            full = Path(here) / name
            mode = os.lstat(full).st_mode
            if stat.S_ISLNK(mode):
                raise ToolSpecError("malformed", f"{TOOL_FILE}: {full.relative_to(folder)} is a symbolic link; "
                                                 f"commit the file itself")
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise ToolSpecError("malformed", f"{TOOL_FILE}: {full.relative_to(folder)} is not a regular file")
        dirs.sort()
        for name in sorted(files):
            full = Path(here) / name
            relative = str(full.relative_to(folder))
            data = read_submission_file(full.parent, name, TOOL_TREE_BYTES - total + 1)
            total += len(data)
            found.append((relative, data))
            if len(found) > TOOL_TREE_FILES or total > TOOL_TREE_BYTES:
                raise ToolSpecError("malformed", f"{TOOL_FILE}: path {path!r} holds more than {TOOL_TREE_FILES} "
                                                 f"files or {TOOL_TREE_BYTES // (1024 * 1024)} MiB")
    return sorted(found)


def runnable_digest_parts(folder: Path) -> list[tuple[str, bytes]]:
    """What a runnable submission adds to its digest: tool.toml and its tool folder's files (nothing for
    an SQL-only folder, so an SQL-only submission keeps the digest it always had)."""
    try:
        raw = read_submission_file(Path(folder), TOOL_FILE, TOOL_SPEC_LIMIT)
    except FileNotFoundError:
        return []
    except (FileRefused, OSError):
        return [(TOOL_FILE, b"<refused>")]
    parts = [(TOOL_FILE, raw)]
    try:
        spec = parse_tool_spec(raw.decode("utf-8"), Path(folder))
        if spec.path:
            parts += tool_files(Path(folder), spec.path)
    except (ToolSpecError, UnicodeDecodeError, OSError, FileRefused):
        parts.append(("<tool folder>", b"<refused>"))
    return parts
