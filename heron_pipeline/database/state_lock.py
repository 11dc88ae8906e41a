"""One build per state at a time: a PostgreSQL advisory lock per (scale, seed).

Two builds of the same state share one ``heron_build_<scale>_<seed>``: the second's DROP ... WITH
(FORCE) kills the first's connections mid-load (measured: an AdminShutdown traceback). So a build
holds the state's lock from before it drops the leftover until its rename is done, and a second
build of the same state waits for it.

The lock lives in the server, not in a file under the data folder, because the thing it guards
is the server's database: two machines (or two data folders) pointed at one external server by
``HERON_DSN`` share no file system, but they share the server. The server also releases a
session's lock the moment the session ends, so a build killed with SIGKILL never leaves a stale
lock behind (a lock file would need its pid checked, and a pid means nothing across machines),
and the lock is visible in ``pg_locks``, which is how ``heron db status`` tells a build in progress
from a leftover of a build that died.

The key is the two-int form ``(LOCK_CLASS + scale index, seed)``: a seed is 0..2^31-1 and fits an
int4 exactly, and both numbers show in ``pg_locks`` (classid, objid, objsubid 2), so the state of
a held lock can be read back without a table of keys.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from heron_pipeline.database.names import SCALES, benchmark_database, parse_benchmark_database

log = logging.getLogger(__name__)

#: "HER" and a zero byte: heron's range of advisory-lock class ids (one per scale above it).
LOCK_CLASS = 0x48455200


def state_lock_key(scale: str, seed: int) -> tuple[int, int]:
    """The (classid, objid) advisory-lock pair of (scale, seed)."""
    benchmark_database(scale, seed)  # validates both
    return LOCK_CLASS + SCALES.index(scale), seed


_HOLDER = ("SELECT pid, backend_start FROM pg_locks JOIN pg_stat_activity USING (pid) "
           "WHERE locktype = 'advisory' AND granted AND classid = %s AND objid = %s AND objsubid = 2")


#: How often a waiting build asks for the lock again.
POLL_SECONDS = 0.25


def waiting_name(scale: str, seed: int) -> str:
    """``application_name`` of a session waiting for the state's lock (seen in pg_stat_activity)."""
    return f"heron: waiting to build {benchmark_database(scale, seed)}"


def holding_name(scale: str, seed: int) -> str:
    """``application_name`` of the session holding the state's lock."""
    return f"heron: building {benchmark_database(scale, seed)}"


@contextmanager
def state_lock(server, scale: str, seed: int) -> Iterator[float | None]:
    """Hold the build lock of (scale, seed) for the ``with`` block; yields the seconds spent
    waiting for another build of the state, or None when the lock was free at once.

    The lock is held by a session of its own on the maintenance database, so no statement of the
    build (DROP/CREATE/RENAME DATABASE) can end it; closing that session releases it, and so does
    the death of this process. A waiting build asks again every ``POLL_SECONDS`` rather than
    queueing in ``pg_advisory_lock``: a backend blocked in a lock wait does not notice that its
    client was killed, so a killed waiter would stay queued and take the lock later for nothing;
    an idle session between two tries ends with its client."""
    key = state_lock_key(scale, seed)
    conn = server.open()
    try:
        def take() -> bool:
            return conn.execute("SELECT pg_try_advisory_lock(%s, %s)", key).fetchone()[0]

        waited = None
        if not take():
            conn.execute("SELECT set_config('application_name', %s, false)", (waiting_name(scale, seed),))
            holder = conn.execute(_HOLDER, key).fetchone()
            who = f"server pid {holder[0]}, connected {holder[1]:%H:%M:%S} UTC" if holder else "it just ended"
            log.warning(f"waiting: {benchmark_database(scale, seed)} is being built by another heron process "
                        f"({who}); this one goes on when that build ends")
            started = time.monotonic()
            while not take():
                time.sleep(POLL_SECONDS)
            waited = time.monotonic() - started
        conn.execute("SELECT set_config('application_name', %s, false)", (holding_name(scale, seed),))
        yield waited
    finally:
        conn.close()


@dataclass(frozen=True)
class BuildDatabase:
    """A ``heron_build_*`` database on the server: in progress (its state's lock is held) or a
    leftover of a build that died (nobody holds the lock)."""

    name: str
    scale: str
    seed: int
    bytes: int
    in_progress: bool


def build_databases(server) -> list[BuildDatabase]:
    """Every ``heron_build_<scale>_<seed>`` on the server, by name."""
    with server.connect() as conn:
        rows = conn.execute("SELECT datname, pg_database_size(oid) FROM pg_database "
                            "WHERE datname LIKE 'heron\\_build\\_%' ORDER BY datname").fetchall()
        held = {(classid, objid) for classid, objid in conn.execute(
            "SELECT classid::bigint, objid::bigint FROM pg_locks "
            "WHERE locktype = 'advisory' AND granted AND objsubid = 2").fetchall()}
    found = []
    for name, size in rows:
        parsed = parse_benchmark_database(name)
        if parsed is None:
            continue
        scale, seed, _ = parsed
        found.append(BuildDatabase(name, scale, seed, size, state_lock_key(scale, seed) in held))
    return found


def drop_leftover_build(server, scale: str, seed: int) -> int | None:
    """Drop the ``heron_build_*`` database of (scale, seed) if no build holds the state's lock
    (so it is a leftover of a build that died); its size in bytes, or None when nothing was
    dropped (none there, or a build is running)."""
    from heron_pipeline.database.names import build_database

    key = state_lock_key(scale, seed)
    name = build_database(scale, seed)
    with server.connect() as conn:
        if not conn.execute("SELECT pg_try_advisory_lock(%s, %s)", key).fetchone()[0]:
            return None
        try:
            return drop_unfinished(server, name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s, %s)", key)


def drop_unfinished(server, name: str) -> int | None:
    """Drop the build database ``name`` if it exists, saying so; its size in bytes, or None.
    The caller holds the state's lock."""
    with server.connect() as conn:
        row = conn.execute("SELECT pg_database_size(oid) FROM pg_database WHERE datname = %s", (name,)).fetchone()
    if row is None:
        return None
    server.drop_database(name)
    log.warning(f"dropped {name} ({row[0] / 1e6:,.0f} MB), left by a build of that state that did not finish")
    return row[0]
