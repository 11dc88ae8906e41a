"""The ``heron`` command: everything the Dagster UI does, for scripts and CI.

Each subcommand is a thin shell over a core function that the Dagster assets call too. Output
meant for machines (a DSN, a digest) goes to stdout alone; progress and messages go to stderr.

A failure is one line on stderr that names the flag, file or address and the fix, never a
traceback (``heron --debug ...`` adds it). Exit codes: 0 ok · 1 failed (a check found problems,
or heron failed) · 2 bad input (a flag, heron.toml, an environment variable) · 7 the server is
unavailable (not running, unreachable, or gone mid-command) · 130 interrupted. ``heron query``
has its own codes (heron_pipeline/cli_query.py).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from heron_pipeline.cli_common import (EXIT_FAIL, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE, UsageError, say, seed_number,
                                       seed_state, worker_count)
from heron_pipeline.config import ConfigError, Settings, load_settings
from heron_pipeline.database.embedded import ServerError, ServerUnavailable
from heron_pipeline.database.names import SCALES, SCHEMA_DATABASE, benchmark_database
from heron_pipeline.database.server import Server


# -- db ---------------------------------------------------------------------------------------------


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    server = Server(settings)
    if args.action == "up":
        started = server.up()
        where = f"127.0.0.1:{settings.port}, data in {settings.pgdata}" if settings.is_embedded else "external server"
        say(("started" if started else "already running") + f": {where}")
        return EXIT_OK
    if args.action == "down":
        say("stopped" if server.down() else "not running")
        return EXIT_OK
    if args.action == "status":
        up, hint = server.is_up(), ""
        if not up and server.embedded:
            hint = ("; it was killed or crashed: `heron db up` restarts it and recovers its data"
                    if server.embedded.stopped_uncleanly() else "; start it with `heron db up`")
        elif not up:
            try:
                server.check_reachable()
            except ServerError as err:
                hint = f" ({err})"
        say(("up: " if up else "down: ") + (f"127.0.0.1:{settings.port}" if settings.is_embedded else "external server")
             + hint)
        if up:
            _status_builds(server)
        return EXIT_OK if up else EXIT_FAIL
    if args.action == "clean":
        from heron_pipeline.database.state_lock import build_databases, drop_leftover_build

        server.check_reachable()
        dropped = [b for b in build_databases(server) if not b.in_progress
                   and drop_leftover_build(server, b.scale, b.seed) is not None]
        say(f"dropped {len(dropped)} leftover build database(s)" if dropped else "no leftover build databases")
        return EXIT_OK
    if args.action == "url":
        if (args.scale is None) != (args.seed is None):
            say("error: --scale and --seed go together")
            return EXIT_USAGE
        print(server.dsn() if args.scale is None else server.benchmark_dsn(args.scale, args.seed))
        return EXIT_OK
    raise AssertionError(args.action)


def _status_builds(server: Server) -> None:
    """``heron db status``'s lines on build databases: those in progress, and leftovers of builds
    that died (with their size and how to remove them)."""
    from heron_pipeline.database.state_lock import build_databases

    for b in build_databases(server):
        if b.in_progress:
            say(f"building: {b.name} ({b.bytes / 1e6:,.0f} MB so far)")
        else:
            say(f"leftover: {b.name} ({b.bytes / 1e6:,.0f} MB) from a build that did not finish; "
                 f"`heron db clean` or the next `heron seed --scale {b.scale} --seed {b.seed}` drops it")


# -- schema -----------------------------------------------------------------------------------------


def cmd_schema(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.database.schema_load import load_schema

    server = Server(settings)
    server.up()
    started = time.perf_counter()
    server.create_database(args.database, replace=True)
    with server.connect(args.database, autocommit=False) as conn:
        load_schema(conn)
        conn.commit()
    catalog = load_catalog()
    say(f"loaded {len(catalog.tables)} tables in {len(catalog.domains)} schemas, "
         f"{len(catalog.foreign_keys)} foreign keys into {args.database} in {time.perf_counter() - started:.2f} s")
    print(server.dsn(args.database))
    return EXIT_OK


# -- seed / fingerprint ------------------------------------------------------------------------------


def cmd_seed(args: argparse.Namespace, settings: Settings) -> int:
    if args.dry_run:  # the plan and the committed measurement: no server needed
        from heron_pipeline.seeding.generate import Generator
        from heron_pipeline.seeding.throughput import load_throughput, projection_lines

        plan = Generator.for_state(args.scale, args.seed).plan
        for table, tp in plan.tables.items():
            print(f"{table}\t{tp.total}")
        print(f"total\t{plan.total_rows}")
        try:
            measured = load_throughput()
        except ValueError as err:
            say(f"no projection: {err}")
            return EXIT_OK
        for line in projection_lines(plan.total_rows, measured):
            print(line)
        return EXIT_OK
    server = Server(settings)
    server.up()
    seed_state(server, args.scale, args.seed, force=args.force, workers=args.workers,
               generate_workers=args.generate_workers)
    return EXIT_OK


def _existing_state(server: Server, scale: str, seed: int) -> str | None:
    """The finished database of (scale, seed), or None after saying on stderr how to build it."""
    database = benchmark_database(scale, seed)
    if server.database_exists(database):
        return database
    say(f"error: {database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
    return None


def cmd_fingerprint(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.database.fingerprint import fingerprint_database

    server = Server(settings)
    database = _existing_state(server, args.scale, args.seed)
    if database is None:
        return EXIT_FAIL
    result = fingerprint_database(server.dsn(database))
    if args.tables:
        for table, digest in result.tables.items():
            print(f"{digest}  {table}")
    else:
        print(result.digest)
    return EXIT_OK


def cmd_verify_data(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.seeding.verify import verify_database

    server = Server(settings)
    database = _existing_state(server, args.scale, args.seed)
    if database is None:
        return EXIT_FAIL
    with server.connect(database) as conn:
        report = verify_database(conn, load_catalog())
    rates = list(report.null_fk_rates.values())
    in_band = sum(0.05 <= r <= 0.40 for r in rates)
    soft = list(report.soft_delete_rates.values())
    print(f"soft-deleted share: {len(soft)} tables, min {min(soft, default=0):.1%}, max {max(soft, default=0):.1%}")
    print(f"optional references: {len(rates)}, NULL share within 5–40 %: {in_band}")
    for line in report.violations:
        print(f"VIOLATION {line}")
    print("ok" if report.ok else f"{len(report.violations)} violations")
    return EXIT_OK if report.ok else EXIT_FAIL


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    """The main job: seed → gold → predictions → scores → standings → leaderboard (heron_pipeline.cli_bench)."""
    from heron_pipeline.cli_bench import cmd_bench as run

    return run(args, settings)


def dagster_home(settings: Settings) -> Path:
    """DAGSTER_HOME under heron's data folder (git-ignored), holding a copy of the project's dagster.yaml:
    Dagster writes its local folders (storage/, .nux/) into its home, never into the repository."""
    import shutil
    from pathlib import Path

    from heron_pipeline.config import PROJECT_ROOT

    home = Path(settings.data_dir) / "dagster_home"
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
    return home


def dagster_environment(settings: Settings, server: Server) -> dict[str, str]:
    """The environment `dagster dev` runs in: its home, and its storage in heron's `heron_dagster` database."""
    import os
    from urllib.parse import urlsplit

    from heron_pipeline.database.names import DAGSTER_DATABASE

    if not server.database_exists(DAGSTER_DATABASE):
        server.create_database(DAGSTER_DATABASE)
    parts = urlsplit(server.maintenance_dsn)
    return {**os.environ, "DAGSTER_HOME": str(dagster_home(settings)), "HERON_DAGSTER_USER": parts.username or "postgres",
            "HERON_DAGSTER_PASSWORD": parts.password or "", "HERON_DAGSTER_HOST": parts.hostname or "127.0.0.1",
            "HERON_DAGSTER_PORT": str(parts.port or 5432)}


def cmd_dev(args: argparse.Namespace, settings: Settings) -> int:
    """`dagster dev` against heron's server, with Dagster's storage in heron_dagster. Started as
    ``<this interpreter> -m dagster``, so it works without an activated virtualenv."""
    import os

    from heron_pipeline.config import PROJECT_ROOT

    server = Server(settings)
    server.up()
    env = dagster_environment(settings, server)
    argv = [sys.executable, "-m", "dagster", "dev", "-w", str(PROJECT_ROOT / "workspace.yaml"), "-p", str(args.port),
            "-h", args.host]
    say(f"Dagster UI on http://{args.host}:{args.port} (DAGSTER_HOME {env['DAGSTER_HOME']}, storage in "
         f"heron_dagster)")
    # run from DAGSTER_HOME, where the copy of dagster.yaml is: from the project root, `dagster dev` says the
    # root's dagster.yaml "will not be used" although its copy is what it uses (the package is installed)
    os.chdir(env["DAGSTER_HOME"])
    os.execve(sys.executable, argv, env)
    return EXIT_OK  # pragma: no cover


# -- parser -----------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with heron's one-line errors: the usage block is a ``--help`` away."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {' '.join(message.split())}; see `{self.prog} --help`\n")


DEBUG_HELP = "on a failure, also print the traceback (for a bug report)"


def build_parser() -> argparse.ArgumentParser:
    # The subcommand modules import the bench core and friends: paid when a parser is built, not
    # when something imports this module for explain_failure.
    from heron_pipeline import cli_audit, cli_bench, cli_dump, cli_explain, cli_hidden, cli_query, cli_submissions

    parser = _Parser(prog="heron", description=__doc__.splitlines()[0])
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", required=True)

    db = sub.add_parser("db", help="the PostgreSQL server: up | down | status | url | clean")
    db.add_argument("action", choices=("up", "down", "status", "url", "clean"),
                    help="clean drops the build databases of builds that did not finish")
    db.add_argument("--scale", choices=SCALES, help="with url: the DSN of benchmark database heron_<scale>_<seed>")
    db.add_argument("--seed", type=seed_number)
    db.set_defaults(handler=cmd_db)

    schema = sub.add_parser("schema", help="load the 211-table schema (no data) into a fresh database")
    schema.add_argument("--database", default=SCHEMA_DATABASE)
    schema.set_defaults(handler=cmd_schema)

    seed = sub.add_parser("seed", help="build heron_<scale>_<seed> deterministically")
    seed.add_argument("--scale", choices=SCALES, required=True)
    seed.add_argument("--seed", type=seed_number, required=True)
    seed.add_argument("--workers", type=worker_count, default=2, help="loader connections (default 2)")
    seed.add_argument("--generate-workers", type=worker_count, default=None,
                      help="processes making the blocks; 1: the loaders make them (the default, measured "
                           "best on 2 cores; see docs/SCALING.md)")
    seed.add_argument("--force", action="store_true", help="rebuild even if an up-to-date database exists")
    seed.add_argument("--dry-run", action="store_true",
                      help="print per-table row counts and the projected size and time, and exit")
    seed.set_defaults(handler=cmd_seed)

    fingerprint = sub.add_parser("fingerprint", help="sha256 of a benchmark database's structure and rows")
    fingerprint.add_argument("--scale", choices=SCALES, required=True)
    fingerprint.add_argument("--seed", type=seed_number, required=True)
    fingerprint.add_argument("--tables", action="store_true", help="one digest per table")
    fingerprint.set_defaults(handler=cmd_fingerprint)

    verify = sub.add_parser("verify-data", help="check FK integrity, tenant consistency, uniqueness, trap rates")
    verify.add_argument("--scale", choices=SCALES, required=True)
    verify.add_argument("--seed", type=seed_number, required=True)
    verify.set_defaults(handler=cmd_verify_data)

    bench = sub.add_parser("bench", help="the main job: score every tool on every state, print the standings")
    cli_bench.add_arguments(bench)
    bench.set_defaults(handler=cmd_bench)

    cli_audit.register(sub)
    cli_dump.register(sub)  # heron dump

    dev = sub.add_parser("dev", help="start the server if needed, then the Dagster UI")
    dev.add_argument("--port", type=int, default=3000)
    dev.add_argument("--host", default="127.0.0.1", help="interface the UI listens on (default 127.0.0.1)")
    dev.set_defaults(handler=cmd_dev)
    cli_query.register(sub)  # heron query: the prediction sandbox
    cli_submissions.register(sub)  # submit, verify, leaderboard
    cli_hidden.register(sub)  # heron hidden night|retire|recompute: the hidden evaluation
    cli_explain.register(sub)  # heron explain: why a tool got a question wrong

    for command in sub.choices.values():  # --debug after the subcommand too
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
    return parser


class _Notices(logging.Formatter):
    """The core's notices (a restarted server, a wait for another build) as plain stderr lines."""

    def format(self, record: logging.LogRecord) -> str:
        return " ".join(record.getMessage().split())


def _show_notices(debug: bool) -> None:
    """heron's notices on stderr; psycopg's own warnings (a COPY aborted by a lost connection)
    only with ``--debug``: the one error line already says what happened."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Notices())
    logger = logging.getLogger("heron_pipeline")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.getLogger("psycopg").setLevel(logging.WARNING if debug else logging.CRITICAL)


#: Commands that may build a state, so a lost server may have left an unfinished build behind.
_BUILDING_COMMANDS = {"seed", "bench", "audit"}


#: Commands that never read or write the artifact root, so an object-store root is not synchronised.
_COMMANDS_WITHOUT_ARTIFACTS = {"db", "schema", "fingerprint", "verify-data", "query"}


def explain_failure(err: BaseException, settings: Settings | None, command: str = "") -> tuple[str, int]:
    """The one stderr line and the exit code for a command that raised ``err``.

    Bad input (a flag, the config) is 2; a server heron cannot reach or lost is 7 and names the
    server and what to do; anything else is 1, with the hint that ``--debug`` shows where."""
    import psycopg

    from heron_pipeline.artifacts.atomic import ArtifactWriteError
    from heron_pipeline.artifacts.store import ObjectStoreError
    from heron_pipeline.database.errors import failure_reason, is_connect_failure, is_connection_lost, one_line

    if isinstance(err, (UsageError, ConfigError)):
        return f"error: {one_line(str(err))}", EXIT_USAGE
    if isinstance(err, ObjectStoreError):  # bad bucket, no credentials: 1; an endpoint that does not answer: 7
        return f"error: {one_line(str(err))}", EXIT_UNAVAILABLE if err.unreachable else EXIT_FAIL
    if isinstance(err, ServerUnavailable):
        return f"error: {one_line(str(err))}", EXIT_UNAVAILABLE
    if isinstance(err, (ServerError, ArtifactWriteError)):  # a full disk names the file and the bytes
        return f"error: {one_line(str(err))}", EXIT_FAIL
    server = Server(settings) if settings is not None else None
    if server is not None and is_connection_lost(err):
        log = f" (its log: {server.embedded.log_file})" if server.embedded else ""
        build = " (the next build of the state drops the unfinished one)" if command in _BUILDING_COMMANDS else ""
        return (f"error: lost the connection to {server.address}: {failure_reason(err)}; check the server with "
                f"`heron db status`{log}, then rerun the command{build}", EXIT_UNAVAILABLE)
    if server is not None and is_connect_failure(err):
        told = server.unavailable(err)
        return f"error: {one_line(str(told))}", EXIT_UNAVAILABLE if isinstance(told, ServerUnavailable) else EXIT_FAIL
    if isinstance(err, psycopg.Error):
        return (f"error: PostgreSQL: {failure_reason(err)} (an unexpected failure of heron's own SQL; "
                f"`heron --debug ...` shows where)", EXIT_FAIL)
    if isinstance(err, ValueError):
        return f"error: {one_line(str(err))}", EXIT_FAIL
    return (f"error: unexpected {type(err).__name__}: {one_line(str(err)) or '(no message)'}; "
            f"`heron --debug ...` shows the traceback for a bug report", EXIT_FAIL)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _show_notices(args.debug)
    settings = None
    try:
        settings = load_settings()
        if args.command in _COMMANDS_WITHOUT_ARTIFACTS:
            return args.handler(args, settings)
        from heron_pipeline.artifacts.store import synchronised

        with synchronised(settings.artifact_store, settings.artifacts):  # an s3:// root: pull, run, push
            return args.handler(args, settings)
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except Exception as err:  # noqa: BLE001 - the contract: one line and an exit code, whatever failed
        if args.debug:
            import traceback

            traceback.print_exc()
        line, code = explain_failure(err, settings, args.command)
        say(line)
        return code


if __name__ == "__main__":
    # UsageError and the exit codes live in cli_common, which this __main__ copy of the module
    # shares with the subcommands, so main() catches what they raise.
    sys.exit(main())
