"""A byte-reproducible compressed dump of one benchmark database.

``heron_<scale>_<seed>.sql.gz`` is a plain-format ``pg_dump`` streamed through gzip, next to its
``.sha256`` (``sha256sum`` format). Two builds of the same (scale, seed) give the same bytes, so
the digest can be published and checked by anyone who rebuilds. Three things would otherwise make
every dump different, and each is pinned here:

* pg_dump 17.6+/18 wraps the script in ``\\restrict <key>`` with a random key unless
  ``--restrict-key`` is given: the key is derived from (scale, seed);
* gzip stores a modification time and a file name: mtime is 0 and no name is stored (``gzip -n``);
* planner statistics (pg_dump 18 can dump them) come from ANALYZE's random sample: never dumped.

Row order inside each ``COPY`` block is heap order; the generator loads every table in one
COPY, in a fixed row order, into a fresh table, so the heap order is the same on every build.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from heron_pipeline.artifacts.atomic import write_atomic
from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import BIN_DIR, ServerError
from heron_pipeline.database.names import benchmark_database
from heron_pipeline.database.server import Server

#: Oldest pg_dump heron accepts for an external server (the oldest server heron supports).
MIN_PG_DUMP_MAJOR = 16
#: gzip level: 6 is gzip's default, a good size/speed balance for text dumps.
GZIP_LEVEL = 6
_CHUNK = 1 << 20


@dataclass(frozen=True)
class DumpResult:
    path: Path
    sha256: str
    bytes: int
    seconds: float


def dump_name(scale: str, seed: int) -> str:
    return f"{benchmark_database(scale, seed)}.sql.gz"


def restrict_key(scale: str, seed: int) -> str:
    """The fixed ``\\restrict`` key of (scale, seed): alphanumeric, as psql requires."""
    return hashlib.sha256(f"heron dump {scale} {seed}".encode()).hexdigest()[:32]


def pg_dump_path(settings: Settings) -> Path:
    """The embedded wheel's pg_dump, or for an external server the pg_dump on PATH (>= 16)."""
    if settings.is_embedded:
        path = BIN_DIR / "pg_dump"
        if not path.exists():
            raise ServerError(f"the embedded PostgreSQL has no pg_dump at {path}")
        return path
    found = shutil.which("pg_dump")
    if found is None:
        raise ServerError("HERON_DSN names an external server: put pg_dump 16 or newer on PATH")
    major = pg_dump_major(Path(found))
    if major < MIN_PG_DUMP_MAJOR:
        raise ServerError(f"{found} is pg_dump {major}; heron needs {MIN_PG_DUMP_MAJOR} or newer")
    return Path(found)


def pg_dump_major(path: Path) -> int:
    out = subprocess.run([str(path), "--version"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"(\d+)(?:\.\d+)?", out)
    if match is None:
        raise ServerError(f"cannot read the version of {path}: {out!r}")
    return int(match.group(1))


@lru_cache(maxsize=4)
def _supported_options(path: Path) -> frozenset[str]:
    text = subprocess.run([str(path), "--help"], capture_output=True, text=True, check=True).stdout
    return frozenset(re.findall(r"(--[a-z-]+)", text))


def pg_dump_argv(path: Path, dsn: str, scale: str, seed: int) -> list[str]:
    """Plain SQL, no ownership or grants (they name the builder's role), no statistics."""
    argv = [str(path), "--format=plain", "--no-owner", "--no-privileges", "--encoding=UTF8"]
    options = _supported_options(path)
    if "--no-statistics" in options:
        argv.append("--no-statistics")
    if "--restrict-key" in options:  # older pg_dump versions write no \restrict line at all
        argv.append(f"--restrict-key={restrict_key(scale, seed)}")
    return [*argv, f"--dbname={dsn}"]


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def dump_database(server: Server, scale: str, seed: int, out_dir: Path) -> DumpResult:
    """Dump ``heron_<scale>_<seed>`` to ``out_dir`` and write its ``.sha256``; returns both."""
    import time

    started = time.perf_counter()
    database = benchmark_database(scale, seed)
    if not server.database_exists(database):
        raise ServerError(f"{database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / dump_name(scale, seed)
    argv = pg_dump_argv(pg_dump_path(server.settings), server.dsn(database), scale, seed)
    # Session settings that change how values print are pinned, whatever the caller's environment.
    env = {**os.environ, "PGTZ": "UTC", "PGDATESTYLE": "ISO, MDY", "PGCLIENTENCODING": "UTF8"}
    env.pop("PGOPTIONS", None)

    def write(handle) -> None:  # noqa: ANN001
        # stderr goes to a file, not a pipe: a chatty pg_dump can then never block on it.
        with tempfile.TemporaryFile() as errors, \
                subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, env=env) as proc:
            # filename="" and mtime=0: the gzip header carries no name and no time (gzip -n).
            with gzip.GzipFile(filename="", mode="wb", fileobj=handle, compresslevel=GZIP_LEVEL, mtime=0) as gz:
                assert proc.stdout is not None
                for chunk in iter(lambda: proc.stdout.read(_CHUNK), b""):
                    gz.write(chunk)
            if proc.wait() != 0:
                errors.seek(0)
                message = errors.read().decode(errors="replace").strip()[-2000:]
                raise ServerError(f"pg_dump of {database} failed ({proc.returncode}): {message}")

    write_atomic(target, write)  # readers see the old dump or the whole new one, never half of it
    digest = _file_sha256(target)
    write_atomic(target.with_name(target.name + ".sha256"), f"{digest}  {target.name}\n".encode())
    return DumpResult(target, digest, target.stat().st_size, time.perf_counter() - started)
