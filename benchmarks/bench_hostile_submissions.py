"""Hostile submissions against the verifier, before and after "Hardening II": what each one costs.

The same folders are judged by two copies of heron's code: ``before`` (``git archive`` of
``--before-rev``, default the commit before this work) and ``after`` (this checkout). Every run is a
separate process, so its exit code, wall time and peak memory (``ru_maxrss`` of that process, from
``wait4``) are its own; a run that does not end within ``--timeout`` is killed and reported as hung.

No database (``verify(folder, server=None, …)``, the core call ``heron verify`` makes; the process
may use at most 2 GiB of address space, so the old /dev/zero read ends in MemoryError instead of
taking the machine):

1. claims.json a symbolic link to /dev/zero;  2. claims.json a FIFO;  3. claims.json ``[`` × 60,000;
8. a 5 MB predictions.jsonl of repeated valid lines (under the size bound, so it is parsed): the
   checks needing no database only (schema + ``static_checks``, timed inside the process): time,
   listed reasons and verdict size.

On a real server (tiny 42/43; each side gets its own fresh data folder, started before timing):

4. a malformed folder (claims.json without its required claim): time and bytes written (data
   folder + artifacts) until its verdict;
5. the path-traversal folder (tool ``../…/<outside>/escape``): exit code and files written outside
   the artifacts folder;
6. ``heron leaderboard`` over gold + a folder with one 120,177-character SQL: exit code, whether the
   board was published, and the folder's status;
7. a 50 MB predictions.jsonl of repeated valid lines: verdict size, listed reasons, time, memory.

Run (~6-10 min on 2 busy cores; the port must be free):

    HERON_PORT=55106 .venv/bin/python benchmarks/bench_hostile_submissions.py [--before-rev REV] [--only 1,2,3]

Timings are wall-clock on a shared machine: read them as ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "submissions" / "gold"
PYTHON = sys.executable
BEFORE_REV = "ad45a1e"  # the commit before "Hardening II" (the verifier's reading, ordering and limits)
CORE = ("import json, sys; from pathlib import Path; from heron_pipeline.submissions import verify; "
        "v = verify(Path(sys.argv[1]), None, Path(sys.argv[2])); print(json.dumps(v.to_json()))")
STATIC = """
import json, sys, time
from pathlib import Path
from heron_pipeline.bench.inputs import question_set
from heron_pipeline.bench.options import QUESTIONS_DIR
from heron_pipeline.submissions import BoardRules, Verdict, load_expected_fingerprints, load_submission
from heron_pipeline.submissions.verify import _malformed, static_checks
questions, digest = question_set(QUESTIONS_DIR)
start = time.perf_counter()
sub = load_submission(Path(sys.argv[1]))
verdict = Verdict(sub.folder.name, None, None)
_malformed(verdict, sub.folder, sub.problems)
if sub.meta is not None and sub.predictions is not None:
    static_checks(sub, verdict, questions, digest, load_expected_fingerprints(), BoardRules())
print(json.dumps({"seconds": time.perf_counter() - start, "verdict": verdict.to_json()}))
"""
GIB = 1024**3


@dataclass
class Run:
    exit: int | None  # None: killed at the timeout
    seconds: float
    peak_mib: float
    stdout: bytes
    stderr: str

    def status(self) -> str:
        return "hung (killed)" if self.exit is None else f"exit {self.exit}"


def run(cmd: list[str], code: Path, env: dict[str, str], timeout: float, address_space: int | None = None) -> Run:
    """One process: its exit code, wall time, peak RSS (its own ``wait4`` rusage) and output."""
    def limit() -> None:
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    env = {**env, "PYTHONPATH": str(code)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=code, env=env, stdout=out, stderr=err, preexec_fn=limit,
                                start_new_session=True)
        status = usage = None
        while time.perf_counter() - start < timeout:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.05)
        else:
            os.killpg(proc.pid, signal.SIGKILL)
            _pid, status, usage = os.wait4(proc.pid, 0)
            status = None
        proc.returncode = 0  # reaped above; keep Popen from waiting again
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        code_ = None if status is None else os.waitstatus_to_exitcode(status)
        return Run(code_, seconds, usage.ru_maxrss / 1024, out.read(), err.read().decode(errors="replace"))


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else "")[:140]


def codes(run_: Run) -> str:
    try:
        verdict = json.loads(run_.stdout)
    except ValueError:
        return f"no verdict ({last_line(run_.stderr)})"
    reasons = verdict.get("reasons") or []
    return f"{verdict['status']} {verdict['reason_codes']} ({len(reasons)} reasons listed)"


def du(*paths: Path) -> int:
    total = 0
    for path in paths:
        for dirpath, _dirs, files in os.walk(path):
            for name in files:
                try:
                    total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
                except OSError:
                    pass
    return total


def ratio(before: float, after: float) -> str:
    return f"{before / after:,.0f}×" if after > 0 else "—"


def code_tree(rev: str, into: Path) -> Path:
    """``git archive rev`` unpacked into ``into`` (the code as it was)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def gold_copy(where: Path, scale: str = "small", seeds: list[int] | None = None) -> Path:
    """The committed gold submission, optionally re-labelled for tiny (gold SQL is the same)."""
    folder = Path(shutil.copytree(GOLD, where))
    if scale != "small":
        meta = json.loads((folder / "meta.json").read_text())
        meta.update(scale=scale, seeds=seeds or [42, 43], command=f"heron bench --tools gold --scale {scale}")
        meta.pop("run", None)
        (folder / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
        lines = [json.loads(x) for x in (folder / "predictions.jsonl").read_text().splitlines()]
        (folder / "predictions.jsonl").write_text("".join(json.dumps({**r, "scale": scale}, sort_keys=True) + "\n"
                                                          for r in lines))
    return folder


def edit_meta(folder: Path, **changes) -> None:
    meta = json.loads((folder / "meta.json").read_text())
    meta.update(changes)
    (folder / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def no_database(trees: dict[str, Path], work: Path, timeout: float, only: set[int]) -> None:
    if not only & {1, 2, 3}:
        return
    print("\n## Unbounded reads (no database; 2 GiB address-space cap per process)\n")
    print(f"{'case':<28} {'side':<7} {'outcome':<16} {'seconds':>8} {'peak MiB':>9}  verdict")
    for number, case in ((1, "claims.json -> /dev/zero"), (2, "claims.json is a FIFO"),
                         (3, "claims.json '[' x 60,000")):
        if number not in only:
            continue
        runs = {}
        for side, code in trees.items():
            folder = gold_copy(work / f"read{number}-{side}" / "gold")
            claims = folder / "claims.json"
            claims.unlink()
            if number == 1:
                os.symlink("/dev/zero", claims)
            elif number == 2:
                os.mkfifo(claims)
            else:
                claims.write_text("[" * 60_000)
            cmd = [PYTHON, "-c", CORE, str(folder), str(work / f"art{number}-{side}")]
            runs[side] = r = run(cmd, code, dict(os.environ), timeout, address_space=2 * GIB)
            print(f"{case:<28} {side:<7} {r.status():<16} {r.seconds:>8.2f} {r.peak_mib:>9.0f}  {codes(r)}")
        b, a = runs.get("before"), runs.get("after")
        if b and a:
            print(f"{'':<28} ratio   time {ratio(b.seconds, a.seconds)}, peak memory {ratio(b.peak_mib, a.peak_mib)}")


def repeated_lines(trees: dict[str, Path], work: Path, timeout: float) -> None:
    print("\n## 8. 5 MB predictions.jsonl of repeated valid lines: the checks needing no database\n")
    print(f"{'side':<7} {'outcome':<10} {'checks s':>9} {'peak MiB':>9} {'verdict KiB':>12}  reasons")
    runs = {}
    for side, code in trees.items():
        folder = gold_copy(work / f"static8-{side}" / "gold")
        text = (folder / "predictions.jsonl").read_text()
        with open(folder / "predictions.jsonl", "a") as f:
            while f.tell() < 5 * 1024**2:
                f.write(text)
        r = run([PYTHON, "-c", STATIC, str(folder)], code, dict(os.environ), timeout)
        try:
            doc = json.loads(r.stdout)
            seconds, verdict = doc["seconds"], doc["verdict"]
            size = len(json.dumps(verdict)) / 1024
            listed = len(verdict["reasons"])
            omitted = sum(x.get("omitted", 0) for x in verdict["reasons"])
            what = f"{listed:,} listed, {omitted:,} counted, codes {verdict['reason_codes']}"
        except ValueError:
            seconds, size, what = r.seconds, 0.0, f"no verdict ({last_line(r.stderr)})"
        runs[side] = (seconds, size)
        print(f"{side:<7} {r.status():<10} {seconds:>9.2f} {r.peak_mib:>9.0f} {size:>12.1f}  {what}")
    if len(runs) == 2 and runs["after"][0] > 0:
        (bs, bk), (as_, ak) = runs["before"], runs["after"]
        print(f"ratio   checks time {ratio(bs, as_)}, verdict size {ratio(bk, ak)}")


def with_database(side: str, code: Path, work: Path, port: str, timeout: float, only: set[int]) -> dict[int, dict]:
    data = Path(tempfile.mkdtemp(prefix=f"heron-bench-hostile-{side}-"))
    artifacts = Path(tempfile.mkdtemp(prefix=f"heron-bench-hostile-art-{side}-"))
    env = {**os.environ, "HERON_DATA_DIR": str(data), "HERON_ARTIFACT_DIR": str(artifacts), "HERON_PORT": port}
    env.pop("HERON_DSN", None)
    heron = [PYTHON, "-m", "heron_pipeline.cli"]
    found: dict[int, dict] = {}
    try:
        up = run([*heron, "db", "up"], code, env, 600)
        if up.exit != 0:
            raise SystemExit(f"{side}: `heron db up` failed: {last_line(up.stderr)}")
        if 4 in only:
            folder = gold_copy(work / f"{side}-malformed" / "broken", "tiny")
            (folder / "claims.json").write_text("{}\n")  # the required claim is missing
            before_bytes = du(data, artifacts)
            r = run([*heron, "verify", str(folder)], code, env, timeout)
            found[4] = {"run": r, "bytes": du(data, artifacts) - before_bytes}
        if 5 in only:
            outside = work / f"{side}-outside"
            outside.mkdir()
            climb = len((artifacts / "scores").resolve().parts) - 1
            tool = "../" * climb + str(outside.relative_to("/")) + "/escape"
            folder = gold_copy(work / f"{side}-traversal" / "escape", "tiny")
            edit_meta(folder, tool=tool)
            r = run([*heron, "verify", str(folder)], code, env, timeout)
            written = [p for p in outside.rglob("*") if p.is_file()]
            found[5] = {"run": r, "written": written, "tool": tool}
        if 6 in only:
            root = work / f"{side}-board"
            gold_copy(root / "gold", "tiny")
            overlong = gold_copy(root / "overlong", "tiny")
            edit_meta(overlong, tool="overlong")
            lines = [json.loads(x) for x in (overlong / "predictions.jsonl").read_text().splitlines()]
            sql = ("SELECT 1 AS x" + "".join(f", {i} AS c{i}" for i in range(20_000)))[:120_176] + "0"
            lines[0]["sql"] = sql
            (overlong / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
            out = work / f"{side}-published"
            r = run([*heron, "leaderboard", "--submissions", str(root), "--out", str(out)], code, env, timeout)
            status = None
            if (out / "leaderboard.json").is_file():
                doc = json.loads((out / "leaderboard.json").read_text())
                status = next((s["status"] for s in doc["submissions"] if s["folder"] == "overlong"), None)
            found[6] = {"run": r, "published": (out / "leaderboard.json").is_file(), "status": status}
        if 7 in only:
            folder = gold_copy(work / f"{side}-repeated" / "repeated", "tiny")
            text = (folder / "predictions.jsonl").read_text()
            with open(folder / "predictions.jsonl", "a") as f:
                while f.tell() < 50 * 1024**2:
                    f.write(text)
            r = run([*heron, "verify", str(folder)], code, env, timeout)
            found[7] = {"run": r, "size": (folder / "predictions.jsonl").stat().st_size}
    finally:
        run([*heron, "db", "down"], code, env, 300)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(artifacts, ignore_errors=True)
    return found


def report_database(found: dict[str, dict[int, dict]]) -> None:
    sides = [s for s in ("before", "after") if s in found]
    if 4 in found[sides[0]]:
        print("\n## 4. Malformed folder (claims.json without its required claim), `heron verify`, fresh data folder\n")
        for side in sides:
            f = found[side][4]
            r = f["run"]
            print(f"{side:<7} {r.status():<10} {r.seconds:>7.1f} s  {f['bytes'] / 1024**2:>9.1f} MiB written  "
                  f"peak {r.peak_mib:>6.0f} MiB  {codes(r)}")
        if len(sides) == 2:
            b, a = found["before"][4], found["after"][4]
            print(f"ratio   time {ratio(b['run'].seconds, a['run'].seconds)}, bytes written "
                  f"{b['bytes'] / 1024**2:.0f} MiB -> {a['bytes'] / 1024**2:.1f} MiB")
    if 5 in found[sides[0]]:
        print("\n## 5. Path traversal (tool climbs out of <artifacts>/scores), `heron verify`\n")
        for side in sides:
            f = found[side][5]
            r = f["run"]
            where = sorted({str(p.parent) for p in f["written"]})
            print(f"{side:<7} {r.status():<10} {r.seconds:>7.1f} s  files written outside the artifacts: "
                  f"{len(f['written'])} {where[:2]}  {codes(r)}")
    if 6 in found[sides[0]]:
        print("\n## 6. A folder with one 120,177-character SQL, `heron leaderboard` over gold + it\n")
        for side in sides:
            f = found[side][6]
            r = f["run"]
            print(f"{side:<7} {r.status():<10} {r.seconds:>7.1f} s  board published: {f['published']}, "
                  f"the folder: {f['status']}  {'' if r.exit == 0 else last_line(r.stderr)}")
    if 7 in found[sides[0]]:
        print("\n## 7. 50 MB predictions.jsonl of repeated valid lines, `heron verify`\n")
        for side in sides:
            f = found[side][7]
            r = f["run"]
            print(f"{side:<7} {r.status():<10} {r.seconds:>7.1f} s  peak {r.peak_mib:>6.0f} MiB  verdict "
                  f"{len(r.stdout) / 1024:>9.1f} KiB  {codes(r)}")
        if len(sides) == 2:
            b, a = found["before"][7]["run"], found["after"][7]["run"]
            print(f"ratio   time {ratio(b.seconds, a.seconds)}, peak memory {ratio(b.peak_mib, a.peak_mib)}, "
                  f"verdict size {ratio(len(b.stdout), len(a.stdout))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-rev", default=BEFORE_REV, help=f"the code to compare with (default {BEFORE_REV})")
    parser.add_argument("--only", default="1,2,3,4,5,6,7,8", help="scenario numbers, e.g. 1,2,3 (no database)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a database run is killed")
    args = parser.parse_args()
    only = {int(x) for x in args.only.split(",") if x}
    port = os.environ.get("HERON_PORT")
    if only & {4, 5, 6, 7} and not port:
        raise SystemExit("set HERON_PORT to a free port for the benchmark's own servers")
    work = Path(tempfile.mkdtemp(prefix="heron-bench-hostile-"))
    try:
        trees = {"before": code_tree(args.before_rev, work / "before-code"), "after": ROOT}
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        print(f"before = git archive {args.before_rev}; after = {ROOT} (git {head} + working tree)")
        no_database(trees, work, 20.0, only)
        if 8 in only:
            repeated_lines(trees, work, args.timeout)
        if only & {4, 5, 6, 7}:
            found = {side: with_database(side, code, work, port, args.timeout, only) for side, code in trees.items()}
            report_database(found)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
