"""Where every artifact lives under the artifact root, named by what it is (like Dagster's IO managers).

The artifact root (``Settings.artifacts``, ``<data_dir>/artifacts`` by default) holds every file
heron's steps write: states' fingerprints, gold, audits, predictions, scores, standings,
the local leaderboard, run manifests, verdicts, dumps and the LLM response cache. This module is the
one place that turns an artifact's identity (kind, scale, seed, tool, question mode, digest or key)
into a path: no other module joins a name onto the root, renames a file into place or lists a folder
of the root (a test reads every module to keep it so). A later storage other than a local folder
then changes this module and ``artifacts.atomic``, not every step.

``KINDS`` says the same thing as data: one pattern per kind, relative to the root. ``{digest}`` is
the sha256 of the file's bytes (content-addressed: never rewritten), ``{key}`` the sha256 of what a
record is about (an audit's states and questions, a verdict's inputs, an LLM request).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One kind of artifact: its name (the ``ArtifactLayout`` method of the same name), its path
    pattern relative to the artifact root, and what it holds."""

    name: str
    pattern: str
    holds: str
    #: what only this machine can use (never pushed to a shared store)
    machine_local: bool = False

    @property
    def fields(self) -> list[str]:
        return re.findall(r"{(\w+)}", self.pattern)


KINDS: tuple[Kind, ...] = (
    Kind("state_fingerprint", "states/{scale}_{seed}/{label_key}.json",
         "a finished database's fingerprint beside its build label (label_key: sha256 of the label, 32 hex)"),
    Kind("build_row_digests", "states/{scale}_{seed}/row_digests/{build_oid}.json",
         "each table's row digest taken while Dagster's load step built the database of this OID "
         "(the finish step's fingerprint reads them instead of hashing every row again)"),
    Kind("gold", "gold/{scale}_{seed}/{digest}.json", "one state's gold results"),
    Kind("mutant_answers", "mutant_answers/{scale}_{seed}/{digest}.json",
         "one state's answers of every question's trap mutants not set aside as equivalent (trap:<tag> causes)"),
    Kind("audits", "audits/{scale}/{digest}.json", "an audit verdict over a scale's states"),
    Kind("audit_pointer", "audits/{scale}/{key}.ref.json",
         "the ref of the verdict recorded for exactly these states and questions"),
    Kind("predictions", "predictions/{tool}/{scale}/{mode}/{digest}.jsonl", "one tool's predictions"),
    Kind("submission_predictions", "submissions/predictions/{scale}/{mode}/{digest}.jsonl",
         "a submission's predictions while it is verified"),
    Kind("scores", "scores/{tool}/{scale}_{seed}/{mode}/{digest}.jsonl", "one tool's scores on one state"),
    Kind("standings", "standings/{scale}/{mode}/{digest}.json", "the standings of a scale and question mode"),
    Kind("leaderboard", "results/leaderboard.{suffix}", "the local leaderboard (the latest publish, a convenience)"),
    Kind("leaderboard_copy", "results/by_digest/{digest}.{suffix}",
         "the local leaderboard file a run wrote, by its digest (what its manifest names)"),
    Kind("boards_index", "results/boards.json",
         "the standings each local board shows, derived from the board entries (a local rendering)"),
    Kind("board_entry", "results/boards/{digest}.json",
         "one publish of one board: its standings (relative ref), when, and the entries it replaces"),
    Kind("runs", "runs/{digest}.json", "a bench run: options, harness version, every artifact"),
    Kind("verdict", "verdicts/{key}.json", "a submission's verdict, reused while its inputs are unchanged"),
    Kind("dumps", "dumps/heron_{scale}_{seed}.sql.gz", "a reproducible dump of one state (and its .sha256)"),
    Kind("llm_cache", "llm_cache/{prefix}/{key}.json", "one LLM response (prefix: the key's first 2 hex)"),
    Kind("tool_install", "tools/{key}/.installed",
         "a runnable submission's pinned requirement installed in its own venv beside this marker "
         "(key: sha256 of the requirement line, 24 hex)", machine_local=True),
)

KIND_NAMES = {kind.name: kind for kind in KINDS}

#: Top folders of the root that hold what only this machine can use (an installed tool's venv has
#: this machine's interpreter paths in it): never pushed to a shared store.
MACHINE_LOCAL = frozenset(kind.pattern.split("/", 1)[0] for kind in KINDS if kind.machine_local)


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A kind's pattern as a regex over relative paths: ``{digest}`` is exactly 64 hex (so only a
    content-addressed name matches it), any other field one path segment's worth of characters."""
    parts = re.split(r"({\w+})", pattern)
    regex = "".join(f"(?P<{part[1:-1]}>[0-9a-f]{{64}})" if part == "{digest}"
                    else f"(?P<{part[1:-1]}>[^/]+?)" if part.startswith("{") else re.escape(part)
                    for part in parts)
    return re.compile(f"^{regex}$")


_KIND_REGEXES = tuple((kind, _pattern_regex(kind.pattern)) for kind in KINDS)


def kind_of(relative: str) -> tuple[Kind, dict[str, str]] | None:
    """The kind of a path relative to the artifact root and its fields, or None for a file no kind
    names (a dump's ``.sha256``, a gold's timings). A content-addressed match has a ``digest`` field
    that the file's bytes must hash to (the object store checks it on every copy)."""
    for kind, regex in _KIND_REGEXES:
        found = regex.match(relative)
        if found:
            return kind, found.groupdict()
    return None


def anchored(recorded: str | Path, root: "Path | str") -> Path:
    """A recorded artifact path read under ``root``: a relative one joined onto it; an absolute one
    (written before references were relative, or on another machine) re-rooted at its shortest
    tail that is an artifact path (``kind_of``), so a copied or moved root reads its own files and
    never the original's. An absolute path with no such tail is returned as it is."""
    path = Path(recorded)
    if not path.is_absolute():
        return Path(root) / path
    parts = path.parts
    for start in range(len(parts) - 1, 0, -1):
        tail = "/".join(parts[start:])
        if kind_of(tail) is not None:
            return Path(root) / tail
    return path


def relative_to_root(path: Path | str, root: "Path | str") -> str:
    """``path`` relative to ``root`` (POSIX separators) when it lies under it, else ``path`` itself."""
    try:
        return Path(path).relative_to(Path(root)).as_posix()
    except ValueError:
        return str(path)


def label_key(label: str) -> str:
    """The 32-hex name of a build label's fingerprint file."""
    return hashlib.sha256(label.encode("utf-8")).hexdigest()[:32]


def llm_cache_entry(directory: Path, key: str) -> Path:
    """One response of the LLM cache in ``directory`` (``<artifacts>/llm_cache`` or HERON_LLM_CACHE_DIR):
    two hex characters of fan-out keep a folder from holding every entry."""
    return Path(directory) / key[:2] / f"{key}.json"


class ArtifactLayout:
    """The paths of every artifact kind under one root; see ``KINDS``.

    A method whose kind's file is named by its writer returns the folder: content-addressed kinds
    (``{digest}``, named by ``artifacts.atomic.write_content_addressed``), the dumps (named by
    ``database.dump.dump_name``) and the LLM cache (``llm_cache_entry``)."""

    def __init__(self, root: Path | str):
        self.root = Path(root)

    @classmethod
    def of(cls, root: "ArtifactLayout | Path | str") -> "ArtifactLayout":
        """``root`` itself when it is a layout, else the layout of that folder."""
        return root if isinstance(root, ArtifactLayout) else cls(root)

    def __repr__(self) -> str:
        return f"ArtifactLayout({str(self.root)!r})"

    # -- the patterns -------------------------------------------------------------------------------
    def path(self, kind: str, **fields: Any) -> Path:
        """The file of ``kind`` with every field of its pattern given."""
        return self.root / KIND_NAMES[kind].pattern.format(**fields)

    def folder(self, kind: str, **fields: Any) -> Path:
        """The folder of ``kind`` (its pattern up to the file name) with the folder's fields given."""
        head = KIND_NAMES[kind].pattern.rsplit("/", 1)[0]
        return self.root / head.format(**fields)

    # -- one method per kind ------------------------------------------------------------------------
    def state_fingerprint(self, scale: str, seed: int, label: str) -> Path:
        return self.path("state_fingerprint", scale=scale, seed=seed, label_key=label_key(label))

    def build_row_digests(self, scale: str, seed: int, build_oid: int) -> Path:
        return self.path("build_row_digests", scale=scale, seed=seed, build_oid=build_oid)

    def gold(self, scale: str, seed: int) -> Path:
        return self.folder("gold", scale=scale, seed=seed)

    def mutant_answers(self, scale: str, seed: int) -> Path:
        return self.folder("mutant_answers", scale=scale, seed=seed)

    def audits(self, scale: str) -> Path:
        return self.folder("audits", scale=scale)

    def audit_pointer(self, scale: str, key: str) -> Path:
        return self.path("audit_pointer", scale=scale, key=key)

    def predictions(self, tool: str, scale: str, mode: str) -> Path:
        return self.folder("predictions", tool=tool, scale=scale, mode=mode)

    def submission_predictions(self, scale: str, mode: str) -> Path:
        return self.folder("submission_predictions", scale=scale, mode=mode)

    def scores(self, tool: str, scale: str, seed: int, mode: str) -> Path:
        return self.folder("scores", tool=tool, scale=scale, seed=seed, mode=mode)

    def standings(self, scale: str, mode: str) -> Path:
        return self.folder("standings", scale=scale, mode=mode)

    def leaderboard(self, suffix: str) -> Path:
        return self.path("leaderboard", suffix=suffix)

    def leaderboard_copy(self) -> Path:
        return self.folder("leaderboard_copy")

    def results(self) -> Path:
        """The local results folder (the friendly leaderboard files and the boards index)."""
        return self.folder("leaderboard")

    def boards_index(self) -> Path:
        return self.path("boards_index")

    def board_entry(self) -> Path:
        return self.folder("board_entry")

    def board_entry_files(self) -> list[Path]:
        """Every board entry, in name order (their content says which board and what they replace)."""
        return sorted(self.board_entry().glob("*.json"))

    def runs(self) -> Path:
        return self.folder("runs")

    def run_manifests(self) -> list[Path]:
        """Every stored run manifest, in name order (their content says which run is which)."""
        return sorted(self.runs().glob("*.json"))

    def verdict(self, key: str) -> Path:
        return self.path("verdict", key=key)

    def dumps(self) -> Path:
        """The default folder of ``heron dump`` (``--out`` may name another; the dump names its files)."""
        return self.folder("dumps")

    def tool_install(self, key: str) -> Path:
        """The folder of one installed tool requirement (its venv and its ``.installed`` marker)."""
        return self.folder("tool_install", key=key)

    def llm_cache(self) -> Path:
        """The default LLM response cache folder (HERON_LLM_CACHE_DIR wins when set)."""
        return self.root / KIND_NAMES["llm_cache"].pattern.split("/", 1)[0]
