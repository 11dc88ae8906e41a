"""Build ``heron_<scale>_<seed>`` from nothing, crash-safely.

Everything happens in ``heron_build_<scale>_<seed>``: phase 1's schemas and types, then per table,
in one loader transaction, its CREATE TABLE (so with ``wal_level=minimal`` the COPY skips the WAL
and its rows arrive frozen), its COPY, primary key, unique keys and indexes, then ANALYZE; each
foreign key is added, validated, as soon as both of its tables are loaded, and those left at the
end in parallel. Only a complete database is renamed to its final name, so a build killed at any
point leaves nothing a later run could mistake for a finished one; the next run drops the
leftover and starts again. ``build`` holds the state's advisory lock (database/state_lock.py)
throughout, so two builds of one state never share the build database.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import psycopg
from psycopg import sql

from heron_pipeline.database.fingerprint import RowDigest, RowDigestsAsLoaded, fingerprint_database
from heron_pipeline.database.names import (BUILD_FOREIGN_KEYS, BUILD_LOADER, BUILD_OTHER, benchmark_database,
                                           build_database)
from heron_pipeline.database.server import Server
from heron_pipeline.database.state_lock import drop_unfinished, state_lock
from heron_pipeline.seeding import GENERATOR_VERSION
from heron_pipeline.seeding.copy_binary import SIGNATURE, TRAILER
from heron_pipeline.seeding.fanout import DEFAULT_GENERATE_WORKERS, BlockFanout
from heron_pipeline.seeding.generate import Generator

log = logging.getLogger(__name__)

#: Called after each table with (table, rows, seconds); the CLI draws progress bars with it.
Progress = Callable[[str, int, float], None]


@dataclass
class BuildReport:
    scale: str
    seed: int
    database: str
    rows: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # phase -> seconds
    bytes_on_disk: int = 0
    #: True when this call waited for another build of the state and used its result (same
    #: build label) instead of building again.
    reused: bool = False
    #: The finished database's fingerprint (database/fingerprint.py), its rows hashed while the
    #: build went on; None when the build did not take it (a reused state).
    fingerprint: str | None = None

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())


def table_statements() -> dict[str, list[str]]:
    """Per table, the phase-2 statements that concern it alone, in step order: primary key,
    unique keys, indexes. Foreign keys are not among them: they need other tables' keys."""
    from heron_pipeline.seeding.prepared import load_prepared

    prepared = load_prepared()
    keys: dict[str, list[str]] = {}
    for step in TABLE_STEPS:
        for statement in prepared.steps[step]:
            keys.setdefault(prepared.statement_table[statement], []).append(statement)
    return keys


#: Phase-2 steps that touch one table only, so the loader runs them right after the table's COPY.
TABLE_STEPS = ("primary_key", "unique", "index")


@dataclass(frozen=True)
class TableScripts:
    """What the loader sends for each table besides its rows, each as one script (one round
    trip): ``create`` drops and creates it (phase 1); ``keys`` builds its keys and indexes (empty
    when the loader leaves them to ``apply_keys``). Made once per load: reading the prepared
    cache hashes every input file, too slow to repeat for each of ~40 batches."""

    create: dict[str, str]
    keys: dict[str, str]
    analyze: bool  # with the keys: ANALYZE after the commit


def table_scripts(keys: bool = True) -> TableScripts:
    from heron_pipeline.seeding.prepared import load_prepared

    # DROP ... IF EXISTS: a load repeated into the same build database (a re-run Dagster asset)
    # starts from an empty table, as the TRUNCATE of generator 2.0 did; without CASCADE, so a
    # table something already references fails the load loudly instead of losing a key.
    create = {t: f"DROP TABLE IF EXISTS {t};\n{script}" for t, script in load_prepared().table_ddl.items()}
    return TableScripts(create, {t: ";\n".join(s) for t, s in table_statements().items()} if keys else {}, keys)


def _copy_tables(conn: psycopg.Connection, generator: Generator, tables: list[str],
                 batch_blocks: int, scripts: TableScripts,
                 fanout: BlockFanout | None = None) -> list[tuple[str, int, float]]:
    """``tables`` in one transaction on ``conn``: each is created (its phase-1 CREATE TABLE and
    comments) in this very transaction, so that its COPY ... FREEZE skips the WAL and writes
    frozen rows, then filled by one binary COPY (seeding/copy_binary.py). Several small tables
    share a transaction, since a commit costs more than a tiny table's rows; each table's bytes
    and row order stay the same.

    Creating the table here rather than truncating one made beforehand (generator 2.0) saves
    three files per table — a TRUNCATE gives the heap, its TOAST table and TOAST index new files
    and unlinks the old ones — and on ext4 creating files soon after many were deleted spends its
    time skipping the recently freed inodes (perf: a quarter of the server's CPU in a ``tiny``
    build with the TRUNCATEs, as much again after a database was just dropped); it also spreads
    phase 1 over the loaders.

    With keys (``table_scripts(keys=True)``), each table's primary key, unique keys and indexes
    are built right after its COPY, in the same transaction (one round trip for all of them), and
    the tables analysed just after the commit, in one statement: their pages are still in shared
    buffers, the index files skip the WAL like the heap and are synced by the same commit, and
    this work overlaps the other loaders' generation instead of waiting for the slowest table.
    The end state is the one phase 2 gives.

    The rows go a block at a time (``Generator.table_copy``); with ``fanout`` they come in chunks of
    ``batch_blocks`` blocks made by its worker processes, in the same order and bytes."""
    started = time.perf_counter()
    for table in tables:
        conn.execute(scripts.create[table])
        with conn.cursor().copy(sql.SQL("COPY {} FROM STDIN (FORMAT binary, FREEZE)").format(
                sql.Identifier(*table.split(".")))) as copy:
            copy.write(SIGNATURE)
            chunks = (fanout.table_copy(table, batch_blocks) if fanout is not None
                      else generator.table_copy(table))
            for chunk in chunks:
                copy.write(chunk)
            copy.write(TRAILER)
        if scripts.keys.get(table):
            conn.execute(index_workers_statement(generator.plan.tables[table].total) + scripts.keys[table])
    if scripts.analyze:
        # ANALYZE after the commit, in a transaction of its own: inside the loading transaction
        # the table's insert count reaches the statistics only at commit, after ANALYZE reset it,
        # so autovacuum would analyse every table a second time during the build. Forcing the
        # flush at the commit makes the count land before ANALYZE, which then zeroes it.
        conn.execute("SELECT pg_stat_force_next_flush() "  # superuser-only unless granted
                     "WHERE has_function_privilege('pg_stat_force_next_flush()', 'EXECUTE')")
        conn.commit()
        conn.execute(analyze_statement(tables))
    conn.commit()
    seconds = (time.perf_counter() - started) / len(tables)
    return [(table, generator.plan.tables[table].total, seconds) for table in tables]


#: The statistics target of the build's ANALYZE (PostgreSQL's default is 100): it samples 300 rows
#: per unit and sorts every sampled value of every column, and at 100 that was a quarter of the
#: server's CPU in a ``small`` build (10.7-14.1 s of ~50 s; issue 21, measured with
#: ``benchmarks/bench_seed_build.py``). Statistics are no part of any fingerprint or dump (the fingerprint
#: reads the catalog's structure and the rows; ``heron dump`` passes ``--no-statistics``) and the
#: sample is random anyway, so only the planner's estimates change: MCV lists and histograms of up
#: to 30 entries from up to 9,000 sampled rows instead of 100 from 30,000. Applied per ANALYZE
#: statement (``SET LOCAL``), so a later manual or automatic ANALYZE uses the server's own default.
BUILD_STATISTICS_TARGET = 30


def analyze_statement(tables: list[str]) -> str:
    """One script that analyses ``tables`` at ``BUILD_STATISTICS_TARGET``: the ``SET LOCAL`` holds
    for this transaction only (an explicit one, or the implicit one of a multi-statement query)."""
    return f"SET LOCAL default_statistics_target = {BUILD_STATISTICS_TARGET};\nANALYZE " + ", ".join(tables)


#: Tables under this many rows get their keys and indexes built by the loader's backend alone. The
#: loaders already keep the cores busy, one build each; a parallel build of a mid-sized table
#: (PostgreSQL plans one from 8 MB of heap) forks its workers, has them sort their share and
#: merges it, which at ``small`` cost more CPU than it saved (the indexes of the tables above
#: 20,000 rows: 6.9-8.4 s of server CPU with 2 workers, 5.2-5.5 s with none; 123 worker
#: processes in one build). Larger tables keep the server's setting: a lone long build at the end
#: of a large load is where the workers shorten the wall. The index built is the same either way.
SERIAL_INDEX_ROWS = 1_000_000


def index_workers_statement(rows: int) -> str:
    """The ``SET LOCAL`` that opens a table's keys script: no parallel workers below
    ``SERIAL_INDEX_ROWS`` rows, the server's default from there (stated each time, since several
    small tables share a transaction)."""
    value = "0" if rows < SERIAL_INDEX_ROWS else "DEFAULT"
    return f"SET LOCAL max_parallel_maintenance_workers = {value};\n"


#: Tables up to this many rows are loaded several to a transaction, up to this many rows in all.
SMALL_TABLE_ROWS = 5_000
SMALL_BATCH_ROWS = 20_000


def _run_batches(dsn: str, statements: list[tuple[str, str]], workers: int,
                 rows: Callable[[str], int] | None = None) -> None:
    """Run (table, statement) pairs on ``workers`` connections, one transaction per connection.

    All statements of a table go to the same connection, so no two transactions ever wait for
    each other's tables; one commit per connection means one sync of the new files instead of one
    per index (with wal_level=minimal, index builds skip the WAL and are synced at commit).
    Tables are dealt largest job first to the least loaded connection, a job weighing the
    table's ``rows`` times its statements: dealt alphabetically, one connection at ``bench`` was
    left validating ``orders.order_lines`` alone for most of the 73 s the foreign keys took.
    """
    by_table: dict[str, list[str]] = {}
    for table, statement in statements:
        by_table.setdefault(table, []).append(statement)
    weight = {t: (1 + (rows(t) if rows else 0)) * len(s) for t, s in by_table.items()}
    batches: list[list[str]] = [[] for _ in range(max(1, workers))]
    loads = [0] * len(batches)
    for table in sorted(by_table, key=lambda t: (-weight[t], t)):
        lightest = loads.index(min(loads))
        batches[lightest].extend(by_table[table])
        loads[lightest] += weight[table]

    def run(batch: list[str]) -> None:
        with psycopg.connect(dsn, autocommit=False, application_name=BUILD_OTHER) as conn:
            for statement in batch:
                conn.execute(statement)
            conn.commit()

    with ThreadPoolExecutor(max_workers=len(batches)) as pool:
        for future in [pool.submit(run, b) for b in batches if b]:
            future.result()


def _run_each(dsn: str, statements: list[str], workers: int) -> None:
    """Run statements that take only weak locks (VALIDATE, ANALYZE) in parallel, each on its own."""
    def run(chunk: list[str]) -> None:
        with psycopg.connect(dsn, autocommit=True, application_name=BUILD_OTHER) as conn:
            for statement in chunk:
                conn.execute(statement)

    chunks = [statements[i::workers] for i in range(max(1, workers))]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        for future in [pool.submit(run, c) for c in chunks if c]:
            future.result()


def apply_keys(dsn: str, generator: Generator, workers: int, *, table_keys: bool = True) -> None:
    """Phase 2 after the load: keys and indexes in parallel batches (unless ``table_keys`` is
    False: the loader built them with each table); the foreign keys not already there (the
    loader adds most while it loads, see ``_ForeignKeysAsLoaded``) added NOT VALID in one short
    transaction, then validated in parallel, grouped by table (see below), so FK checks on shared
    parents cannot deadlock. The statements come parsed from the prepared cache."""
    from heron_pipeline.seeding.prepared import load_prepared

    prepared = load_prepared()
    steps, table_of = prepared.steps, prepared.statement_table

    def rows(table: str) -> int:
        return generator.plan.tables[table].total

    if table_keys:
        for step in ("primary_key", "unique"):
            _run_batches(dsn, [(table_of[s], s) for s in steps[step]], workers, rows)
    with psycopg.connect(dsn, autocommit=False, application_name=BUILD_OTHER) as conn:
        # Those the loader already added (``load_tables(foreign_keys=True)``) are left alone.
        present = {(table, name) for table, name in conn.execute(
            "SELECT n.nspname || '.' || c.relname, k.conname FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f'").fetchall()}
        missing = [fk for fk in generator.catalog.foreign_keys if (fk.table, fk.name) not in present]
        names = {(fk.table, fk.name) for fk in missing}
        for statement in steps["foreign_key"]:
            if (table_of[statement], _constraint_name(statement)) in names:
                conn.execute(statement + " NOT VALID")
        conn.commit()
    # All of a table's validations on one connection, one transaction per connection: VALIDATE
    # locks its own table SHARE UPDATE EXCLUSIVE (self-conflicting) and the referenced one ROW
    # SHARE, so with tables split between connections no two transactions wait for each other.
    validations = [(fk.table, f"ALTER TABLE {fk.table} VALIDATE CONSTRAINT {fk.name}") for fk in missing]
    _run_batches(dsn, validations, workers, rows)
    if table_keys:
        _run_batches(dsn, [(table_of[s], s) for s in steps["index"]], workers, rows)
    with psycopg.connect(dsn, autocommit=True, application_name=BUILD_OTHER) as conn:
        for statement in steps["comment"]:
            conn.execute(statement)


_CONSTRAINT = re.compile(r"\bADD\s+CONSTRAINT\s+(\w+)", re.IGNORECASE)


def _constraint_name(statement: str) -> str:
    return _CONSTRAINT.search(statement).group(1)  # type: ignore[union-attr]


#: When the load is over, the foreign-key thread still adds those of tables up to this many rows
#: (one statement per table, fast); the keys of larger tables are left to ``apply_keys``, which
#: validates them on several connections.
FK_DRAIN_ROWS = 100_000


class _ForeignKeysAsLoaded:
    """Adds each foreign key, validated, as soon as its table and the table it references are
    both loaded, on a connection of its own, while the loaders go on with other tables.

    At ``tiny`` the 958 foreign keys are ~1 s of server time, mostly per-statement costs
    (catalog rows, four triggers, one validation query each); as a phase of their own after the
    load they are wall time, during the load they fill the gaps the loaders leave. It cannot
    block or deadlock a loader: a table is handed over only after its loader committed and
    analysed it, and no loader touches a finished table again. One thread (two adding keys to
    tables with a common parent could deadlock on its SHARE ROW EXCLUSIVE lock), one ``ALTER
    TABLE`` per child table with all its ready keys, each statement its own transaction. When the
    loaders are done, ``close`` lets it finish the tables up to ``FK_DRAIN_ROWS`` rows and stop;
    ``apply_keys`` adds the rest (NOT VALID, then validated in parallel)."""

    def __init__(self, dsn: str, tables: list[str], rows: dict[str, int]):
        from heron_pipeline.seeding.prepared import load_prepared

        prepared = load_prepared()
        loading = set(tables)
        self.pending: dict[str, list[tuple[str, str]]] = {}  # child -> [(parent, ADD clause)]
        for statement in prepared.steps["foreign_key"]:
            child, parent = prepared.statement_table[statement], prepared.fk_parent[statement]
            if child in loading and parent in loading:
                clause = statement[_CONSTRAINT.search(statement).start():]  # type: ignore[union-attr]
                self.pending.setdefault(child, []).append((parent, clause))
        self.dsn, self.rows, self.done = dsn, rows, set()
        self.closing = self.abandoned = False
        self.error: BaseException | None = None
        self.inbox: queue.Queue[list[str] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="heron-foreign-keys", daemon=True)
        self.thread.start()

    def loaded(self, tables: list[str]) -> None:
        self.inbox.put(list(tables))

    def close(self) -> None:
        """Finish the small tables' keys, stop; raise what failed, if anything did."""
        self.closing = True
        self.inbox.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error

    def abandon(self) -> None:
        """The load failed: stop after the statement in flight, whatever it did."""
        self.closing = self.abandoned = True
        self.inbox.put(None)
        self.thread.join()

    def _run(self) -> None:
        try:
            with psycopg.connect(self.dsn, autocommit=True, application_name=BUILD_FOREIGN_KEYS) as conn:
                while True:
                    item = self.inbox.get()
                    if item is not None:
                        self.done.update(item)
                    for child in sorted(self.pending, key=lambda t: (self.rows.get(t, 0), t)):
                        if self.abandoned:
                            return
                        if child not in self.done or (self.closing and self.rows.get(child, 0) > FK_DRAIN_ROWS):
                            continue
                        ready = [clause for parent, clause in self.pending[child] if parent in self.done]
                        if ready:
                            conn.execute(f"ALTER TABLE {child} " + ", ".join(ready))
                            left = [(p, c) for p, c in self.pending[child] if p not in self.done]
                            if left:
                                self.pending[child] = left
                            else:
                                del self.pending[child]
                    if item is None:
                        return
        except BaseException as err:  # re-raised by close() in the loading thread
            self.error = err


def load_order(generator: Generator, tables: list[str]) -> list[str]:
    """Small tables that foreign keys reference first (tenants, users, reference data: a few ms
    each), so that keys can be added while the rest loads; then the rest, largest first, so the
    workers finish together. The order changes no byte: each table is one COPY of its blocks."""
    from heron_pipeline.seeding.prepared import load_prepared

    referenced = set(load_prepared().fk_parent.values())
    rows = {t: generator.plan.tables[t].total for t in tables}
    return sorted(tables, key=lambda t: (not (t in referenced and rows[t] <= SMALL_TABLE_ROWS), -rows[t], t))


def start_build(server: Server, scale: str, seed: int) -> str:
    """A fresh ``heron_build_<scale>_<seed>`` holding phase 1's schemas and types; returns its DSN.
    The tables themselves are created by their loaders (see ``_copy_tables``)."""
    from heron_pipeline.seeding.prepared import load_prepared

    building = build_database(scale, seed)
    drop_unfinished(server, building)  # a killed build's leftover: said on stderr, then gone
    server.create_database(building)
    dsn = server.dsn(building)
    with psycopg.connect(dsn, autocommit=False, application_name=BUILD_OTHER) as conn:
        conn.execute(load_prepared().prelude)
        conn.commit()
    return dsn


#: From this many rows on, tables are generated in worker processes instead of threads. Since
#: generator 2.0 makes one block per 65,536 rows of a table (not per tenant), a block's time is
#: numpy/polars kernels that release the GIL, and the loader's own keys and ANALYZE run in the
#: server: at ``small`` two threads beat two spawned processes (~20 s against 24–29 s, the spawn
#: and the per-process plan costing ~1.5 s each), so only ``bench`` and up use processes.
PROCESS_ROWS = 20_000_000

_PROCESS_STATE: dict[str, tuple[tuple[str, str, int, bool], Generator, psycopg.Connection, TableScripts]] = {}


def _copy_tables_in_process(dsn: str, scale: str, seed: int, tables: list[str],
                            batch_blocks: int, keys: bool) -> list[tuple[str, int, float]]:
    """Worker-process side: one generator and one connection per process, reused across tables."""
    key = (dsn, scale, seed, keys)
    state = _PROCESS_STATE.get("state")
    if state is None or state[0] != key:
        if state is not None:
            state[2].close()
        conn = psycopg.connect(dsn, autocommit=False, application_name=BUILD_LOADER)
        state = _PROCESS_STATE["state"] = (key, Generator.for_state(scale, seed), conn, table_scripts(keys))
    return _copy_tables(state[2], state[1], tables, batch_blocks, state[3])


def _load_in_processes(dsn: str, generator: Generator, ordered: list[str], workers: int, batch_blocks: int,
                       progress: Progress | None, keys: bool,
                       loaded: Callable[[list[str]], None] | None = None) -> dict[str, int]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    rows: dict[str, int] = {}
    scale, seed = generator.plan.scale.name, generator.plan.seed
    # spawn, not fork: polars' thread pool and open connections do not survive a fork.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        waiting, futures = _Peekable(ordered), []
        while batch := _next_batch(waiting, generator):
            futures.append(pool.submit(_copy_tables_in_process, dsn, scale, seed, batch, batch_blocks, keys))
        for future in as_completed(futures):
            done = future.result()
            if loaded:
                loaded([table for table, _count, _seconds in done])
            for table, count, seconds in done:
                rows[table] = count
                if progress:
                    progress(table, count, seconds)
    return rows


def load_tables(dsn: str, generator: Generator, tables: list[str], *, workers: int = 2, batch_blocks: int = 4,
                progress: Progress | None = None, processes: bool | None = None, keys: bool = True,
                foreign_keys: bool = False, loaded: Callable[[list[str]], None] | None = None,
                generate_workers: int | None = None) -> dict[str, int]:
    """Create, generate and COPY ``tables`` (in ``load_order``, ``workers`` at a time); rows per
    table. With ``keys`` (the default) each table also gets its own keys, indexes and ANALYZE (see
    ``_copy_tables``), leaving only the foreign keys to ``finish_build``. With ``foreign_keys``
    (and ``keys``) the foreign keys among ``tables`` are added while they load, as far as the load
    lasts (see ``_ForeignKeysAsLoaded``); ``apply_keys`` adds the rest.

    ``processes`` (default: when there are at least ``PROCESS_ROWS`` rows and several workers)
    generates in worker processes that rebuild ``Generator.for_state(scale, seed)``; the bytes of
    every table are the same either way, since a table is one COPY of blocks that depend only on
    the plan. The processes are spawned, so a script calling this needs the usual
    ``if __name__ == "__main__":`` guard.

    ``generate_workers`` above 1 fans the blocks out over that many spawned processes
    (seeding/fanout.py) while ``workers`` loader threads write them, each table's chunks of
    ``batch_blocks`` blocks in COPY order, so the bytes are again the same; ``processes`` is then
    ignored. 1 is the path above, where a loader makes and writes a block at a time.

    ``loaded`` is called with each batch of tables once they are committed (and, with ``keys``,
    keyed and analysed), after the foreign-key thread was told; ``build`` hashes their rows then.
    """
    ordered = load_order(generator, tables)
    fks = (_ForeignKeysAsLoaded(dsn, tables, {t: generator.plan.tables[t].total for t in tables})
           if foreign_keys and keys else None)
    if processes is None:
        processes = workers > 1 and sum(generator.plan.tables[t].total for t in tables) >= PROCESS_ROWS
    listeners = [f for f in (fks.loaded if fks else None, loaded) if f is not None]

    def tell(batch: list[str]) -> None:
        for listener in listeners:
            listener(batch)

    makers = generate_workers if generate_workers is not None else DEFAULT_GENERATE_WORKERS
    try:
        if makers > 1:
            with BlockFanout(generator, makers, ordered, batch_blocks) as fanout:
                rows = _load_in_threads(dsn, generator, ordered, max(1, workers), batch_blocks, progress, keys,
                                        tell if listeners else None, fanout)
        elif processes:
            rows = _load_in_processes(dsn, generator, ordered, max(1, workers), batch_blocks, progress, keys,
                                      tell if listeners else None)
        else:
            rows = _load_in_threads(dsn, generator, ordered, max(1, workers), batch_blocks, progress, keys,
                                    tell if listeners else None)
    except BaseException:
        if fks:
            fks.abandon()
        raise
    if fks:
        fks.close()
    return rows


def _load_in_threads(dsn: str, generator: Generator, ordered: list[str], workers: int, batch_blocks: int,
                     progress: Progress | None, keys: bool,
                     loaded: Callable[[list[str]], None] | None = None,
                     fanout: BlockFanout | None = None) -> dict[str, int]:
    rows: dict[str, int] = {}
    waiting = _Peekable(ordered)
    lock = threading.Lock()
    scripts = table_scripts(keys)

    def work() -> list[tuple[str, int, float]]:
        """One connection per worker for all its tables (a connection costs more than a tiny
        table); workers take the next batch as they become free."""
        done = []
        with psycopg.connect(dsn, autocommit=False, application_name=BUILD_LOADER) as conn:
            while True:
                with lock:
                    batch = _next_batch(waiting, generator)
                if not batch:
                    return done
                try:
                    copied = _copy_tables(conn, generator, batch, batch_blocks, scripts, fanout)
                except BaseException:
                    if fanout is not None:  # the other loaders must not wait for chunks no one will take
                        fanout.abandon()
                    raise
                if loaded:
                    loaded(batch)
                done.extend(copied)
                if progress:
                    with lock:
                        for item in copied:
                            progress(*item)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(work) for _ in range(workers)]:
            for table, count, _seconds in future.result():
                rows[table] = count
    return rows


class _Peekable:
    def __init__(self, items: list[str]):
        self.items, self.position = items, 0

    def peek(self) -> str | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def take(self) -> str:
        self.position += 1
        return self.items[self.position - 1]


def _next_batch(waiting: _Peekable, generator: Generator) -> list[str]:
    """The next table, or several small ones that follow it (see ``load_order``)."""
    first = waiting.peek()
    if first is None:
        return []
    batch, rows = [waiting.take()], generator.plan.tables[first].total
    if rows > SMALL_TABLE_ROWS:
        return batch
    while (nxt := waiting.peek()) is not None and rows + generator.plan.tables[nxt].total <= SMALL_BATCH_ROWS:
        rows += generator.plan.tables[nxt].total
        batch.append(waiting.take())
    return batch


def finish_build(server: Server, generator: Generator, scale: str, seed: int, *, workers: int = 2,
                 table_keys: bool = False, before_rename: Callable[[], None] | None = None,
                 ) -> tuple[dict[str, float], int]:
    """Foreign keys (and, with ``table_keys``, the keys, indexes and ANALYZE a loader called with
    ``keys=False`` left out), the build label, then the rename into place; ``before_rename`` is
    called just before it (the rename needs every other session on the build database gone).
    Returns (seconds per phase, bytes on disk)."""
    building = build_database(scale, seed)
    dsn = server.dsn(building)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    apply_keys(dsn, generator, workers, table_keys=table_keys)
    seconds["keys"] = time.perf_counter() - started
    if table_keys:
        started = time.perf_counter()
        _run_each(dsn, [analyze_statement([t]) for t in generator.plan.tables], workers)
        seconds["analyze"] = time.perf_counter() - started
    with psycopg.connect(dsn, autocommit=True, application_name=BUILD_OTHER) as conn:
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(
            sql.Identifier(building), sql.Literal(build_label(generator, scale, seed))))
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    if before_rename is not None:
        started = time.perf_counter()
        before_rename()
        seconds["wait for row digests"] = time.perf_counter() - started
    server.rename_database(building, benchmark_database(scale, seed))
    return seconds, size


def build(server: Server, scale: str, seed: int, *, workers: int = 2, batch_blocks: int = 4,
          progress: Progress | None = None, generator: Generator | None = None,
          processes: bool | None = None, generate_workers: int | None = None) -> BuildReport:
    """Generate and load (scale, seed) and rename it into place; returns what it did.

    One build per state at a time, across processes and machines (``state_lock``): a second
    build of the same state waits, saying so, and when the build it waited for renamed a new
    database into place with this build's label it uses that one (``report.reused``) instead of
    building the same bytes again; when the other build died, or the database is the one that was
    there before the wait, it builds. A leftover build database of a killed build is dropped first.

    The rows are hashed while the build goes on, in a spawned process (``RowDigestsAsLoaded``), and
    ``report.fingerprint`` is the finished database's fingerprint; a script calling this needs the
    usual ``if __name__ == "__main__":`` guard. ``generate_workers`` above 1 makes the blocks in
    that many worker processes (see ``load_tables``; None: ``DEFAULT_GENERATE_WORKERS``); the bytes,
    and so the fingerprint, are the same."""
    generator = generator or Generator.for_state(scale, seed)
    before = _finished_oid(server, scale, seed)
    with state_lock(server, scale, seed) as waited:
        if (waited is not None and _finished_oid(server, scale, seed) not in (None, before)
                and existing_label(server, scale, seed) == build_label(generator, scale, seed)):
            return _reused(server, generator, scale, seed, waited)
        report = _build_locked(server, scale, seed, workers, batch_blocks, progress, generator, processes,
                               generate_workers)
    return report


def _database_oid(server: Server, database: str) -> int | None:
    with server.connect() as conn:
        row = conn.execute("SELECT oid FROM pg_database WHERE datname = %s", (database,)).fetchone()
    return None if row is None else row[0]


def _finished_oid(server: Server, scale: str, seed: int) -> int | None:
    """The OID of the finished database of (scale, seed): a rename keeps the build database's
    OID, so a new OID means a build finished."""
    return _database_oid(server, benchmark_database(scale, seed))


def build_oid(server: Server, scale: str, seed: int) -> int | None:
    """The OID of ``heron_build_<scale>_<seed>``, None when there is none: every ``start_build``
    makes a new database, so the OID names one build (and survives its rename into place)."""
    return _database_oid(server, build_database(scale, seed))


def _reused(server: Server, generator: Generator, scale: str, seed: int, waited: float) -> BuildReport:
    """The report of a state another process just built with the same label."""
    database = benchmark_database(scale, seed)
    log.warning(f"{database} was built by the other process meanwhile, with this build's label: using it")
    with server.connect() as conn:
        size = conn.execute("SELECT pg_database_size(%s)", (database,)).fetchone()[0]
    return BuildReport(scale, seed, database, rows={t: tp.total for t, tp in generator.plan.tables.items()},
                       seconds={"wait": waited}, bytes_on_disk=size, reused=True)


def _build_locked(server: Server, scale: str, seed: int, workers: int, batch_blocks: int,
                  progress: Progress | None, generator: Generator, processes: bool | None,
                  generate_workers: int | None = None) -> BuildReport:
    report = BuildReport(scale, seed, benchmark_database(scale, seed))
    started = time.perf_counter()
    dsn = start_build(server, scale, seed)
    report.seconds["tables"] = time.perf_counter() - started
    started = time.perf_counter()
    # Each table's rows are hashed as soon as it is loaded, while the rest of the build goes on
    # (see RowDigestsAsLoaded): the fingerprint then costs only its structure part at the end.
    row_digests = RowDigestsAsLoaded(dsn)
    known: dict[str, RowDigest] = {}

    def collect_row_digests() -> None:
        known.update(row_digests.close())

    try:
        report.rows = load_tables(dsn, generator, list(generator.plan.tables), workers=workers,
                                  batch_blocks=batch_blocks, progress=progress, processes=processes,
                                  foreign_keys=True, loaded=row_digests.loaded, generate_workers=generate_workers)
        report.seconds["generate+copy"] = time.perf_counter() - started
        phases, report.bytes_on_disk = finish_build(server, generator, scale, seed, workers=workers,
                                                    before_rename=collect_row_digests)
    except BaseException:
        row_digests.abandon()
        raise
    report.seconds.update(phases)
    started = time.perf_counter()
    # Nothing writes a row after its table is handed over; a table whose ordering columns
    # changed since, or that was never handed over, is hashed here.
    report.fingerprint = fingerprint_database(server.benchmark_dsn(scale, seed), workers=workers, known=known).digest
    report.seconds["fingerprint"] = time.perf_counter() - started
    return report


#: How the rows reach the server, part of the build label: the fingerprint does not depend on it,
#: but the heap's page layout (and so a dump's bytes) does: the server's insert batches end at
#: other rows for text and binary input, and a later batch may fill an earlier page's free space
#: (tiny 42's orders.order_lines: page 129's last slot holds row 5,997 loaded from CSV, 6,828 from
#: binary). A state loaded from CSV (heron before this constant) differs from a binary-loaded one
#: in where rows sit, never in what they are; it is stale and rebuilt, so every state dumps alike.
LOAD_FORMAT = "binary"


def build_label(generator: Generator, scale: str, seed: int) -> str:
    """What built a database; a finished database whose label differs is stale."""
    from heron_pipeline.seeding.profiles import profile_hash

    return (f"heron generator {GENERATOR_VERSION} scale={scale} seed={seed} "
            f"ddl={generator.catalog.ddl_hash[:16]} profiles={profile_hash()[:16]} load={LOAD_FORMAT}")


def existing_label(server: Server, scale: str, seed: int) -> str | None:
    """The build label of the finished database of (scale, seed), or None if there is none."""
    comment = _database_comment(server, scale, seed)
    return None if comment is None else comment.split("\n", 1)[0]


#: How a finished database's comment carries its fingerprint, on the line after its build label.
FINGERPRINT_LINE = "fingerprint "


def _database_comment(server: Server, scale: str, seed: int) -> str | None:
    with server.connect() as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            (benchmark_database(scale, seed),),
        ).fetchone()
    return None if row is None else (row[0] or "")


def database_fingerprint(server: Server, scale: str, seed: int, label: str) -> str | None:
    """The fingerprint the finished database of (scale, seed) carries in its comment, under the
    build label ``label`` (``record_fingerprint``); None when it carries none (built before heron
    recorded it there) or was built under another label. The database describes itself: a copy of
    this value elsewhere (the artifact root, a shared store) is checked against it."""
    comment = _database_comment(server, scale, seed)
    lines = (comment or "").split("\n")
    if lines[0] != label:
        return None
    for line in lines[1:]:
        value = line[len(FINGERPRINT_LINE):] if line.startswith(FINGERPRINT_LINE) else ""
        if re.fullmatch(r"[0-9a-f]{64}", value):
            return value
    return None


def record_fingerprint(server: Server, scale: str, seed: int, label: str, fingerprint: str) -> None:
    """Let the finished database of (scale, seed) carry ``fingerprint`` on the line after its build
    label. A comment is no part of the fingerprint (tables and their structure) nor of a dump
    (``pg_dump`` writes a database's comment only with ``--create``), and the owner may set it."""
    with server.connect() as conn:
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(
            sql.Identifier(benchmark_database(scale, seed)), sql.Literal(f"{label}\n{FINGERPRINT_LINE}{fingerprint}")))
