"""The hidden evaluation's pure parts: the hidden file, the nightly derivation, tool.toml, the paired
bootstrap (hand-checked cases), and the board's hidden side rendered from records."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from heron_pipeline.hidden.paired import GAP_FLAG_POINTS, flagged, mean_ci, paired_difference
from heron_pipeline.hidden.plan import HIDDEN_INSTANCE_MIN, HiddenPlan, night_plan, read_hidden_plan
from heron_pipeline.hidden.toolspec import ToolSpecError, parse_tool_spec, read_tool_spec, render_tool_spec
from heron_pipeline.leaderboard.hidden_board import NOT_CHECKED, attach_hidden, comparisons, trend_svg

SECRET = "0123456789abcdef-test-secret"
INSTANCE = 9_876_543_210_123


def test_toml_plan_reads_seeds_draw_and_secret(tmp_path):
    path = tmp_path / "hidden.toml"
    path.write_text(f'seeds = [1200000000, 1100000000]\ninstance_seed = {INSTANCE}\nsecret = "{SECRET}"\n')
    plan = read_hidden_plan(path)
    assert plan.seeds == (1100000000, 1200000000) and plan.instance_seed == INSTANCE and plan.secret == SECRET
    assert str(INSTANCE) not in repr(plan) and SECRET not in repr(plan) and "1100000000" not in repr(plan)


def test_old_format_is_seeds_only(tmp_path):
    path = tmp_path / "hidden.txt"
    path.write_text("1100000000, 1200000000 # two hidden states\n")
    plan = read_hidden_plan(path)
    assert plan.seeds == (1100000000, 1200000000) and not plan.has_draw


@pytest.mark.parametrize("body, needle", [
    ("seeds = [1100000000]\ninstance_seed = 5\n", "instance_seed must be an integer between"),
    ("seeds = [42]\n", "every seed in seeds must be"),
    ("seeds = [1100000000]\nsecret = \"short\"\n", "secret must be a string of at least 16"),
    ("seeds = [1100000000]\nseed = 3\n", "unknown key(s) seed"),
    ("seeds = []\n", "seeds must be a non-empty list"),
])
def test_bad_plan_names_file_and_key_never_the_value(tmp_path, body, needle):
    path = tmp_path / "hidden.toml"
    path.write_text(body)
    with pytest.raises(ValueError) as err:
        read_hidden_plan(path)
    assert needle in str(err.value) and str(path) in str(err.value)
    assert "instance_seed = 5" not in str(err.value)


def test_a_night_is_the_same_draw_on_the_same_date_and_another_on_another():
    one = night_plan(SECRET, "tiny", dt.date(2026, 12, 5))
    assert night_plan(SECRET, "tiny", dt.date(2026, 12, 5)) == one
    other = night_plan(SECRET, "tiny", dt.date(2026, 12, 6))
    assert other.instance_seed != one.instance_seed and set(other.seeds).isdisjoint(one.seeds)
    assert night_plan(SECRET, "small", dt.date(2026, 12, 5)).instance_seed != one.instance_seed
    assert night_plan(SECRET + "x", "tiny", dt.date(2026, 12, 5)).instance_seed != one.instance_seed
    assert one.label == "night 2026-12-05"
    with pytest.raises(ValueError, match="secret"):
        night_plan("short", "tiny", dt.date(2026, 12, 5))


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=dt.date(2026, 1, 1), max_value=dt.date(2040, 12, 31)))
def test_every_night_is_in_the_hidden_ranges(day):
    plan = night_plan(SECRET, "tiny", day)
    assert plan.instance_seed >= HIDDEN_INSTANCE_MIN and plan.instance_seed < 2**63
    assert len(set(plan.seeds)) == len(plan.seeds) == 2
    assert all(10**9 <= s <= 2**31 - 1 for s in plan.seeds)


# --- paired bootstrap: hand-checked cases -------------------------------------------------------

def test_paired_difference_hand_checked():
    ids = [f"q{i:03d}" for i in range(1, 5)]
    a = dict(zip(ids, [1, 1, 0, 0]))
    b = dict(zip(ids, [1, 0, 0, 0]))
    d = paired_difference(a, b)
    assert d.difference == pytest.approx(25.0) and d.n == 4
    assert 0.0 <= d.low <= 25.0 <= d.high <= 75.0  # the per-question differences are 0,1,0,0: a mean of 0–100 %
    same = paired_difference(a, a)
    assert (same.difference, same.low, same.high) == (0.0, 0.0, 0.0)  # identical answers: no uncertainty
    full = paired_difference({q: 1 for q in ids}, {q: 0 for q in ids})
    assert (full.difference, full.low, full.high) == (100.0, 100.0, 100.0)


def test_pairs_only_shared_questions_and_refuses_none():
    assert paired_difference({"q1": 1, "q2": 0}, {"q2": 1, "q3": 1}).difference == -100.0
    with pytest.raises(ValueError):
        paired_difference({"q1": 1}, {"q2": 1})


def test_flag_needs_the_whole_interval_above_the_threshold():
    ids = [f"q{i:03d}" for i in range(100)]
    copycat = paired_difference({q: 1 for q in ids}, {q: int(i < 20) for i, q in enumerate(ids)})  # 100 vs 20
    assert flagged(copycat)
    honest = paired_difference({q: int(i % 2 == 0) for i, q in enumerate(ids)},
                               {q: int(i % 2 == 0 or i % 7 == 0) for i, q in enumerate(ids)})
    assert honest.difference < 0 and not flagged(honest)
    near = paired_difference({q: int(i < 60) for i, q in enumerate(ids)}, {q: int(i < 48) for i, q in enumerate(ids)})
    assert near.difference == pytest.approx(12.0) and near.low < GAP_FLAG_POINTS and not flagged(near)


def test_mean_ci_is_the_boards_bootstrap():
    ex, ci = mean_ci({"q1": True, "q2": False, "q3": True, "q4": True})
    assert ex == 75.0 and 0 <= ci[0] <= 75.0 <= ci[1] <= 100


# --- tool.toml ----------------------------------------------------------------------------------

def test_cli_spec_with_a_folder(tmp_path):
    (tmp_path / "tool").mkdir()
    spec = parse_tool_spec('protocol = "cli"\ncommand = "python3 answer.py --fast"\npath = "tool"\n', tmp_path)
    assert (spec.protocol, spec.command, spec.path) == ("cli", "python3 answer.py --fast", "tool")
    assert parse_tool_spec(render_tool_spec(spec), tmp_path) == spec


@pytest.mark.parametrize("body, code, needle", [
    ('protocol = "cli"\ncommand = "python3 ../../x.py"\npath = "tool"\n', "malformed", "leaves the submission"),
    ('protocol = "cli"\ncommand = "/usr/bin/python3 a.py"\npath = "tool"\n', "malformed", "leaves the submission"),
    ('protocol = "cli"\ncommand = "a"\npath = "../tool"\n', "malformed", "not a folder inside"),
    ('protocol = "cli"\ncommand = "a"\npath = "/etc"\n', "malformed", "relative"),
    ('protocol = "cli"\ncommand = "a"\npath = "missing"\n', "malformed", "not a folder inside"),
    ('protocol = "cli"\ncommand = "a"\nrequirement = "my-tool>=1.0"\n', "malformed", "pinned"),
    ('protocol = "cli"\ncommand = "a"\nrequirement = "my-tool==1.0"\npath = "tool"\n', "malformed", "exactly one"),
    ('protocol = "cli"\ncommand = ""\npath = "tool"\n', "malformed", "non-empty"),
    ('protocol = "cli"\ncommand = "a \'b"\npath = "tool"\n', "malformed", "cannot be split"),
    ('protocol = "llm"\nadapter = "raw-llm"\nmodel = "other"\ntemperature = 0\n', "model", "not the board's model"),
    ('protocol = "llm"\nadapter = "raw-llm"\nmodel = "gpt-4o"\ntemperature = 0.7\n', "model", "temperature must be 0"),
    ('protocol = "llm"\nadapter = "gold"\nmodel = "gpt-4o"\ntemperature = 0\n', "malformed", "LLM adapters"),
    ('protocol = "llm"\nadapter = "raw-llm"\nmodel = "gpt-4o"\ntemperature = 0\ncommand = "x"\n', "malformed",
     "do not belong"),
    ('protocol = "docker"\n', "malformed", "protocol must be"),
    ('protocol = \n', "malformed", "not TOML"),
])
def test_spec_refusals(tmp_path, body, code, needle):
    (tmp_path / "tool").mkdir()
    with pytest.raises(ToolSpecError) as err:
        parse_tool_spec(body, tmp_path, board_model="gpt-4o")
    assert err.value.code == code and needle in str(err.value) and "tool.toml" in str(err.value)


def test_read_tool_spec_refuses_a_link_and_absent_is_sql_only(tmp_path):
    assert read_tool_spec(tmp_path) is None
    target = tmp_path.parent / "elsewhere.toml"
    target.write_text('protocol = "cli"\n')
    (tmp_path / "tool.toml").symlink_to(target)
    with pytest.raises(ToolSpecError, match="tool.toml"):
        read_tool_spec(tmp_path)


def test_llm_spec_accepts_the_boards_model():
    spec = parse_tool_spec('protocol = "llm"\nadapter = "raw-llm"\nmodel = "gpt-4o"\ntemperature = 0\n',
                           board_model="gpt-4o")
    assert (spec.adapter, spec.model, spec.temperature) == ("raw-llm", "gpt-4o", 0.0)


# --- the board's hidden side, from records ------------------------------------------------------

def _row(tool, folder, per_question, runnable):
    return {"tool": tool, "multi_state_ex1": 100 * sum(per_question.values()) / len(per_question),
            "per_question": per_question, "conditions": {"runnable": runnable},
            "submission": {"folder": folder, "digest": f"d-{folder}"}}


def _record(date, folder, hidden, gap_low, flag):
    return {"date": date, "kind": "night", "label": f"night {date}", "scale": "tiny", "draw_digest": "ab" * 32,
            "hidden_states": 2, "audit": {"passed": True}, "retired": None,
            "tools": [{"folder": folder, "submission_digest": f"d-{folder}", "question_mode": "natural",
                       "public": {"multi_state_ex1": 100.0}, "hidden": {"multi_state_ex1": hidden, "ci": [0, 0]},
                       "gap": {"difference": 100 - hidden, "ci": [gap_low, 100.0], "questions": 4},
                       "flagged": flag, "errors": 0, "errors_by_class": {}, "status": "ran"}]}


def test_attach_hidden_statuses_history_and_comparisons():
    ids = ["q1", "q2", "q3", "q4"]
    board = {"scale": "tiny", "question_mode": "natural",
             "tools": [_row("copycat", "copycat", dict.fromkeys(ids, 1), "cli"),
                       _row("sqlonly", "sqlonly", dict(zip(ids, [1, 1, 0, 0])), None),
                       _row("honest", "honest", dict(zip(ids, [1, 1, 0, 0])), "llm")]}
    records = [_record("2026-12-04", "copycat", 25.0, 40.0, True), _record("2026-12-05", "copycat", 0.0, 75.0, True)]
    attach_hidden([board], records)
    copycat, sqlonly, honest = board["tools"]
    assert copycat["hidden_status"] == "flagged" and copycat["hidden_eval"]["date"] == "2026-12-05"
    assert [p["date"] for p in copycat["history"]] == ["2026-12-04", "2026-12-05"]
    assert sqlonly["hidden_status"] == NOT_CHECKED and sqlonly["hidden_eval"] is None
    assert honest["hidden_status"] == "not run yet"
    first, second = board["comparisons"]
    assert (first["a"], first["b"], first["difference"]) == ("copycat", "sqlonly", 50.0)
    assert second["difference"] == 0.0 and not second["real"]
    svg = trend_svg(copycat["history"])
    assert svg.count("<circle") == 2 and "#c0392b" in svg


def test_comparisons_skip_rows_without_per_question():
    assert comparisons([{"tool": "a", "per_question": {"q1": 1}}, {"tool": "b"}]) == []


def test_a_tool_that_cannot_run_counts_every_question_as_an_error(tmp_path):
    """An LLM tool with no endpoint configured: the run is `not_run`, every question wrong and counted,
    never dropped (a requirement that does not install takes the same path: `RuntimeError` → `not_run`)."""
    from types import SimpleNamespace

    from heron_pipeline.hidden.evaluation import Runnable, tool_row
    from heron_pipeline.hidden.runner import TOOL_NOT_RUN, run_tool
    from heron_pipeline.hidden.toolspec import ToolSpec

    from heron_pipeline.llm.settings import LLMSettings

    spec = ToolSpec("llm", adapter="raw-llm", model="gpt-4o", temperature=0.0)
    questions = [SimpleNamespace(id=f"q{i:03d}") for i in range(1, 6)]
    run = run_tool(tmp_path, spec, "ghost", None, tmp_path / "artifacts", scale="tiny", question_mode="natural",
                   questions=questions, digest="d", audit=None, golds={1: None}, states={1: None},
                   llm=LLMSettings())
    assert run.status == "not_run" and run.errors == 5 and run.errors_by_class == {TOOL_NOT_RUN: 5}
    assert "HERON_LLM_BASE_URL" in run.reason and not any(run.correct.values())
    verdict = SimpleNamespace(folder="ghost", submission_digest="x", tool="ghost", klass="sql",
                              conditions={"question_mode": "natural"},
                              standing={"multi_state_ex1": 60.0, "multi_state_ex1_ci": [20.0, 100.0],
                                        "per_question": {q.id: int(i < 3) for i, q in enumerate(questions)}})
    row = tool_row(Runnable(tmp_path, verdict, spec), run)
    assert row["hidden"]["multi_state_ex1"] == 0.0 and row["gap"]["difference"] == 60.0 and row["errors"] == 5
