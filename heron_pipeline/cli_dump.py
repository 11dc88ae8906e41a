"""``heron dump``: a reproducible compressed dump of one benchmark database and its digest."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from heron_pipeline.cli_common import seed_number
from heron_pipeline.config import Settings
from heron_pipeline.database.names import SCALES


def cmd_dump(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.artifacts import ArtifactLayout
    from heron_pipeline.database.dump import dump_database
    from heron_pipeline.database.server import Server

    server = Server(settings)
    server.up()
    out_dir = Path(args.out) if args.out else ArtifactLayout(settings.artifacts).dumps()
    result = dump_database(server, args.scale, args.seed, out_dir)
    print(f"wrote {result.path} ({result.bytes / 1e6:,.1f} MB) in {result.seconds:.1f} s", file=sys.stderr)
    print(f"{result.sha256}  {result.path.name}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    dump = subparsers.add_parser("dump", help="write heron_<scale>_<seed>.sql.gz and its .sha256, byte-reproducibly")
    dump.add_argument("--scale", choices=SCALES, required=True)
    dump.add_argument("--seed", type=seed_number, required=True)
    dump.add_argument("--out", help="folder for the dump (default: <artifacts>/dumps)")
    dump.set_defaults(handler=cmd_dump)
