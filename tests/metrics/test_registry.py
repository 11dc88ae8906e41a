"""The metric registry: a metric declared in this file alone reaches every face; names are unique;
the built-ins' aggregates, read through the registry, match hand-checked cases."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from heron_pipeline.harness.aggregate import compute_standings, load_scores
from heron_pipeline.harness.records import ScoreRecord
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.metrics import (
    Claim,
    Metric,
    RecordField,
    ToolScores,
    claim_keys,
    get,
    metrics,
    register,
    registered,
)

# --- a throwaway metric, declared here and nowhere else ---------------------------------------------

KEY = "odd_ran"
LABEL = "Odd-ran"


def _odd(question_id: str) -> bool:
    return int(question_id[-1]) % 2 == 1


def _odd_ran(scores: ToolScores) -> dict:
    values = [r["odd_ran_flag"] for r in scores.first]
    return {KEY: 100.0 * sum(values) / len(values) if values else None}


THROWAWAY = Metric(
    name=KEY, label=LABEL, reads=("odd_ran_flag",), fields=(RecordField("odd_ran_flag", "DOUBLE", 0.0),),
    # per record: 1 when the question id ends in an odd digit and the prediction ran (its rows came back)
    record=lambda s: {"odd_ran_flag": float(_odd(s.question.id) and s.pred_rows is not None)},
    aggregate=_odd_ran, claims=(Claim(KEY, tolerance=1.0),))


def test_a_second_registration_of_a_name_is_refused() -> None:
    before = metrics()
    with pytest.raises(ValueError, match="already registered"):
        register(Metric(name="soft_f1", label="Soft-F1 again", aggregate=lambda s: {}))
    with pytest.raises(ValueError, match="another metric writes"):  # a field another metric writes
        register(Metric(name="soft_f1_twin", label="twin", fields=(RecordField("soft_f1", "DOUBLE"),),
                        record=lambda s: {"soft_f1": 0.0}))
    with pytest.raises(ValueError, match="another metric writes"):  # a claim key another metric declares
        register(Metric(name="em_twin", label="twin", aggregate=lambda s: {}, claims=(Claim("exact_match"),)))
    assert metrics() == before


def test_registered_adds_for_the_block_and_restores() -> None:
    before = metrics()
    with registered(THROWAWAY):
        assert metrics()[-1] is THROWAWAY and get(KEY) is THROWAWAY
        assert KEY in claim_keys("sql") and KEY in claim_keys("reference") and KEY not in claim_keys("retrieval")
        with pytest.raises(ValueError, match="already registered"):
            register(THROWAWAY)
    assert metrics() == before and KEY not in claim_keys("sql")
    with pytest.raises(KeyError, match=KEY):
        get(KEY)


def test_a_declaration_must_compute_something_and_name_what_it_writes() -> None:
    with pytest.raises(ValueError, match="computes nothing"):
        Metric(name="idle", label="idle")
    with pytest.raises(ValueError, match="go together"):
        Metric(name="half", label="half", record=lambda s: {"x": 1})


def test_a_score_record_refuses_a_field_nobody_declared() -> None:
    with pytest.raises(TypeError, match="odd_ran_flag"):
        _record("t", 42, "q1", True, odd_ran_flag=1.0)
    with registered(THROWAWAY):
        assert _record("t", 42, "q1", True, odd_ran_flag=1.0).odd_ran_flag == 1.0
        assert _record("t", 42, "q1", True).to_json()["odd_ran_flag"] == 0.0  # the declared default


# --- hand-checked aggregates of built-ins, read through the registry ----------------------------------

def _record(tool, seed, qid, correct, *, sample=0, soft=None, row=None, em=False, err=None, recall=None, **extra):
    value = 1.0 if correct else 0.0
    return ScoreRecord(tool=tool, scale="tiny", seed=seed, question_id=qid, sample=sample, correct=correct,
                       soft_f1=value if soft is None else soft, row_f1=value if row is None else row,
                       error_class=err, error=err, pred_row_count=1, gold_row_count=1,
                       exact_match=em, recall_5=recall, recall_10=recall, recall_20=recall, recall_all=recall,
                       shape="single", retrieval="named", traps=(), **extra)


# (metric, records as (seed, question, correct, options), its figures) — each checkable by hand
CASES = [
    ("multi_state_ex1", [(42, "q1", True, {}), (43, "q1", True, {}), (42, "q2", True, {}), (43, "q2", False, {})],
     {"multi_state_ex1": 50.0}),  # q1 right on both states, q2 on one: 1 of 2
    ("multi_state_ex1", [(42, "q1", True, {}), (42, "q2", True, {}), (43, "q2", True, {})],
     {"multi_state_ex1": 50.0}),  # q1 was not scored on 43: wrong there
    ("ex1_per_state", [(42, "q1", True, {}), (43, "q1", False, {}), (42, "q2", True, {}), (43, "q2", True, {})],
     {"ex1_per_state": {"42": 100.0, "43": 50.0}}),
    ("soft_f1", [(42, "q1", True, {}), (43, "q1", False, {"soft": 0.5}), (42, "q2", False, {"soft": 0.0}),
                 (43, "q2", False, {"soft": 0.5})],
     {"soft_f1": 50.0}),  # mean of 1, .5, 0, .5 over every (question, state)
    ("row_f1", [(42, "q1", False, {"row": 0.25}), (42, "q2", False, {"row": 0.75})], {"row_f1": 50.0}),
    ("exact_match", [(42, "q1", True, {"em": True}), (42, "q2", True, {}), (42, "q3", False, {}),
                     (42, "q4", False, {})], {"exact_match": 25.0}),
    ("exact_match", [(42, "q1", True, {"em": True})], {"exact_match": 100.0}),
    ("errors", [(42, "q1", False, {"err": "timeout"}), (43, "q1", False, {"err": "error"}),
                (42, "q2", False, {"err": "no_sql"}), (43, "q2", True, {})],
     {"errors": 2, "errors_by_class": {"error": 1, "no_sql": 1, "timeout": 1}}),
    ("set_recall", [(42, "q1", True, {"recall": 1.0}), (42, "q2", True, {"recall": 0.5}), (42, "q3", True, {})],
     {"set_recall": {"@5": 75.0, "@10": 75.0, "@20": 75.0, "@all": 75.0}}),  # q3 exposes no tables: left out
    ("set_recall", [(42, "q1", True, {})], {"set_recall": {"@5": None, "@10": None, "@20": None, "@all": None}}),
]


@pytest.mark.parametrize("name, rows, expected", CASES)
def test_builtin_aggregates_through_the_registry(tmp_path: Path, name: str, rows: list, expected: dict) -> None:
    records = [_record("t", seed, qid, correct, **options) for seed, qid, correct, options in rows]
    paths = [store_scores_in(tmp_path / str(seed), [r for r in records if r.seed == seed])[0]
             for seed in sorted({r.seed for r in records})]
    figures = get(name).aggregate(ToolScores(load_scores(paths), "t"))
    assert {k: figures[k] for k in expected} == expected  # the cases' figures are exact binary fractions


def test_grade_is_a_field_figure_of_the_registry(tmp_path: Path) -> None:
    """Two single-state tools, no VES, no telemetry: Grade = (0.45 EX + 0.10 reliability × EX/100) / 0.55
    (reliability is earned only by right answers)."""
    a = [_record("a", 42, "q1", True), _record("a", 42, "q2", False, err="error")]
    b = [_record("b", 42, "q1", True), _record("b", 42, "q2", True)]
    board = compute_standings([store_scores_in(tmp_path / "a", a)[0], store_scores_in(tmp_path / "b", b)[0]], "tiny")
    grades = {t["tool"]: t["grade"] for t in board["tools"]}
    assert grades == pytest.approx({"a": (0.45 * 50 + 0.10 * 50 * 50 / 100) / 0.55, "b": 100.0})
    assert [t["tool"] for t in board["tools"]] == ["b", "a"]


# --- the throwaway metric on every face, through a real bench run and a real verification ------------

@pytest.fixture(scope="module")
def throwaway_run(tiny42, tmp_path_factory):
    """`heron bench --tools gold --scale tiny --seeds 42` and its submission, with the throwaway
    metric registered for the whole module (and removed after it)."""
    from heron_pipeline.bench import BenchOptions, run_bench
    from heron_pipeline.submissions import package

    artifacts = tmp_path_factory.mktemp("metric-artifacts")
    with registered(THROWAWAY):
        result = run_bench(tiny42, artifacts, BenchOptions(scale="tiny", seeds=(42,), tools=("gold",)))
        folder = package(artifacts, "gold", "tiny", [42], tmp_path_factory.mktemp("metric-subs") / "gold")
        yield tiny42, artifacts, result, folder
    assert KEY not in claim_keys("reference")


def _expected(result) -> float:
    """Gold runs every question: the figure is the share of question ids ending in an odd digit."""
    questions = {r["question_id"] for s in result.scores for r in _lines(s.scores.path)}
    return 100.0 * sum(_odd(q) for q in questions) / len(questions)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def test_the_throwaway_metric_is_in_the_records_and_the_standings(throwaway_run) -> None:
    _server, _artifacts, result, _folder = throwaway_run
    expected = _expected(result)
    assert 0 < expected < 100  # a figure that a wrong implementation (0 or 100) would miss
    records = _lines(result.scores[0].scores.path)
    assert {r["odd_ran_flag"] for r in records} == {0.0, 1.0}
    [row] = result.standings.load()["tools"]
    assert row[KEY] == pytest.approx(expected)


def test_the_throwaway_metric_is_in_the_cli_table(throwaway_run) -> None:
    from heron_pipeline.cli_bench import print_standings

    _server, _artifacts, result, _folder = throwaway_run
    standings = result.standings.load()
    out = io.StringIO()
    with redirect_stdout(out):
        print_standings(standings, all_columns=True)  # not a headline figure: in the full table
    text = out.getvalue()
    header = next(line for line in text.splitlines() if "Grade" in line)
    gold = next(line for line in text.splitlines() if " gold " in line)
    assert LABEL in header and f"{standings['tools'][0][KEY]:.1f}" in gold.split("│")[-2]  # the last column


def test_the_throwaway_metric_is_in_the_local_leaderboard_files(throwaway_run) -> None:
    import csv

    _server, _artifacts, result, _folder = throwaway_run
    value = result.standings.load()["tools"][0][KEY]
    files = result.leaderboard
    board = json.loads(files["json"].read_text())["standings"][0]["tools"][0]
    assert board[KEY] == value
    [row] = list(csv.DictReader(io.StringIO(files["csv"].read_text())))
    assert list(row)[-1] == KEY and float(row[KEY]) == round(value, 2)
    md = files["md"].read_text().splitlines()
    header = next(line for line in md if line.startswith("| tool |"))
    gold = next(line for line in md if line.startswith("| gold |"))
    assert header.rstrip(" |").endswith(LABEL) and gold.rstrip(" |").endswith(str(round(value, 2)))


def test_the_throwaway_metric_is_claimed_and_recomputed_by_verification(throwaway_run) -> None:
    from heron_pipeline.leaderboard.publish import leaderboard_document, render_published
    from heron_pipeline.submissions import BoardRules
    from heron_pipeline.submissions.verify import verify

    server, artifacts, result, folder = throwaway_run
    expected = _expected(result)
    claims = json.loads((folder / "claims.json").read_text())
    assert claims[KEY] == pytest.approx(expected)  # `heron submit` claims it
    verdict = verify(folder, server, artifacts, expected={})
    assert verdict.accepted, verdict.reasons
    assert verdict.reproduced[KEY] == pytest.approx(expected)  # recomputed, not copied
    html = render_published(leaderboard_document([verdict], BoardRules(), {}, None))["index.html"]
    table = html[html.index('<table class="sortable standings"'):]
    table = table[:table.index("</table>")]
    assert f'<th class="">{LABEL}</th>' in table and f'data-sort="{verdict.standing[KEY]:.6f}"' in table
    # a claim above the recomputed figure by more than the declared tolerance (1 point) is a claim_gap
    (folder / "claims.json").write_text(json.dumps({**claims, KEY: expected + 1.5}))
    gap = verify(folder, server, artifacts, expected={})
    assert gap.codes == ["claim_gap"] and gap.reasons[0]["field"] == KEY and "tolerance 1 points" in \
        gap.reasons[0]["detail"]
    (folder / "claims.json").write_text(json.dumps({**claims, KEY: expected + 0.5}))
    assert verify(folder, server, artifacts, expected={}).accepted  # within the tolerance
