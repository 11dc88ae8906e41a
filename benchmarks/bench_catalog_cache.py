"""A fresh process's ``load_catalog()``: parsed from the DDL (no cache entry) against read back from
``.heron/cache`` (``input_cache``), alternated in one run.

Every heron process that needs the catalog (predict through an adapter's schema, the EM metric's
schema, the audit, the Dagster catalog asset, each Dagster step process) parsed the 211-table DDL
with sqlglot again; issue 21's ``--ves`` row profiled 6.5 s of predict in that parse. This script
runs ``python -c 'load_catalog()'`` in a child process per round, with an empty cache folder
("parse", what every process paid before) and with the folder the first round filled ("cached"),
and prints wall time of the whole child (imports included) and of the call alone, and the ratio.

    .venv/bin/python benchmarks/bench_catalog_cache.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
from pathlib import Path
import heron_pipeline.input_cache as input_cache
input_cache.CACHE_DIR = Path(sys.argv[1])
from heron_pipeline.catalog import load_catalog
started = time.perf_counter()
catalog = load_catalog()
print(f"{time.perf_counter() - started:.4f} {len(catalog.tables)}")
"""


def child(cache: Path) -> tuple[float, float, int]:
    """(whole process seconds, load_catalog seconds, tables) of one fresh process."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(cache)], cwd=HERE, capture_output=True, text=True,
                          check=True)
    whole = time.perf_counter() - started
    call, tables = done.stdout.split()
    return whole, float(call), int(tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"parse": [], "cached": []}
    with tempfile.TemporaryDirectory() as warm_root:
        warm = Path(warm_root)
        child(warm)  # fills the warm folder
        for round_ in range(args.rounds):
            with tempfile.TemporaryDirectory() as cold:
                for side, folder in (("parse", Path(cold)), ("cached", warm)):
                    whole, call, tables = child(folder)
                    if tables != 211:
                        raise SystemExit(f"{side}: {tables} tables, expected 211")
                    runs[side].append((whole, call))
                    print(f"round {round_ + 1} {side:6s} process {whole:5.2f} s  load_catalog {call:5.2f} s", flush=True)
    for index, what in ((0, "process"), (1, "load_catalog")):
        parse = statistics.median(r[index] for r in runs["parse"])
        cached = statistics.median(r[index] for r in runs["cached"])
        print(f"median {what:12s} parse {parse:5.2f} s  cached {cached:5.2f} s  ratio {cached / parse:.2f}  "
              f"saved {parse - cached:.2f} s per process")


if __name__ == "__main__":
    main()
