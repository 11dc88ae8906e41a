"""The ``heron`` command: everything the Dagster UI does, for scripts and CI.

Each subcommand is a thin shell over a core function that the Dagster assets call too. Output
meant for machines (a DSN, a digest) goes to stdout alone; progress and messages go to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time

from heron_pipeline.config import Settings, load_settings
from heron_pipeline.database.embedded import ServerError
from heron_pipeline.database.names import SCALES, SCHEMA_DATABASE, benchmark_database
from heron_pipeline.database.server import Server

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _err(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_seeds(text: str) -> list[int]:
    """``--seeds 42,43,44`` → [42, 43, 44]; at least one seed."""
    seeds = [int(s) for s in text.split(",") if s.strip()]
    if not seeds:
        raise ValueError("--seeds needs at least one seed")
    return seeds


# -- db ---------------------------------------------------------------------------------------------


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    server = Server(settings)
    if args.action == "up":
        started = server.up()
        where = f"127.0.0.1:{settings.port}, data in {settings.pgdata}" if settings.is_embedded else "external server"
        _err(("started" if started else "already running") + f": {where}")
        return EXIT_OK
    if args.action == "down":
        _err("stopped" if server.down() else "not running")
        return EXIT_OK
    if args.action == "status":
        up = server.is_up()
        _err(("up: " if up else "down: ") + (f"127.0.0.1:{settings.port}" if settings.is_embedded else "external server"))
        return EXIT_OK if up else EXIT_FAIL
    if args.action == "url":
        if (args.scale is None) != (args.seed is None):
            _err("error: --scale and --seed go together")
            return EXIT_USAGE
        print(server.dsn() if args.scale is None else server.benchmark_dsn(args.scale, args.seed))
        return EXIT_OK
    raise AssertionError(args.action)


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
    _err(f"loaded {len(catalog.tables)} tables in {len(catalog.domains)} schemas, "
         f"{len(catalog.foreign_keys)} foreign keys into {args.database} in {time.perf_counter() - started:.2f} s")
    print(server.dsn(args.database))
    return EXIT_OK


# -- seed / fingerprint ------------------------------------------------------------------------------


def seed_state(server: Server, scale: str, seed: int, *, force: bool = False, workers: int = 2,
               quiet: bool = False) -> bool:
    """Build (scale, seed) unless a finished database with the same build label exists.
    Returns True when it built."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from heron_pipeline.seeding.build import build, build_label, existing_label
    from heron_pipeline.seeding.generate import Generator

    generator = Generator.for_state(scale, seed)
    label = build_label(generator, scale, seed)
    if not force and existing_label(server, scale, seed) == label:
        _err(f"{benchmark_database(scale, seed)} is up to date ({label}); --force rebuilds it")
        return False
    console = Console(stderr=True)
    domains: dict[str, int] = {}
    for table, tp in generator.plan.tables.items():
        domains[table.split(".")[0]] = domains.get(table.split(".")[0], 0) + tp.total
    with Progress(TextColumn("{task.description:<14}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=quiet, transient=True) as bars:
        tasks = {d: bars.add_task(d, total=n) for d, n in domains.items()}
        report = build(server, scale, seed, workers=workers, generator=generator,
                       progress=lambda table, rows, _s: bars.advance(tasks[table.split(".")[0]], rows))
    seconds = sum(report.seconds.values())
    phases = ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
    _err(f"built {report.database}: {report.total_rows:,} rows in {len(report.rows)} tables, "
         f"{report.bytes_on_disk / 1e6:,.0f} MB on disk, {seconds:.1f} s ({phases})")
    return True


def cmd_seed(args: argparse.Namespace, settings: Settings) -> int:
    server = Server(settings)
    server.up()
    if args.dry_run:
        from heron_pipeline.seeding.generate import Generator

        plan = Generator.for_state(args.scale, args.seed).plan
        for table, tp in plan.tables.items():
            print(f"{table}\t{tp.total}")
        print(f"total\t{plan.total_rows}")
        return EXIT_OK
    seed_state(server, args.scale, args.seed, force=args.force, workers=args.workers)
    return EXIT_OK


def _existing_state(server: Server, scale: str, seed: int) -> str | None:
    """The finished database of (scale, seed), or None after saying on stderr how to build it."""
    database = benchmark_database(scale, seed)
    if server.database_exists(database):
        return database
    _err(f"error: {database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
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


def cmd_dev(args: argparse.Namespace, settings: Settings) -> int:
    """`dagster dev` against heron's server, with Dagster's storage in heron_dagster."""
    import os
    from urllib.parse import urlsplit

    from heron_pipeline.config import PROJECT_ROOT
    from heron_pipeline.database.names import DAGSTER_DATABASE

    server = Server(settings)
    server.up()
    if not server.database_exists(DAGSTER_DATABASE):
        server.create_database(DAGSTER_DATABASE)
    parts = urlsplit(server.maintenance_dsn)
    env = {**os.environ, "DAGSTER_HOME": str(PROJECT_ROOT), "HERON_DAGSTER_USER": parts.username or "postgres",
           "HERON_DAGSTER_PASSWORD": parts.password or "", "HERON_DAGSTER_HOST": parts.hostname or "127.0.0.1",
           "HERON_DAGSTER_PORT": str(parts.port or 5432)}
    argv = ["dagster", "dev", "-w", str(PROJECT_ROOT / "workspace.yaml"), "-p", str(args.port)]
    os.execvpe(argv[0], argv, env)
    return EXIT_OK  # pragma: no cover


# -- parser -----------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="heron", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    db = sub.add_parser("db", help="the PostgreSQL server: up | down | status | url")
    db.add_argument("action", choices=("up", "down", "status", "url"))
    db.add_argument("--scale", choices=SCALES, help="with url: the DSN of benchmark database heron_<scale>_<seed>")
    db.add_argument("--seed", type=int)
    db.set_defaults(handler=cmd_db)

    schema = sub.add_parser("schema", help="load the 211-table schema (no data) into a fresh database")
    schema.add_argument("--database", default=SCHEMA_DATABASE)
    schema.set_defaults(handler=cmd_schema)

    seed = sub.add_parser("seed", help="build heron_<scale>_<seed> deterministically")
    seed.add_argument("--scale", choices=SCALES, required=True)
    seed.add_argument("--seed", type=int, required=True)
    seed.add_argument("--workers", type=int, default=2)
    seed.add_argument("--force", action="store_true", help="rebuild even if an up-to-date database exists")
    seed.add_argument("--dry-run", action="store_true", help="print per-table row counts and exit")
    seed.set_defaults(handler=cmd_seed)

    fingerprint = sub.add_parser("fingerprint", help="sha256 of a benchmark database's structure and rows")
    fingerprint.add_argument("--scale", choices=SCALES, required=True)
    fingerprint.add_argument("--seed", type=int, required=True)
    fingerprint.add_argument("--tables", action="store_true", help="one digest per table")
    fingerprint.set_defaults(handler=cmd_fingerprint)

    verify = sub.add_parser("verify-data", help="check FK integrity, tenant consistency, uniqueness, trap rates")
    verify.add_argument("--scale", choices=SCALES, required=True)
    verify.add_argument("--seed", type=int, required=True)
    verify.set_defaults(handler=cmd_verify_data)

    bench = sub.add_parser("bench", help="the main job: score every tool on every state, print the standings")
    bench.add_argument("--scale", choices=SCALES, default="tiny")
    bench.add_argument("--seeds", default="42,43,44")
    __import__("heron_pipeline.cli_bench").cli_bench.add_arguments(bench)
    bench.set_defaults(handler=cmd_bench)

    __import__("heron_pipeline.cli_audit", fromlist=["register"]).register(sub)
    __import__("heron_pipeline.cli_dump", fromlist=["register"]).register(sub)  # heron dump

    dev = sub.add_parser("dev", help="start the server if needed, then the Dagster UI")
    dev.add_argument("--port", type=int, default=3000)
    dev.set_defaults(handler=cmd_dev)
    __import__("heron_pipeline.cli_query").cli_query.register(sub)  # heron query: the prediction sandbox
    __import__("heron_pipeline.cli_submissions", fromlist=["register"]).register(sub)  # submit, verify, leaderboard

    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
        return args.handler(args, settings)
    except (ServerError, ValueError) as err:
        _err(f"error: {err}")
        return EXIT_FAIL
    except KeyboardInterrupt:
        _err("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
