"""Fixtures of the submission tests: a real tiny bench run on tiny 42/43, packaged by `heron submit`'s
core, and a folder of tampered copies, each of which must be rejected for its own reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

SEEDS = (42, 43)
WRONG_SQL = "SELECT 'no such answer' AS wrong"


def edit_json(path: Path, **changes) -> None:
    doc = json.loads(path.read_text())
    doc.update(changes)
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")


def edit_lines(path: Path, change) -> None:
    """Apply ``change(number, record) -> record | None`` (None drops the line) to every line."""
    out = []
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        record = change(number, json.loads(text))
        if record is not None:
            out.append(json.dumps(record, sort_keys=True))
    path.write_text("\n".join(out) + "\n")


@pytest.fixture(scope="session")
def sub_artifacts(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sub-artifacts")


@pytest.fixture(scope="session")
def gold_run(tiny42, sub_artifacts):
    """`heron bench --tools gold --scale tiny --seeds 42,43` through the bench core (manifest written)."""
    from heron_pipeline.bench import BenchOptions, run_bench

    return run_bench(tiny42, sub_artifacts, BenchOptions(scale="tiny", seeds=SEEDS, tools=("gold",)))


@pytest.fixture(scope="session")
def submissions(gold_run, sub_artifacts, tmp_path_factory) -> Path:
    """gold (reference, accepted), weak-sql (an honest sql submission at 80 %, accepted) and one
    tampered copy per reason code."""
    from heron_pipeline.submissions import package

    root = tmp_path_factory.mktemp("submissions")
    gold = package(sub_artifacts, "gold", "tiny", list(SEEDS), root / "gold")

    def copy(name: str) -> Path:
        return Path(shutil.copytree(gold, root / name))

    weak = copy("weak-sql")  # 20 of 100 answers wrong, an sql-class tool on the board's model
    edit_json(weak / "meta.json", tool="weak-sql", **{"class": "sql"}, model="gpt-4o", temperature=0.0)
    edit_lines(weak / "predictions.jsonl", lambda n, r: {**r, "sql": WRONG_SQL} if n <= 20 else r)
    (weak / "claims.json").write_text(json.dumps({"multi_state_ex1": 80.0}) + "\n")

    claim = Path(shutil.copytree(weak, root / "weak-claim5"))
    edit_json(claim / "claims.json", multi_state_ex1=85.0)
    model = Path(shutil.copytree(weak, root / "weak-model"))
    edit_json(model / "meta.json", model="gpt-3.5-turbo")

    delete = copy("gold-delete")
    edit_lines(delete / "predictions.jsonl",
               lambda n, r: {**r, "sql": "DELETE FROM auth.users WHERE id = 1"} if n == 4 else r)
    missing = copy("gold-missing")
    edit_lines(missing / "predictions.jsonl", lambda n, r: None if n == 10 else r)
    scale = copy("gold-scale")  # tiny predictions presented as small ones
    edit_json(scale / "meta.json", scale="small")
    broken = copy("gold-broken")
    meta = json.loads((broken / "meta.json").read_text())
    meta["n"] = "one"
    del meta["approach"]
    (broken / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return root


@pytest.fixture(scope="session")
def published(tiny42, sub_artifacts, submissions, tmp_path_factory):
    """`heron leaderboard` over the folder above (no hidden seeds): (out folder, document)."""
    from heron_pipeline.leaderboard.publish import publish_leaderboard

    out = tmp_path_factory.mktemp("published")
    return out, publish_leaderboard(tiny42, sub_artifacts, submissions, out)
