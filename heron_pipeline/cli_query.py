"""``heron query``: run one SQL string exactly as a prediction is run, print its result document.

stdout carries the result document and nothing else (the codec's canonical JSON), so scripts can
pipe it; every failure is one line on stderr whose prefix and exit code say which kind it was:

    0 ok · 3 rejected · 4 timeout · 5 limit · 6 error · 7 unavailable · (2 argparse usage)

``error:`` (6) is kept for a prediction whose SQL PostgreSQL refused; ``unavailable:`` (7) means heron
itself could not run it (the server unreachable, the database missing, the sandbox role setup
failed), so a script never mistakes heron's failure for the SQL's.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from heron_pipeline.config import Settings
from heron_pipeline.database.names import SCALES, benchmark_database

EXIT_OK, EXIT_REJECTED, EXIT_TIMEOUT, EXIT_LIMIT, EXIT_ERROR, EXIT_UNAVAILABLE = 0, 3, 4, 5, 6, 7

EXIT_CODES = {"rejected": EXIT_REJECTED, "timeout": EXIT_TIMEOUT, "limit": EXIT_LIMIT, "error": EXIT_ERROR,
              "unavailable": EXIT_UNAVAILABLE}


def _server_down_line(settings: Settings) -> str:
    """What to do when the server does not answer: only the embedded one is heron's to start."""
    if settings.is_embedded:
        return f"the embedded server on port {settings.port} is not running; start it with `heron db up`"
    from psycopg import conninfo

    params = conninfo.conninfo_to_dict(settings.dsn or "")
    where = f"{params.get('host', 'localhost')}:{params.get('port', 5432)}"
    return (f"the server HERON_DSN names ({where}) does not answer; check that it is running and "
            "reachable, or unset HERON_DSN to use the embedded server")


def cmd_query(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.database.server import Server
    from heron_pipeline.results import dumps
    from heron_pipeline.sandbox.errors import SandboxError, SandboxUnavailable
    from heron_pipeline.sandbox.execute import prepare_sandbox
    from heron_pipeline.sandbox.limits import Limits

    try:
        defaults = Limits()
        limits = Limits(statement_timeout_s=defaults.statement_timeout_s if args.timeout is None else args.timeout,
                        max_rows=defaults.max_rows if args.max_rows is None else args.max_rows,
                        max_bytes=defaults.max_bytes if args.max_bytes is None else args.max_bytes)
        server = Server(settings)
        if not server.is_up():
            raise SandboxUnavailable(_server_down_line(settings))
        # The role keeps the default limits (they are cluster-wide and other sandboxes share them);
        # this run's own caps apply per transaction and on the client.
        sandbox = replace(prepare_sandbox(server, benchmark_database(args.scale, args.seed),
                                          password=settings.reader_password),
                          limits=limits, parser=not args.no_parser)
        result = sandbox.run(sys.stdin.read() if args.sql == "-" else args.sql)
    except SandboxError as err:
        print(err.line(), file=sys.stderr, flush=True)
        return EXIT_CODES[err.kind]
    except Exception as err:  # noqa: BLE001 - the contract is one line and a distinct code, always
        # Not a SandboxError: something in heron itself failed, not the prediction's SQL.
        print("unavailable: " + " ".join(f"{type(err).__name__}: {err}".split()), file=sys.stderr, flush=True)
        return EXIT_UNAVAILABLE
    sys.stdout.write(dumps(result) + "\n")
    sys.stdout.flush()
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``query`` subcommand to heron's parser."""
    query = subparsers.add_parser(
        "query", help="run one SQL string in the prediction sandbox and print its result as JSON",
        description=__doc__.split("\n\n")[0],
        epilog="exit codes: 0 ok, 3 rejected, 4 timeout, 5 limit, 6 error (the SQL failed), "
               "7 unavailable (heron or its server could not run it)")
    query.add_argument("--scale", choices=SCALES, required=True)
    query.add_argument("--seed", type=int, required=True)
    query.add_argument("--timeout", type=float, help="statement timeout in seconds (default 30)")
    query.add_argument("--max-rows", type=int, help="row cap (default 1,000,000)")
    query.add_argument("--max-bytes", type=int, help="byte cap (default 256 MiB)")
    # Test-only: switch the sqlglot layer off to prove the role and transaction layers hold alone.
    query.add_argument("--no-parser", action="store_true", help=argparse.SUPPRESS)
    query.add_argument("sql", help="the SQL string, exactly as a prediction; - reads it from stdin "
                                   "(for SQL that starts with a -- comment)")
    query.set_defaults(handler=cmd_query)
