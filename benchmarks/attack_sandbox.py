"""Issue 33's attacks on the sandbox, against one state of a running server; prints what each got.

    .venv/bin/heron db up && .venv/bin/heron seed --scale tiny --seed 42
    .venv/bin/python benchmarks/attack_sandbox.py [database]          # default heron_tiny_42

Before (the code before issue 33, in a worktree of its own):

    git worktree add /tmp/heron-before bcb335d
    PYTHONPATH=/tmp/heron-before .venv/bin/python benchmarks/attack_sandbox.py

Attacks:
1-4. the four database-name probes as predictions (``Sandbox.run``) and, without the guard, as plain SQL
     of the sandbox's role: how many other databases' names (or whether a guessed one exists) come back;
5.   the DSN handed to a ``cli`` tool: can it connect to ``postgres`` and to the other states;
6.   with that DSN, ``ALTER ROLE CURRENT_USER IN DATABASE <state> SET work_mem = '2GB'``: what
     ``current_setting('work_mem')`` then reads inside the sandbox's next prediction.

Leaves the server as it found it (the role's per-database settings are reset at the end).
"""

from __future__ import annotations

import sys

import psycopg
from psycopg import conninfo, sql

from heron_pipeline.config import load_settings
from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.execute import prepare_sandbox

PROBES = {
    "pg_describe_object": "SELECT pg_describe_object(1262, o, 0) FROM pg_tablespace_databases(1663) o",
    "pg_identify_object": "SELECT (pg_identify_object(1262, o, 0)).identity FROM pg_tablespace_databases(1663) o",
    "pg_identify_object_as_address": "SELECT array_to_string((pg_identify_object_as_address(1262, o, 0)).object_names, "
                                     "',') FROM pg_tablespace_databases(1663) o",
    # An existence oracle: an existing name answers (its OID), a made-up one is an error.
    "pg_get_object_address": "SELECT {guess} || ' exists, oid ' || (pg_get_object_address('database', "
                             "ARRAY[{guess}], '{{}}')).objid",
}


def cli_dsn(server: Server, database: str) -> tuple[str, str]:
    """What a cli tool is handed for ``database`` by the code on PYTHONPATH, and who produced it."""
    try:
        from heron_pipeline.sandbox.cli_role import CliAccess
    except ImportError:  # before issue 33: the sandbox reader's DSN (predictions/make.py)
        from heron_pipeline.predictions.make import prepare_reader_dsn

        return prepare_reader_dsn(server.dsn(database)), "the sandbox reader"
    access = CliAccess(server.dsn(database), server.settings.reader_password)
    access.reset()
    return access.dsn, "the cli login"


def main() -> None:
    database = sys.argv[1] if len(sys.argv) > 1 else "heron_tiny_42"
    server = Server(load_settings())
    sandbox = prepare_sandbox(server, database)
    reader = conninfo.conninfo_to_dict(sandbox.dsn)["user"]
    with server.connect() as admin:
        databases = [d for (d,) in admin.execute("SELECT datname FROM pg_database WHERE datallowconn "
                                                 "ORDER BY 1").fetchall()]
    others = [d for d in databases if d != database]
    guess = sql.quote(next((o for o in others if o.startswith("heron_")), others[0]))
    print(f"state {database}; other databases on the server: {', '.join(others)}")
    for name, text in PROBES.items():
        text = text.format(guess=guess)
        try:
            rows = sandbox.run(text).rows
            guarded = f"{sum(1 for (v,) in rows if v and any(o in str(v) for o in others))} other names"
        except Exception as err:  # noqa: BLE001 - the refusal is the result
            guarded = f"{type(err).__name__}: {str(err)[:70]}"
        try:
            with psycopg.connect(sandbox.dsn) as conn:
                rows = conn.execute(text).fetchall()
            plain = f"{sum(1 for (v,) in rows if v and any(o in str(v) for o in others))} other names"
        except psycopg.Error as err:
            plain = f"{type(err).__name__}"
        print(f"  probe {name}: as a prediction -> {guarded}; as plain SQL of {reader} -> {plain}")

    dsn, who = cli_dsn(server, database)
    user = conninfo.conninfo_to_dict(dsn)["user"]
    print(f"cli DSN: {who} ({user})")
    reached = []
    for other in others:
        try:
            psycopg.connect(conninfo.make_conninfo(dsn, dbname=other), connect_timeout=5).close()
            reached.append(other)
        except psycopg.Error:
            pass
    print(f"  connects to {len(reached)} of {len(others)} other databases: {', '.join(reached) or 'none'}")
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SET default_transaction_read_only = off")
            conn.execute(sql.SQL("ALTER ROLE CURRENT_USER IN DATABASE {} SET work_mem = '2GB'").format(
                sql.Identifier(database)))
        altered = "succeeded"
    except psycopg.Error as err:
        altered = f"refused ({type(err).__name__})"
    seen = sandbox.run("SELECT current_setting('work_mem') AS w").rows[0][0]
    print(f"  ALTER ROLE CURRENT_USER IN DATABASE {database} SET work_mem = '2GB' {altered}; "
          f"work_mem inside the next prediction: {seen} (the sandbox's bound: {sandbox.limits.work_mem})")
    with server.connect(database) as admin:
        for role in {reader, user}:
            admin.execute(sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(
                sql.Identifier(role), sql.Identifier(database)))


if __name__ == "__main__":
    main()
