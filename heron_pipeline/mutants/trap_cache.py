"""The trap-mutant table kept on disk, so a process makes it only when an input changed.

Making the table (``answers.trap_mutant_table``: every question's mutants, the equivalence proofs
that read the profiles, the traps each removes) costs ~12 s of sqlglot work for 100 questions on
this machine, in every ``heron bench``, ``heron audit`` and Dagster ``gold_results`` process, and
it is a pure function of the questions' gold SQL, the catalog and profiles, and the code that
mutates and proves. So it is stored under a key made of exactly those, like the parsed build
inputs (``seeding.prepared``): a changed question, DDL, profile, parser or mutation rule gives a
new key, never a stale table.

JSON, not pickle: the file holds strings only, and a cache directory is no place to load code
from. A file that does not read back as the table it names is ignored and made again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from heron_pipeline.artifacts.atomic import write_atomic
from heron_pipeline.mutants.generate import Mutant

FORMAT = 1
#: The code the table depends on beyond the parse inputs: the mutation rules and the contracts they
#: read from the generator (``seeding.values``, ``seeding.special``, the profiles' loader).
_CODE = ("mutants", "seeding", "scoring/order_spec.py")


def table_key(questions: Iterable[Any], inputs_key: str) -> str:
    """sha256 of the questions' ids and gold SQL, ``inputs_key`` (``seeding.prepared.cache_key``:
    DDL, profiles, parsing code, library versions) and the code listed in ``_CODE``."""
    from heron_pipeline.input_cache import code_digest

    digest = hashlib.sha256(f"format={FORMAT}\0{inputs_key}\0".encode())
    for question in questions:
        digest.update(f"{question.id}\0{question.gold_sql}\0".encode())
    return code_digest(_CODE, digest).hexdigest()


def _encode(table: Mapping[str, list[Mutant]]) -> bytes:
    return json.dumps({"format": FORMAT, "table": {
        qid: [{"operator": m.operator, "description": m.description, "sql": m.sql,
               "equivalent": m.equivalent, "traps": list(m.traps)} for m in found]
        for qid, found in table.items()}}, sort_keys=True, separators=(",", ":")).encode()


def _decode(data: bytes, ids: list[str]) -> dict[str, list[Mutant]] | None:
    try:
        document = json.loads(data)
        if document.get("format") != FORMAT or sorted(document["table"]) != sorted(ids):
            return None
        return {qid: [Mutant(m["operator"], m["description"], m["sql"], m["equivalent"], tuple(m["traps"]))
                      for m in document["table"][qid]] for qid in ids}
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def cached_table(questions: list[Any], inputs_key: str, cache_dir: Path,
                 make: Callable[[], dict[str, list[Mutant]]]) -> dict[str, list[Mutant]]:
    """The table for ``questions``: read from ``cache_dir`` when a file for its key reads back, else
    ``make()`` written there (write-then-rename; a cache that cannot be written is only slower)."""
    path = cache_dir / f"trap-mutants-{table_key(questions, inputs_key)[:32]}.json"
    ids = [q.id for q in questions]
    try:
        table = _decode(path.read_bytes(), ids)
    except OSError:
        table = None
    if table is not None:
        return table
    table = make()
    try:
        write_atomic(path, _encode(table))
    except OSError:
        pass
    return table
