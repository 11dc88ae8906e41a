"""The build's client-side encoding cost: binary COPY rows against the CSV the build sent before.

Every block of every table of one state is generated once; each frame is then encoded by
``copy_binary.encode_rows`` (what the build sends since 2026-12-06) and written by polars'
``write_csv`` with the options the build used before, in the same process, block after block, so
the ratio is a same-run figure. CPU seconds are the process's (polars' threads included). The
server's side of the change is in ``bench_seed_build.py`` (a whole build against a baseline
checkout).

    .venv/bin/python benchmarks/bench_copy_encoding.py [--scale small] [--seed 42]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.seeding.copy_binary import encode_rows  # noqa: E402
from heron_pipeline.seeding.generate import Generator  # noqa: E402


def _csv(frame) -> int:
    buffer = io.BytesIO()
    frame.write_csv(buffer, include_header=False, null_value="", datetime_format="%Y-%m-%d %H:%M:%S%.6f+00")
    return buffer.tell()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    generator = Generator.for_state(args.scale, args.seed)
    cpu = {"generate": 0.0, "binary": 0.0, "csv": 0.0}
    size = {"binary": 0, "csv": 0}
    rows = 0
    for table in generator.plan.tables:
        columns = None
        for block in generator.blocks(table):
            started = time.process_time()
            frame = generator.block_frame(table, block)
            columns = columns or [generator.catalog.table(table).column(name) for name in frame.columns]
            generated = time.process_time()
            size["binary"] += len(encode_rows(frame, columns))
            encoded = time.process_time()
            size["csv"] += _csv(frame)
            written = time.process_time()
            cpu["generate"] += generated - started
            cpu["binary"] += encoded - generated
            cpu["csv"] += written - encoded
            rows += frame.height
    print(f"{args.scale} {args.seed}: {rows:,} rows; generating them {cpu['generate']:.2f} CPU-s")
    print(f"binary COPY rows {cpu['binary']:.2f} CPU-s ({size['binary'] / 1e6:,.0f} MB)  "
          f"CSV {cpu['csv']:.2f} CPU-s ({size['csv'] / 1e6:,.0f} MB)  ratio {cpu['binary'] / cpu['csv']:.2f}")


if __name__ == "__main__":
    main()
