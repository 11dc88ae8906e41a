"""Scoring time with and without the diagnosis metrics (cause with trap attribution, table recall,
table precision).

The issue's budget: the diagnosis may cost at most 1.2× the scoring time ("extra scoring time for
100 questions × 3 states, as a ratio to scoring without the diagnosis in the same run"). Scores one
tool's predictions on every given state several times, alternating a registry without the three
diagnosis metrics (baseline), the full registry, and the full registry given no trap mutant answers
(the diagnosis before trap attribution), in the same process; prints the ratios of the medians. Both are given the states' stored trap mutant answers (computed once before timing, as the
bench core does next to the gold): the baseline ignores them, the diagnosis compares each wrong
answer that reaches the trap step with them.

Use a tool with many wrong answers (the diagnosis runs only on wrong ones). Without a predictions
file, the predictions are tests/diagnosis/wrong_tool.py's known-wrong SQL for every question (a
fifth with the soft-delete filters dropped: the trap step is exercised and often matches).

Run: HERON_PORT=… PYTHONPATH=. .venv/bin/python benchmarks/bench_diagnosis.py [PREDICTIONS.jsonl|-] [scale]
     [seeds, e.g. 42,43,44] [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.artifacts import read_jsonl  # noqa: E402
from heron_pipeline.bench.gold import compute_mutant_answers, trap_table  # noqa: E402
from heron_pipeline.bench.states import existing_state  # noqa: E402
from heron_pipeline.config import PROJECT_ROOT, load_settings  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.harness.scorer import score_state  # noqa: E402
from heron_pipeline.harness.state_run import state_run  # noqa: E402
from heron_pipeline.metrics import builtin, registry  # noqa: E402
from heron_pipeline.mutants.answers import read_mutant_answers  # noqa: E402
from heron_pipeline.questions import sql_facts  # noqa: E402
from heron_pipeline.predictions.record import PredictionRecord  # noqa: E402
from heron_pipeline.questions.model import load_questions  # noqa: E402
from tests.diagnosis.wrong_tool import broken  # noqa: E402

DIAGNOSIS = ("table_recall", "table_precision", "wrong_by_cause")


def main(predictions: str = "-", scale: str = "tiny", seeds: str = "42,43,44", rounds: str = "5") -> int:
    settings = load_settings()
    server = Server(settings)
    questions = load_questions(PROJECT_ROOT / "questions")
    if predictions == "-":
        preds = [PredictionRecord(q.id, 0, broken(i, q.gold_sql)) for i, q in enumerate(questions)]
    else:
        preds = [PredictionRecord.from_json(r) for r in read_jsonl(Path(predictions))]
    table = trap_table(questions)
    states = []
    for seed in (int(s) for s in seeds.split(",")):
        run = state_run(server, scale, seed)
        gold = {q.id: list(run.run_gold(q.gold_sql).rows) for q in questions}
        ref = compute_mutant_answers(server, settings.artifacts, existing_state(server, settings.artifacts, scale, seed),
                                     questions, gold, table)
        states.append((run, gold, read_mutant_answers(ref.path), ref))

    def score_all(traps: bool = True) -> list:
        return [r for run, gold, answers, _ in states
                for r in score_state("bench", questions, preds, gold, run, mutant_answers=answers if traps else None)]

    full = dict(registry._REGISTRY)  # a benchmark may reach in: it restores the registry below
    without = {k: v for k, v in full.items() if k not in DIAGNOSIS}
    records: list = []
    times: dict[str, list[float]] = {"baseline": [], "diagnosis": [], "no traps": []}
    score_all()  # warm-up: caches, connections
    try:
        for _ in range(int(rounds)):
            for name, metrics in (("baseline", without), ("diagnosis", full), ("no traps", full)):
                registry._REGISTRY.clear()
                registry._REGISTRY.update(metrics)
                # cold parse caches each round, as on the first state of a run (EM's too, for both)
                for cached in (builtin._exact_match, builtin._linking, sql_facts.parse):
                    cached.cache_clear()
                started = time.perf_counter()
                scored = score_all(traps=name != "no traps")
                times[name].append(time.perf_counter() - started)
                records = scored if name == "diagnosis" else records
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(full)
    wrong = sum(not r.correct for r in records)
    causes = Counter(r.cause for r in records if not r.correct)
    stored = sum(len(m) for _, _, answers, _ in states for m in answers.values())
    base, diag = statistics.median(times["baseline"]), statistics.median(times["diagnosis"])
    print(f"{len(preds)} predictions × {len(states)} states ({wrong} wrong records) on {scale} {seeds}, "
          f"{stored} stored trap mutant answers ({', '.join(f'{ref.path.stat().st_size:,} B' for *_, ref in states)}), "
          f"{rounds} rounds: baseline {base:.3f} s, with diagnosis {diag:.3f} s, ratio {diag / base:.3f} (budget 1.2); "
          f"the diagnosis without trap answers: ratio {statistics.median(times['no traps']) / base:.3f}")
    print("causes of the wrong records: " + ", ".join(f"{c} {n}" for c, n in sorted(causes.items())))
    print(diagnose_alone(questions, preds, states, base))
    return 0


def diagnose_alone(questions, preds, states, baseline_s: float) -> str:
    """The diagnosis function alone (pure CPU, no database), over every prediction on every state,
    with and without the trap answers: a figure the database's noise under load does not blur."""
    from heron_pipeline.diagnosis import diagnose
    from heron_pipeline.scoring import compare

    by_id = {q.id: q for q in questions}
    cases = []
    for run, gold, answers, _ in states:
        for p in preds:
            q = by_id[p.question_id]
            try:
                rows = list(run.execute(p.sql).rows) if p.sql else None
            except Exception as err:  # noqa: BLE001 — a failed prediction: its class, as the scorer records it
                rows, kind = None, run.classify(err)
            else:
                kind = None
            correct = compare(q.gold_sql, gold[q.id], rows)
            cases.append((q, p, gold[q.id], rows, correct, kind, answers.get(q.id, ())))
    spent = {}
    for traps in (True, False):
        best = float("inf")
        for _ in range(5):
            sql_facts.parse.cache_clear()
            started = time.perf_counter()
            for q, p, gold, rows, correct, kind, answers in cases:
                diagnose(correct=correct, error_class=kind, pred_sql=p.sql, gold_sql=q.gold_sql,
                         gold_tables=q.gold_tables, gold_rows=gold, pred_rows=rows,
                         mutant_answers=answers if traps else (), question_traps=[t.value for t in q.traps])
            best = min(best, time.perf_counter() - started)
        spent[traps] = best
    return (f"diagnose() alone over {len(cases)} scored predictions (best of 5): {spent[True]:.3f} s with trap "
            f"answers, {spent[False]:.3f} s without; the trap step adds {spent[True] - spent[False]:.3f} s = "
            f"{(spent[True] - spent[False]) / baseline_s:.3f}× of the baseline scoring time, the whole diagnosis "
            f"{spent[True] / baseline_s:.3f}×")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
