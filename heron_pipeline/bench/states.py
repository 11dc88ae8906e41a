"""Step 1 — a database state: build (scale, seed) unless an up-to-date one exists, and fingerprint it.

A state's identity is its fingerprint (sha256 over structure and every row) plus the generator
version that made it. Hashing every row takes minutes at the larger scales, so the fingerprint of a
finished database is kept beside its build label (``<artifacts>/states/<scale>_<seed>/<label
hash>.json``) and recomputed only when the database is rebuilt or the label changes: a lookup by
key, never by recency.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.artifacts import ArtifactLayout, write_text_atomic
from heron_pipeline.database.names import benchmark_database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StateResult:
    """One finished benchmark database and what identifies its contents."""

    scale: str
    seed: int
    database: str
    fingerprint: str
    generator_version: str
    build_label: str
    built: bool = False  # this call built it (False: an up-to-date database was reused)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "StateResult":
        return cls(**{k: doc[k] for k in ("scale", "seed", "database", "fingerprint", "generator_version",
                                          "build_label")}, built=bool(doc.get("built", False)))

    @property
    def label(self) -> str:
        return f"{self.scale}_{self.seed}"


def recorded_in_database(server: Any, scale: str, seed: int, label: str) -> str | None:
    """The fingerprint the finished database of (scale, seed) carries beside its build label
    (``seeding.build.database_fingerprint``), or None for a database built before heron recorded it."""
    from heron_pipeline.seeding.build import database_fingerprint

    return database_fingerprint(server, scale, seed, label)


def state_fingerprint(server: Any, artifacts: Path, scale: str, seed: int, label: str, *, recompute: bool = False,
                      taken: str | None = None, say: Callable[[str], None] | None = None) -> str:
    """The fingerprint of the finished database of (scale, seed) built under ``label``; ``taken``
    is one the build just took (``BuildReport.fingerprint``), recorded instead of recomputed.

    The record under the artifact root (``state_fingerprint``) is a copy that anyone holding the
    root, or the shared store, can rewrite: it is never trusted on its own. The database carries the
    fingerprint its build took (``recorded_in_database``); a database built before that is
    fingerprinted once, as the build does, and then carries it. A record that disagrees is named in
    one line (``say``, else heron's notices) and replaced, so the next push repairs the store too."""
    from heron_pipeline.database.fingerprint import fingerprint_database

    path = ArtifactLayout.of(artifacts).state_fingerprint(scale, seed, label)
    recorded = None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and doc.get("build_label") == label and doc.get("fingerprint"):
            recorded = str(doc["fingerprint"])
    except (OSError, ValueError):
        pass  # no record, or a damaged one: the database says
    in_database = None if taken is not None or recompute else recorded_in_database(server, scale, seed, label)
    digest = taken or in_database or fingerprint_database(server.benchmark_dsn(scale, seed)).digest
    if in_database != digest:
        from heron_pipeline.seeding.build import record_fingerprint

        record_fingerprint(server, scale, seed, label, digest)
    if recorded is not None and recorded != digest:
        (say or log.warning)(f"{path} records fingerprint {recorded[:16]}… but {benchmark_database(scale, seed)} is "
                             f"{digest[:16]}…: the record was wrong and is replaced")
    # written again even when it agrees: a store's copy that disagrees (the pull keeps the local one)
    # is then replaced by the push, which sends what a command rewrote
    write_text_atomic(path, json.dumps({"build_label": label, "fingerprint": digest}, sort_keys=True))
    return digest


def build_state(server: Any, artifacts: Path, scale: str, seed: int, *, force: bool = False, workers: int = 2,
                progress: Callable[[str, int, float], None] | None = None,
                say: Callable[[str], None] = lambda _m: None, generate_workers: int | None = None,
                generator: Any = None) -> StateResult:
    """The state (scale, seed), built now unless a finished database with the same build label exists.
    ``generate_workers``: processes making the blocks (None: the default of seeding/fanout.py).
    ``generator``: the caller's ``Generator.for_state(scale, seed)`` if it already made one (planning
    ``small`` takes ~0.4 s, before the build can start)."""
    from heron_pipeline.seeding import GENERATOR_VERSION
    from heron_pipeline.seeding.build import build, build_label, existing_label
    from heron_pipeline.seeding.generate import Generator

    if generator is None or (generator.plan.scale.name, generator.plan.seed) != (scale, seed):
        generator = Generator.for_state(scale, seed)
    label = build_label(generator, scale, seed)
    built, taken = False, None
    if force or existing_label(server, scale, seed) != label:
        report = build(server, scale, seed, workers=workers, generator=generator, progress=progress,
                       generate_workers=generate_workers)
        if report.reused:
            say(f"{report.database} was built by another heron process meanwhile, with this build's label: using it")
        else:
            seconds = sum(report.seconds.values())
            phases = ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
            say(f"built {report.database}: {report.total_rows:,} rows in {len(report.rows)} tables, "
                f"{report.bytes_on_disk / 1e6:,.0f} MB on disk, {seconds:.1f} s ({phases})")
            built, taken = True, report.fingerprint
    else:
        from heron_pipeline.database.state_lock import drop_leftover_build

        dropped = drop_leftover_build(server, scale, seed)  # a killed build's database, if any
        if dropped is not None:
            say(f"dropped heron_build_{scale}_{seed} ({dropped / 1e6:,.0f} MB), left by a build that did not finish")
        say(f"{benchmark_database(scale, seed)} is up to date ({label})")
    fingerprint = state_fingerprint(server, artifacts, scale, seed, label, recompute=built, taken=taken, say=say)
    return StateResult(scale, seed, benchmark_database(scale, seed), fingerprint, GENERATOR_VERSION, label, built)


def load_state_tables(server: Any, artifacts: Path, scale: str, seed: int, *, workers: int = 2,
                      progress: Callable[[str, int, float], None] | None = None) -> dict[str, int]:
    """Dagster's first build step: a fresh build database with every table generated, copied, keyed
    and analyzed — exactly what ``build`` does before its last phase, so both faces build the same
    bytes in the same heap order. Rows per table.

    Each table's rows are hashed as it is handed over, as ``build`` does (``RowDigestsAsLoaded``),
    and the digests are stored under the build database's OID (``build_row_digests``), so that
    ``finish_state``, a separate step and maybe another process, fingerprints the finished
    database without reading every row back. Not in a daemonic process, which may not start the
    digest process: there ``finish_state`` hashes the rows."""
    from heron_pipeline.database.fingerprint import RowDigestsAsLoaded
    from heron_pipeline.seeding.build import build_oid, load_tables, start_build
    from heron_pipeline.seeding.generate import Generator

    generator = Generator.for_state(scale, seed)
    dsn = start_build(server, scale, seed)
    # A daemonic process may not start the digest process (a task in a Celery prefork worker is
    # one): the finish step then hashes every row itself, as it did before the digests were carried.
    row_digests = None if multiprocessing.current_process().daemon else RowDigestsAsLoaded(dsn)
    try:
        rows = load_tables(dsn, generator, list(generator.plan.tables), workers=workers, progress=progress,
                           foreign_keys=True, loaded=row_digests.loaded if row_digests else None)
        known = row_digests.close() if row_digests else {}
    except BaseException:
        if row_digests:
            row_digests.abandon()
        raise
    oid = build_oid(server, scale, seed) if known else None
    if oid is not None:
        document = {table: {"keys": list(row.keys), "digest": row.digest} for table, row in sorted(known.items())}
        write_text_atomic(ArtifactLayout.of(artifacts).build_row_digests(scale, seed, oid),
                          json.dumps({"build_oid": oid, "tables": document}, sort_keys=True))
    return rows


def stored_row_digests(artifacts: Path, scale: str, seed: int, oid: int | None) -> dict[str, Any]:
    """{table: RowDigest} that ``load_state_tables`` stored for the build database of ``oid``; empty
    when there is none or it does not read back (the fingerprint then hashes those tables itself)."""
    from heron_pipeline.database.fingerprint import RowDigest

    if oid is None:
        return {}
    path = ArtifactLayout.of(artifacts).build_row_digests(scale, seed, oid)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("build_oid") != oid:
            return {}
        return {table: RowDigest(tuple(row["keys"]), str(row["digest"]))
                for table, row in document["tables"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def finish_state(server: Any, artifacts: Path, scale: str, seed: int) -> tuple[StateResult, dict[str, Any]]:
    """Dagster's last build step: the remaining foreign keys, label, rename into place, fingerprint
    (with the row digests ``load_state_tables`` stored for this very build database, so only the
    structure and any table without one are read here). Returns the state and what the build did
    (seconds per phase, bytes, rows per table)."""
    import time

    from heron_pipeline.database.fingerprint import fingerprint_database
    from heron_pipeline.seeding import GENERATOR_VERSION
    from heron_pipeline.seeding.build import build_label, build_oid, finish_build
    from heron_pipeline.seeding.generate import Generator

    generator = Generator.for_state(scale, seed)
    oid = build_oid(server, scale, seed)  # the rename keeps it: the stored digests are this build's
    stored = None if oid is None else ArtifactLayout.of(artifacts).build_row_digests(scale, seed, oid)
    known = stored_row_digests(artifacts, scale, seed, oid)
    seconds, size = finish_build(server, generator, scale, seed)
    label = build_label(generator, scale, seed)
    started = time.perf_counter()
    taken = fingerprint_database(server.benchmark_dsn(scale, seed), known=known).digest
    seconds["fingerprint"] = time.perf_counter() - started
    fingerprint = state_fingerprint(server, artifacts, scale, seed, label, taken=taken)
    if stored is not None:
        stored.unlink(missing_ok=True)  # used up: the next build has another OID
    state = StateResult(scale, seed, benchmark_database(scale, seed), fingerprint, GENERATOR_VERSION, label, True)
    counts = {t: tp.total for t, tp in generator.plan.tables.items()}
    return state, {"seconds": {k: round(v, 2) for k, v in seconds.items()}, "bytes_on_disk": size,
                   "rows_per_table": counts, "rows": sum(counts.values()),
                   "row_digests_reused": sum(1 for t in known if t in counts)}


def existing_state(server: Any, artifacts: Path, scale: str, seed: int) -> StateResult:
    """The finished state (scale, seed) as it is, without building; ValueError naming the fix when missing
    or built by another generator, DDL or profile version."""
    from heron_pipeline.seeding import GENERATOR_VERSION
    from heron_pipeline.seeding.build import build_label, existing_label
    from heron_pipeline.seeding.generate import Generator

    database = benchmark_database(scale, seed)
    found = existing_label(server, scale, seed)
    if found is None:
        raise ValueError(f"{database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
    label = build_label(Generator.for_state(scale, seed), scale, seed)
    if found != label:
        raise ValueError(f"{database} was built by {found!r}, not {label!r}; "
                         f"run `heron seed --scale {scale} --seed {seed} --force`")
    fingerprint = state_fingerprint(server, artifacts, scale, seed, label)
    return StateResult(scale, seed, database, fingerprint, GENERATOR_VERSION, label, False)
