"""Issue 33's attacks through `heron bench`, on tiny 42/43/44 in natural mode, for one heron checkout.

Each attack is a `cli` tool (benchmarks/attack_tools/adversary.py) scored next to gold in one run; the
script prints the attacker's row (multi-state EX@1, Grade, EM, VES, errors) and gold's Grade in that
run. Run it on this checkout and on an older one in the same session to get before → after:

    .venv/bin/python benchmarks/attack_board.py                          # this checkout
    git worktree add /tmp/heron-before bcb335d
    .venv/bin/python benchmarks/attack_board.py --root /tmp/heron-before # the same attacks, older code

Both use the running server (`heron db url`) through HERON_DSN and a fresh artifact folder each.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODES = ("nothing", "fail", "constants", "ungated", "gated", "liar")


def run(root: Path, mode: str, dsn: str, artifacts: Path) -> dict:
    tool = f"{sys.executable} {HERE / 'attack_tools' / 'adversary.py'} {mode}"
    env = {**os.environ, "PYTHONPATH": str(root), "HERON_DSN": dsn, "HERON_ARTIFACT_DIR": str(artifacts),
           "HERON_ATTACK_ROOT": str(root), "HERON_CLI_PASS_ENV": "HERON_ATTACK_ROOT"}
    command = [sys.executable, "-m", "heron_pipeline.cli", "bench", "--scale", "tiny", "--seeds", "42,43,44",
               "--tools", "gold,cli", "--cli-command", tool, "--cli-name", f"attack-{mode}",
               "--question-mode", "natural"] + (["--ves"] if mode in ("gated", "ungated", "liar") else [])
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    path = max(glob.glob(str(artifacts / "standings" / "tiny" / "natural" / "*.json")), key=os.path.getmtime)
    rows = {r["tool"]: r for r in json.loads(Path(path).read_text())["tools"]}
    me = rows[f"attack-{mode}"]
    return {"multi_state_ex1": me.get("multi_state_ex1"), "grade": me.get("grade"), "em": me.get("exact_match"),
            "ves": me.get("ves"), "errors": me.get("errors"), "gold_grade": rows["gold"].get("grade"),
            "timing_divergent": me.get("timing_divergent")}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(ROOT), help="the heron checkout to run (default: this one)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--dsn", default="", help="the server (default: `heron db url` of this checkout)")
    args = parser.parse_args()
    dsn = args.dsn or subprocess.run([str(ROOT / ".venv" / "bin" / "heron"), "db", "url"], capture_output=True,
                                     text=True, check=True).stdout.strip().splitlines()[-1]
    for mode in args.modes.split(","):
        artifacts = Path(tempfile.mkdtemp(prefix=f"heron-attack-{mode}-"))
        result = run(Path(args.root), mode, dsn, artifacts)
        print(f"{Path(args.root).name} {mode:10} " + " ".join(f"{k}={v if not isinstance(v, float) else round(v, 1)}"
                                                           for k, v in result.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
