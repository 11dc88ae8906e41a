"""Issue 29 end to end on tiny 42/43/44: a copycat cli tool and an honest scripted LLM tool, made by
`heron bench` + `heron submit --runnable`, evaluated on a hidden draw, on two nights, retired and
recomputed — and the hidden instance seed found in no file the runs wrote and no message they said."""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

import pytest

from heron_pipeline.hidden.evaluation import read_records, record_name
from heron_pipeline.hidden.plan import HiddenPlan, night_plan
from heron_pipeline.leaderboard.nightly import recompute_record, retire_record, run_night
from heron_pipeline.leaderboard.publish import publish_leaderboard
from heron_pipeline.llm.settings import LLMSettings
from heron_pipeline.submissions import BoardRules
from tests.hidden.scripted import BOARD_MODEL, answers_of, honest_responder, make_submissions
from tests.llm.fake_openai import FakeOpenAI

INSTANCE = 7_301_944_120_557_913_001
SECRET = "night-secret-for-the-test-only-0123456789"
# the hidden states are the first night's (its draw is another): two fewer tiny builds for the suite
PLAN = HiddenPlan(seeds=(1_076_552_066, 1_583_508_435), instance_seed=INSTANCE, secret=SECRET)
# past dates: the hidden_night asset's daily partitions end today (a test run on 2026-12-05 has no 12-06)
DAY, NEXT = dt.date(2026, 12, 2), dt.date(2026, 12, 3)
pytestmark = pytest.mark.e2e  # four bench runs, three draws and a Dagster night: minutes


@pytest.fixture(scope="module")
def python3_itself():
    """`python3` on PATH is the interpreter the venv was made from, not a version manager's shim: the copycat
    is started ~700 times here, and pyenv's shim (a bash script) took 104 ms a start on these machines where
    the interpreter itself takes 37 ms (issue 30). It is the interpreter the shim would have started."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{Path(sys.base_prefix) / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
        yield


@pytest.fixture(scope="module")
def board(server, settings, tmp_path_factory, python3_itself):
    root = tmp_path_factory.mktemp("hidden-board")
    paths = {k: root / k for k in ("artifacts", "submissions", "published", "evaluations")}
    nights = [night_plan(SECRET, "tiny", d) for d in (DAY, NEXT)]
    said: list[str] = []
    timing = {}
    with FakeOpenAI() as fake:
        fake.responder = honest_responder(answers_of([INSTANCE, *(n.instance_seed for n in nights)]))
        llm = LLMSettings(model=BOARD_MODEL, base_url=fake.url(), timeout_s=30, max_retries=0)
        made = make_submissions(server, paths["artifacts"], paths["submissions"], llm)
        common = dict(board=BoardRules(model=BOARD_MODEL), evaluations=paths["evaluations"], llm=llm, say=said.append)
        doc = publish_leaderboard(server, paths["artifacts"], paths["submissions"], paths["published"],
                                  hidden_seeds=[], plan=PLAN, today=DAY, **common)
        started = time.perf_counter()
        first = run_night(server, paths["artifacts"], PLAN, scale="tiny", date=DAY,
                          submissions=paths["submissions"], out=paths["published"], **common)
        timing["night"] = time.perf_counter() - started
        again = run_night(server, paths["artifacts"], PLAN, scale="tiny", date=DAY,
                          submissions=paths["submissions"], out=paths["published"], **common)
        second = run_night(server, paths["artifacts"], PLAN, scale="tiny", date=NEXT,
                           submissions=paths["submissions"], out=paths["published"], **common)
        dagster_night = _dagster_night(server, settings, paths, fake.url(), root)
        final = json.loads((paths["published"] / "leaderboard.json").read_text())
        secrets = [INSTANCE, *(n.instance_seed for n in nights)]
        written = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
        hidden_record = next(p for p in paths["evaluations"].iterdir() if "_hidden_" in p.name)
        retire_record(hidden_record, PLAN, today=DAY, force=True)
        recomputed, problems = recompute_record(server, paths["artifacts"], hidden_record,
                                                board=BoardRules(model=BOARD_MODEL),
                                                submissions=paths["submissions"], llm=llm, say=said.append)
    yield {"paths": paths, "made": made, "doc": doc, "nights": (first, again, second), "final": final,
           "said": said, "written": written, "secrets": secrets, "problems": problems, "timing": timing,
           "hidden_record": hidden_record, "recomputed": recomputed, "dagster_night": dagster_night}


def _dagster_night(server, settings, paths, llm_url, root):
    """The `hidden_night` asset materialized for NEXT's partition (the night already ran through the CLI
    core): its metadata, and the hidden file it read (written the way a maintainer writes it)."""
    from dagster import materialize

    from heron_pipeline.defs.resources import HeronServer
    from heron_pipeline.defs.submissions import PublishConfig
    from heron_pipeline.defs.submissions.hidden import hidden_night

    hidden_file = root / "maintainer" / "hidden.toml"
    hidden_file.parent.mkdir()
    hidden_file.write_text(f"seeds = {list(PLAN.seeds)}\ninstance_seed = {INSTANCE}\nsecret = \"{SECRET}\"\n")
    saved = {k: os.environ.get(k) for k in ("HERON_LLM_BASE_URL", "HERON_LLM_MODEL")}
    os.environ.update({"HERON_LLM_BASE_URL": llm_url, "HERON_LLM_MODEL": BOARD_MODEL})
    try:
        result = materialize([hidden_night], partition_key=NEXT.isoformat(), resources={
            "heron": HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port,
                                 artifact_dir=str(paths["artifacts"])),
            "publish": PublishConfig(submissions_dir=str(paths["submissions"]), out_dir=str(paths["published"]),
                                     evaluations_dir=str(paths["evaluations"]), board_model=BOARD_MODEL,
                                     hidden_seeds_file=str(hidden_file), night_scale="tiny")})
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
    hidden_file.unlink()  # the maintainer's file is not among the files the runs wrote
    assert result.success
    return {k: v.value for k, v in result.asset_materializations_for_node("hidden_night")[0].metadata.items()}


def test_the_dagster_night_shows_the_draw_digest_and_audit_verdict_never_a_seed(board):
    meta = board["dagster_night"]
    second = board["nights"][2]
    assert meta["draw_digest"] == second["draw_digest"] and meta["audit"] == "passed"
    assert meta["tools_evaluated"] == 2 and meta["night"] == "night 2026-12-03"
    for secret in board["secrets"]:
        assert str(secret) not in json.dumps(meta, default=str)


def _rows(doc):
    return {row["tool"]: row for b in doc["standings"] for row in b["tools"]}


def test_copycat_is_flagged_and_the_honest_tool_is_not(board):
    rows = _rows(board["doc"])
    copycat, honest = rows["copycat"], rows["raw-llm"]
    assert copycat["multi_state_ex1"] >= 95 and honest["multi_state_ex1"] >= 95  # both ~100 on the public draw
    c, h = copycat["hidden_eval"], honest["hidden_eval"]
    assert c["hidden"]["multi_state_ex1"] <= 60, c  # memorised constants are wrong on the hidden draw
    assert c["flagged"] and copycat["hidden_status"] == "flagged" and c["gap"]["ci"][0] > 10
    assert h["hidden"]["multi_state_ex1"] >= 95 and not h["flagged"] and honest["hidden_status"] == "checked"
    assert c["draw_digest"] == h["draw_digest"] and c["hidden_states"] == 2


def test_the_hidden_instance_seed_is_in_no_file_and_no_message(board):
    for secret in board["secrets"]:
        needle = str(secret).encode()
        leaks = [str(p) for p, data in board["written"].items() if needle in data or needle in str(p).encode()]
        assert not leaks, leaks
        assert not [m for m in board["said"] if str(secret) in m]
    for seed in [*PLAN.seeds, *(s for n in (DAY, NEXT) for s in night_plan(SECRET, "tiny", n).seeds)]:
        assert not [m for m in board["said"] if str(seed) in m]  # nor a hidden data seed in a message
    assert any("‹hidden›" in m for m in board["said"])  # the states were named, with the seed hidden


def test_the_plans_states_are_the_first_nights():
    assert night_plan(SECRET, "tiny", DAY).seeds == PLAN.seeds


def test_a_night_is_one_draw_per_date(board):
    first, again, second = board["nights"]
    assert first["draw_digest"] == again["draw_digest"] and first["audit_passed"]
    assert second["draw_digest"] != first["draw_digest"]
    names = sorted(p.name for p in board["paths"]["evaluations"].iterdir())
    assert len([n for n in names if "_night_" in n]) == 2, names  # the rerun rewrote the same record
    rows = _rows(board["final"])
    assert [p["date"] for p in rows["copycat"]["history"]] == ["2026-12-02", "2026-12-02", "2026-12-03"]
    # the record of a night holds aggregates only: no seed until it is retired, no per-question results
    assert rows["copycat"]["hidden_eval"]["kind"] == "night"


def test_a_retired_draw_recomputes_exactly(board):
    record = json.loads(board["hidden_record"].read_text())
    assert record["retired"]["instance_seed"] == INSTANCE and record["retired"]["seeds"] == list(PLAN.seeds)
    assert board["problems"] == []
    assert {t["folder"] for t in board["recomputed"]["tools"]} == {"copycat", "honest"}


def test_the_page_shows_hidden_gap_flag_history_and_comparisons(board):
    page = (board["paths"]["published"] / "index.html").read_text()
    assert 'data-tool="copycat" data-status="flagged"' in page
    assert "public answers not reproduced on a hidden draw" in page
    assert 'class="trend"' in page and 'id="paired-comparisons"' in page
    md = (board["paths"]["published"] / "LEADERBOARD.md").read_text()
    assert "## Hidden evaluation" in md and " vs " in md


def test_the_page_regenerates_byte_for_byte_from_submissions_and_records(board, server, tmp_path):
    paths = board["paths"]
    publish_leaderboard(server, paths["artifacts"], paths["submissions"], tmp_path / "again",
                        board=BoardRules(model=BOARD_MODEL), evaluations=paths["evaluations"])
    publish_leaderboard(server, paths["artifacts"], paths["submissions"], tmp_path / "twice",
                        board=BoardRules(model=BOARD_MODEL), evaluations=paths["evaluations"])
    for name in ("leaderboard.json", "LEADERBOARD.md", "index.html"):
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "twice" / name).read_bytes()
    assert read_records(paths["evaluations"])[0]["format"] == "heron-hidden-evaluation/1"
    assert all(record_name(r) for r in read_records(paths["evaluations"]))
