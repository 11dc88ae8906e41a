"""Standings math on a small synthetic score table, against hand-computed values."""

from __future__ import annotations

import math

import pytest

from heron_pipeline.harness.records import ScoreRecord
from heron_pipeline.harness.aggregate import ToolConditions, compute_standings
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.scoring import bootstrap_ci

TAGS = {"q1": ("single", "named", ("soft-delete",)), "q2": ("join", "1-hop", ("soft-delete", "currency")),
        "q3": ("join", "2-hop+", ())}


def rec(tool, seed, qid, correct, *, sample=0, soft=None, row=None, err=None, em=False, recall=None, tokens=None,
        latency=None, gold_t=None, pred_t=None, cost=None) -> ScoreRecord:
    shape, retrieval, traps = TAGS[qid]
    value = 1.0 if correct else 0.0
    return ScoreRecord(
        tool=tool, scale="tiny", seed=seed, question_id=qid, sample=sample, correct=correct,
        soft_f1=value if soft is None else soft, row_f1=value if row is None else row, error_class=err,
        error=err, pred_row_count=None if err else 1, gold_row_count=1,
        gold_time_s=gold_t, pred_time_s=pred_t, exact_match=em,
        recall_5=recall, recall_10=recall, recall_20=recall, recall_all=recall,
        prompt_tokens=tokens[0] if tokens else None, completion_tokens=tokens[1] if tokens else None,
        latency_s=latency, cost_usd=cost, cached_prompt_tokens=tokens[2] if tokens and len(tokens) > 2 else None,
        shape=shape, retrieval=retrieval, traps=traps)


def tool_a() -> dict[int, list[ScoreRecord]]:
    # billed at $1 / $2 per million prompt / completion tokens when the predictions were made
    usage = {"q1": dict(tokens=(100, 10, 40), latency=1.0, cost=120e-6),
             "q2": dict(tokens=(100, 10, 40), latency=2.0, cost=120e-6),
             "q3": dict(tokens=(100, 10, 0), latency=3.0, cost=120e-6)}
    return {
        42: [rec("a", 42, "q1", True, em=True, recall=1.0, **usage["q1"]),
             rec("a", 42, "q2", True, recall=0.5, **usage["q2"]),
             rec("a", 42, "q3", False, err="error", **usage["q3"])],
        43: [rec("a", 43, "q1", True, em=True, recall=1.0, **usage["q1"]),
             rec("a", 43, "q2", False, soft=0.5, row=0.25, recall=0.5, **usage["q2"]),
             rec("a", 43, "q3", False, err="timeout", **usage["q3"])],
    }


def tool_b() -> dict[int, list[ScoreRecord]]:
    out = {}
    for seed in (42, 43):
        out[seed] = [rec("b", seed, "q1", seed == 42, sample=0), rec("b", seed, "q1", True, sample=1),
                     rec("b", seed, "q2", True, sample=0), rec("b", seed, "q2", True, sample=1),
                     rec("b", seed, "q3", False, sample=0), rec("b", seed, "q3", False, sample=1)]
    return out


def _store(tmp_path, tools) -> list:
    return [store_scores_in(tmp_path / f"{records[0].tool}_{seed}", records)[0]
            for tool in tools for seed, records in tool.items()]


@pytest.fixture
def standings(tmp_path):
    paths = _store(tmp_path, [tool_a(), tool_b()])
    assert len(paths) == 4
    conditions = {"a": ToolConditions(model="m-a", temperature=0.0, usd_per_mtok_prompt=1.0,
                                      usd_per_mtok_completion=2.0)}
    return {t["tool"]: t for t in compute_standings(paths, "tiny", conditions)["tools"]}, compute_standings(
        paths, "tiny", conditions)


def test_execution_accuracy_per_state_and_multi_state(standings) -> None:
    tools, _ = standings
    a = tools["a"]
    assert a["ex1_per_state"] == pytest.approx({"42": 200 / 3, "43": 100 / 3})
    assert a["multi_state_ex1"] == pytest.approx(100 / 3)
    assert a["questions"] == 3


def test_pass_at_k_over_samples_correct_on_every_state(standings) -> None:
    b = standings[0]["b"]
    assert b["conditions"]["n"] == 2
    assert b["multi_state_ex1"] == pytest.approx(100 / 3)  # sample 0 of q1 is wrong on seed 43
    assert b["ex_at_2"] == pytest.approx(200 / 3)  # q1: c=1, n=2 → pass@2 = 1; q2: 1; q3: 0


def test_partial_credit_em_recall_errors(standings) -> None:
    a = standings[0]["a"]
    assert a["soft_f1"] == pytest.approx(100 * (1 + 1 + 1 + 0.5) / 6)
    assert a["row_f1"] == pytest.approx(100 * (1 + 1 + 1 + 0.25) / 6)
    assert a["exact_match"] == pytest.approx(100 / 3)
    assert a["set_recall"] == pytest.approx({"@5": 75.0, "@10": 75.0, "@20": 75.0, "@all": 75.0})
    assert a["errors"] == 1 and a["errors_by_class"] == {"error": 1, "timeout": 1}
    assert standings[0]["b"]["set_recall"]["@all"] is None  # b exposes no retrieval


def test_tokens_cost_latency_count_each_prediction_once(standings) -> None:
    a = standings[0]["a"]
    assert (a["prompt_tokens"], a["completion_tokens"]) == (300, 30)
    assert a["tokens_per_question"] == pytest.approx(110.0)
    assert a["cost_usd"] == pytest.approx((300 * 1.0 + 30 * 2.0) / 1e6)  # summed from the records
    assert a["cached_prompt_tokens"] == 80
    assert standings[0]["b"]["cost_usd"] is None  # b's records carry no cost: unknown, not 0
    assert a["mean_latency_s"] == pytest.approx(2.0)
    assert a["conditions"]["model"] == "m-a" and a["conditions"]["mode"] == "multi-state"
    assert a["conditions"]["seeds"] == [42, 43]


def test_grade_uses_multi_state_ex_and_fixed_reference_points(standings) -> None:
    tools, board = standings
    # a: EX 33.3; rates reliability 66.7, tokens 100 (110/q under the 2,000 reference), latency 100 (2 s,
    # the reference); every non-EX dimension is earned by EX: 33.3 · (.45 + .10·(2/3) + .15 + .10) / .80
    assert tools["a"]["grade"] == pytest.approx(100 / 3 * (0.45 + 0.10 * 2 / 3 + 0.15 + 0.10) / 0.80)
    # b: EX 33.3, reliability 100; no tokens or latency exposed, so those weights drop out: Grade = EX
    assert tools["b"]["grade"] == pytest.approx(100 / 3)
    # the same multi-state EX, but a's errors cost it reliability: b ranks first
    assert [t["tool"] for t in board["tools"]] == ["b", "a"]


def test_bootstrap_ci_is_fixed_seed_and_brackets_the_estimate(standings) -> None:
    a = standings[0]["a"]
    low, high = bootstrap_ci([1.0, 0.0, 0.0], resamples=1000, seed=0)
    assert a["multi_state_ex1_ci"] == pytest.approx([100 * low, 100 * high])
    assert a["multi_state_ex1_ci"][0] <= 100 / 3 <= a["multi_state_ex1_ci"][1]
    assert set(a["ex1_per_state_ci"]) == {"42", "43"}


def test_breakdowns_by_shape_retrieval_trap(standings) -> None:
    bd = standings[0]["a"]["breakdown_multi_state_ex1"]
    assert bd["shape:single"] == {"n": 1, "ex": 100.0}
    assert bd["shape:join"] == {"n": 2, "ex": 0.0}
    assert bd["trap:soft-delete"] == {"n": 2, "ex": 50.0}
    assert bd["trap:currency"] == {"n": 1, "ex": 0.0}
    assert bd["retrieval:named"] == {"n": 1, "ex": 100.0}


def test_ves_and_r_ves_from_timed_correct_predictions(tmp_path) -> None:
    timed = {seed: [rec("c", seed, "q1", True, gold_t=1.0, pred_t=0.25), rec("c", seed, "q2", False),
                    rec("c", seed, "q3", True, gold_t=1.0, pred_t=1.0)] for seed in (42, 43)}
    [c] = compute_standings(_store(tmp_path, [timed]), "tiny")["tools"]
    assert c["ves"] == pytest.approx(100 * (2 + 0 + 1) / 3)  # √(1/0.25) = 2
    assert c["r_ves"] == pytest.approx(100 * (math.sqrt(1.25) + 0 + 1) / 3)  # ratio 4 → bucket 1.25


def test_single_state_headline_and_no_ves_without_timing(tmp_path) -> None:
    records = tool_a()[42]
    board = compute_standings([store_scores_in(tmp_path, records)[0]], "tiny")
    [a] = board["tools"]
    assert board["mode"] == "single-state" and a["conditions"]["mode"] == "single-state"
    assert a["multi_state_ex1"] == pytest.approx(200 / 3) and a["ves"] is None


def test_question_missing_on_a_seed_counts_as_wrong_there(tmp_path) -> None:
    records = tool_a()
    records[43] = [r for r in records[43] if r.question_id != "q1"]
    board = compute_standings(_store(tmp_path, [records]), "tiny")
    assert board["tools"][0]["multi_state_ex1"] == 0.0


def test_scores_of_another_scale_are_refused(tmp_path) -> None:
    path, _ = store_scores_in(tmp_path, tool_a()[42])
    with pytest.raises(ValueError, match="scale"):
        compute_standings([path], "small")
