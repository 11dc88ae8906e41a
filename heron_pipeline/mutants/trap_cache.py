"""Each question's trap mutants kept per gold SQL, on disk and in memory, so a process makes them
only for a gold it has not seen.

Generating a question's mutants (``generate.mutants``: every single-change mutant, the equivalence
proofs that read the profiles, the traps each removes) is sqlglot work, ~0.1 s a question on this
machine, and two steps of every audit need them: the trap-mutant table (``answers.trap_mutant_table``,
whose answers ``trap:<tag>`` causes are read from) and the trap-liveness proofs
(``liveness.prove_questions``). They are a pure function of the gold SQL, the catalog and profiles,
and the code that mutates and proves, so they are stored under a key made of exactly those: a
changed DDL, profile, parser or mutation rule gives a new key, never stale mutants.

Per question, not per question set: a drawn instance set redrawn after a failed audit changes a few
questions' gold, and a hidden night draws a new set every date. With one key per set, each redraw
made all 100 questions' mutants again (twice: table and proofs; 69 of the 113 s of a tiny audit with
four redraws); keyed per gold, a redraw makes only the redrawn questions'.

What is stored is every mutant that removes some trap (``answers.trap_candidates``), equivalent or
not: the table keeps the non-equivalent ones, the proofs count the equivalent ones as set aside.

JSON, not pickle: the file holds strings only, and a cache directory is no place to load code
from. A file that does not read back as the mutants its key names is ignored and made again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable

from heron_pipeline.artifacts.atomic import write_atomic
from heron_pipeline.mutants.generate import Mutant

FORMAT = 2
#: The code the mutants depend on beyond the parse inputs: the mutation rules and the contracts they
#: read from the generator (``seeding.values``, ``seeding.special``, the profiles' loader).
_CODE = ("mutants", "seeding", "scoring/order_spec.py")
#: key -> the candidates made or read in this process (a gold is often asked for by both steps)
_MEMORY: dict[str, tuple[Mutant, ...]] = {}


def source_key(inputs_key: str) -> str:
    """sha256 of ``inputs_key`` (``seeding.prepared.cache_key``: DDL, profiles, parsing code, library
    versions) and the code listed in ``_CODE``: what every question's key starts from."""
    from heron_pipeline.input_cache import code_digest

    return code_digest(_CODE, hashlib.sha256(f"format={FORMAT}\0{inputs_key}\0".encode())).hexdigest()


def question_key(gold_sql: str, source: str) -> str:
    """The key of one gold SQL's mutants under ``source`` (``source_key``)."""
    return hashlib.sha256(f"{source}\0{gold_sql}".encode()).hexdigest()


def _encode(gold_sql: str, found: Iterable[Mutant]) -> bytes:
    return json.dumps({"format": FORMAT, "gold_sql": gold_sql, "mutants": [
        {"operator": m.operator, "description": m.description, "sql": m.sql, "equivalent": m.equivalent,
         "traps": list(m.traps)} for m in found]}, sort_keys=True, separators=(",", ":")).encode()


def _decode(data: bytes, gold_sql: str) -> tuple[Mutant, ...] | None:
    try:
        document = json.loads(data)
        if document.get("format") != FORMAT or document.get("gold_sql") != gold_sql:
            return None
        return tuple(Mutant(m["operator"], m["description"], m["sql"], m["equivalent"], tuple(m["traps"]))
                     for m in document["mutants"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def cached_candidates(gold_sql: str, source: str, cache_dir: Path,
                      make: Callable[[str], list[Mutant]]) -> list[Mutant]:
    """The trap candidates of ``gold_sql``: from this process's memory, else from ``cache_dir`` when its
    file reads back, else ``make(gold_sql)`` written there (write-then-rename; a cache that cannot be
    written is only slower)."""
    key = question_key(gold_sql, source)
    found = _MEMORY.get(key)
    if found is None:
        path = Path(cache_dir) / "trap-mutants" / f"{key[:32]}.json"
        try:
            found = _decode(path.read_bytes(), gold_sql)
        except OSError:
            found = None
        if found is None:
            found = tuple(make(gold_sql))
            try:
                write_atomic(path, _encode(gold_sql, found))
            except OSError:
                pass
        _MEMORY[key] = found
    return list(found)


def cached_table(questions: Iterable[Any], source: str, cache_dir: Path,
                 make: Callable[[str], list[Mutant]]) -> dict[str, list[Mutant]]:
    """question id -> its trap mutants (the candidates not set aside as equivalent), each question's
    candidates through ``cached_candidates``: ``answers.trap_mutant_table``, made once per gold."""
    return {q.id: [m for m in cached_candidates(q.gold_sql, source, cache_dir, make) if m.equivalent is None]
            for q in questions}
