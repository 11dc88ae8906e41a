"""tiny|42 from scratch through the Dagster jobs and through `heron bench`, in the same run.

Each side gets its own data folder and embedded server on its own free port (never the user's server
or states). The Dagster side runs the declared jobs with ``execute_job(reconstructable(...),
instance)``, so the executor on the Definitions is the one measured; the CLI side is one
`heron bench --scale tiny --seeds 42` process. The last line is the contract:

    dagster_s=<s> cli_s=<s> ratio=<dagster_s/cli_s> standings_identical=<yes|no>

(identical: every metric of every tool equal, wall-time figures — latency, VES — left out).
Target (issue 8): ratio <= 2.00 and identical.

Run: .venv/bin/python benchmarks/bench_dagster.py
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

#: Figures that measure wall time on this machine, not what a tool got right.
WALL_TIME = {"mean_latency_s", "ves", "r_ves"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def comparable(standings: dict) -> dict:
    """The standings without wall-time figures and without provenance (paths, versions)."""
    doc = json.loads(json.dumps(standings))
    doc.pop("provenance", None)
    for tool in doc["tools"]:
        for key in WALL_TIME:
            tool.pop(key, None)
    return doc


def differences(a, b, path: str = "") -> list[str]:
    """Where two JSON documents differ (paths and both values)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in differences(a.get(k), b.get(k), f"{path}/{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: dagster={a!r} cli={b!r}"]


def newest_standings(artifacts: Path, manifest: Path | None = None) -> dict:
    """The standings a run wrote, found through its own record (manifest or materialization)."""
    doc = json.loads(manifest.read_text())
    return json.loads(Path(doc["standings"]["standings"]["path"]).read_text())


def run_dagster(data_dir: Path, port: int, scale: str, seeds: list[int]) -> tuple[float, dict]:
    from dagster import AssetKey, DagsterInstance

    from dagster_jobs import resources_config, run_scale
    from heron_pipeline.config import Settings
    from heron_pipeline.database.server import Server

    home = Path(tempfile.mkdtemp(prefix="heron-bench-dagster-home-"))
    started = time.perf_counter()
    with DagsterInstance.local_temp(str(home)) as instance:
        run_scale(instance, scale, seeds, resources_config(str(data_dir), port))
        elapsed = time.perf_counter() - started
        if os.environ.get("HERON_BENCH_STEPS"):
            for run in reversed(instance.get_runs()):
                for step in instance.get_run_step_stats(run.run_id):
                    print(f"  {run.job_name:16} {step.step_key:32} {step.end_time - step.start_time:6.2f} s")
        record = instance.get_latest_materialization_event(AssetKey("standings"))
        result = record.asset_materialization.metadata["result"].value
    Server(Settings(data_dir=data_dir, port=port)).down()
    shutil.rmtree(home, ignore_errors=True)
    return elapsed, json.loads(Path(result["standings"]["path"]).read_text())


def run_cli(data_dir: Path, port: int, scale: str, seeds: list[int]) -> tuple[float, dict]:
    env = {**os.environ, "HERON_DATA_DIR": str(data_dir), "HERON_PORT": str(port)}
    env.pop("HERON_DSN", None)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "bench", "--scale", scale,
                           "--seeds", ",".join(map(str, seeds))], env=env, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "db", "down"], env=env, cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"heron bench failed ({done.returncode}): {done.stderr[-2000:]}")
    manifest = next(line.split(": ", 1)[1] for line in done.stderr.splitlines() if line.startswith("run manifest: "))
    return elapsed, newest_standings(data_dir / "artifacts", Path(manifest))


def main(scale: str = "tiny", seeds: str = "42") -> int:
    seed_list = [int(s) for s in seeds.split(",")]
    folders = [Path(tempfile.mkdtemp(prefix=f"heron-bench-{side}-")) for side in ("dagster", "cli")]
    try:
        import_started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import heron_pipeline.definitions"], cwd=ROOT, check=True,
                       capture_output=True)
        import_s = time.perf_counter() - import_started
        dagster_s, dagster_board = run_dagster(folders[0], free_port(), scale, seed_list)
        cli_s, cli_board = run_cli(folders[1], free_port(), scale, seed_list)
    finally:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    identical = comparable(dagster_board) == comparable(cli_board)
    if not identical:
        for line in differences(comparable(dagster_board), comparable(cli_board))[:20]:
            print(f"differs: {line}")
    print(f"import heron_pipeline.definitions (fresh process, incl. interpreter start): {import_s:.2f} s")
    print(f"tools on the board: {[t['tool'] for t in cli_board['tools']]}")
    print(f"dagster_s={dagster_s:.1f} cli_s={cli_s:.1f} ratio={dagster_s / cli_s:.2f} "
          f"standings_identical={'yes' if identical else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
