"""Build one state with 1 generate worker and with N, alternated, and compare: fingerprints, speed, memory.

Each run is a whole ``heron seed --scale S --seed K --force --generate-workers W`` in a child
process; while it runs, the RSS of its process tree (the CLI, the block workers, the row-digest
process — not the PostgreSQL server, which ``heron db up`` started beforehand) is sampled from
/proc every 0.1 s. The script prints each run's wall time, its build line, the peak RSS of the
tree (sum over its processes at one instant) and of its largest process, then the fingerprint
equality (it fails when they differ: the fan-out must not move a byte), the median speed-up
(wall of 1 worker / wall of N) and the peaks. Runs alternate, so a busy neighbour slows both
sides alike; on a shared machine only the ratio means anything.

``--write-throughput`` stores the measured throughput of the runs with the default worker count
(the median run: rows, the build's own seconds, bytes on disk) in
``heron_pipeline/seeding/throughput.json``, which ``heron seed --dry-run`` projects from.

    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/heron db up
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/python benchmarks/bench_fanout.py \\
        --scale small --seed 42 --workers 2 --pairs 1 --write-throughput
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))


@dataclass
class Run:
    generate_workers: int
    wall: float
    built: str
    fingerprint: str
    rows: int
    build_seconds: float  # the sum of the build's phases, as the build line gives them
    peak_tree_bytes: int
    peak_process_bytes: int
    client_cpu: float  # CPU seconds of the heron seed process tree (user + system)
    server_cpu: float  # CPU seconds of the server's backends that ended meanwhile (reaped by the postmaster)


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
    except OSError:
        pass
    return found


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def tree_rss(root: int) -> tuple[int, int]:
    """(sum of RSS over ``root`` and its descendants, the largest one's RSS), from /proc."""
    total, largest, todo = 0, 0, [root]
    while todo:
        pid = todo.pop()
        rss = _rss(pid)
        total, largest = total + rss, max(largest, rss)
        todo.extend(_children(pid))
    return total, largest


def server_cpu_seconds() -> float:
    """CPU seconds the embedded server's postmaster and its reaped children (the backends of closed
    connections) have used; 0.0 when the server's pid is not readable (HERON_DSN, another host)."""
    try:
        pid = int((Path(os.environ["HERON_DATA_DIR"]) / "pgdata" / "postmaster.pid").read_text().split()[0])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (KeyError, OSError, ValueError, IndexError):
        return 0.0
    # fields[0] is the state (field 3): utime, stime, cutime, cstime are fields 14-17
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def seed_once(scale: str, seed: int, workers: int, generate_workers: int) -> Run:
    env = dict(os.environ, PYTHONPATH=str(HERE))
    command = [sys.executable, "-m", "heron_pipeline.cli", "seed", "--scale", scale, "--seed", str(seed), "--force",
               "--workers", str(workers), "--generate-workers", str(generate_workers)]
    server_before, client_before = server_cpu_seconds(), resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peaks = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            total, largest = tree_rss(child.pid)
            peaks[0], peaks[1] = max(peaks[0], total), max(peaks[1], largest)
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = child.communicate()
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    client_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = (client_after.ru_utime + client_after.ru_stime) - (client_before.ru_utime + client_before.ru_stime)
    server_cpu = server_cpu_seconds() - server_before
    if child.returncode != 0:
        raise SystemExit(f"heron seed --generate-workers {generate_workers} failed ({child.returncode}): "
                         f"{err.strip()[-800:]}")
    text = out + err
    built = next((line for line in text.splitlines() if line.startswith("built ")), "")
    found = re.search(r"fingerprint ([0-9a-f]{64})", text)
    counted = re.search(r"built \S+: ([\d,]+) rows .*?, ([\d.]+) s \(", built)
    if not found or not counted:
        raise SystemExit(f"could not read the build line and fingerprint from heron seed's output:\n{text[-800:]}")
    return Run(generate_workers, wall, built, found.group(1), int(counted.group(1).replace(",", "")),
               float(counted.group(2)), *peaks, client_cpu, server_cpu)


def machine() -> str:
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal:"))
    return (f"{os.cpu_count()} cores, {memory / 2**20:.0f} GB RAM, shared with other sessions "
            f"(load average {os.getloadavg()[0]:.1f} at the end)")


def write_measured(args: argparse.Namespace, runs: list[Run]) -> None:
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.server import Server
    from heron_pipeline.seeding.fanout import DEFAULT_GENERATE_WORKERS
    from heron_pipeline.seeding.throughput import Throughput, THROUGHPUT_FILE, write_throughput

    chosen = sorted((r for r in runs if r.generate_workers == DEFAULT_GENERATE_WORKERS), key=lambda r: r.build_seconds)
    if not chosen:
        raise SystemExit(f"--write-throughput needs runs with the default {DEFAULT_GENERATE_WORKERS} generate worker(s)")
    median = chosen[len(chosen) // 2]
    server = Server(load_settings())
    with server.connect() as conn:
        size = conn.execute("SELECT pg_database_size(%s)", (f"heron_{args.scale}_{args.seed}",)).fetchone()[0]
    write_throughput(Throughput(machine=machine(), date=datetime.date.today().isoformat(), scale=args.scale,
                                seed=args.seed, rows=median.rows, seconds=round(median.build_seconds, 1),
                                bytes_on_disk=size, generate_workers=median.generate_workers,
                                loader_workers=args.workers, client_cpu_seconds=round(median.client_cpu, 1),
                                server_cpu_seconds=round(median.server_cpu, 1)))
    print(f"wrote {THROUGHPUT_FILE.relative_to(HERE)}: {median.rows / median.build_seconds:,.0f} rows/s, "
          f"{size / median.rows:,.0f} bytes/row on disk")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--workers", type=int, default=2, help="loader connections, the same for every run")
    parser.add_argument("--generate-workers", type=int, default=2, help="N, compared with 1")
    parser.add_argument("--pairs", type=int, default=1)
    parser.add_argument("--write-throughput", action="store_true")
    args = parser.parse_args()
    if "HERON_DATA_DIR" not in os.environ and "HERON_DSN" not in os.environ:
        raise SystemExit("set HERON_DATA_DIR (and HERON_PORT) or HERON_DSN to the server to build on")
    runs: list[Run] = []
    for pair in range(args.pairs):
        for count in (1, args.generate_workers):
            run = seed_once(args.scale, args.seed, args.workers, count)
            runs.append(run)
            print(f"pair {pair + 1} generate-workers {count}: {run.wall:6.1f} s wall, peak RSS tree "
                  f"{run.peak_tree_bytes / 2**20:,.0f} MiB (largest process {run.peak_process_bytes / 2**20:,.0f} MiB)"
                  f", CPU client {run.client_cpu:.1f} s server {run.server_cpu:.1f} s  {run.built}", flush=True)
    one = [r for r in runs if r.generate_workers == 1]
    many = [r for r in runs if r.generate_workers == args.generate_workers]
    prints = {r.fingerprint for r in runs}
    print(f"fingerprints: 1 worker {sorted({r.fingerprint for r in one})}, "
          f"{args.generate_workers} workers {sorted({r.fingerprint for r in many})}: "
          f"{'equal' if len(prints) == 1 else 'DIFFERENT'}")
    wall_one, wall_many = statistics.median(r.wall for r in one), statistics.median(r.wall for r in many)
    print(f"heron seed --scale {args.scale} --seed {args.seed} --workers {args.workers}, median of {args.pairs}: "
          f"1 generate worker {wall_one:.1f} s, {args.generate_workers} generate workers {wall_many:.1f} s, "
          f"speed-up {wall_one / wall_many:.2f}x (wall of 1 / wall of {args.generate_workers})")
    print(f"peak RSS of the build's process tree: 1 worker {max(r.peak_tree_bytes for r in one) / 2**20:,.0f} MiB, "
          f"{args.generate_workers} workers {max(r.peak_tree_bytes for r in many) / 2**20:,.0f} MiB; "
          f"largest process {max(r.peak_process_bytes for r in runs) / 2**20:,.0f} MiB")
    print(f"machine: {machine()}")
    if len(prints) != 1:
        raise SystemExit("the fingerprints differ")
    if args.write_throughput:
        write_measured(args, runs)


if __name__ == "__main__":
    main()
