"""Scoring time with and without the diagnosis metrics (cause, table recall, table precision).

The issue's budget: the diagnosis may cost at most 1.2× the scoring time. Scores one tool's
predictions on one state several times, alternating a registry without the three diagnosis
metrics (baseline) and the full registry, in the same process; prints the ratio of the medians.
Use a tool with many wrong answers (the diagnosis runs only on wrong ones), e.g. the
tests/diagnosis/wrong_tool.py `cli` tool of a recorded run.

Run: HERON_PORT=… PYTHONPATH=. .venv/bin/python benchmarks/bench_diagnosis.py PREDICTIONS.jsonl [scale] [seed] [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.artifacts import read_jsonl  # noqa: E402
from heron_pipeline.config import PROJECT_ROOT, load_settings  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.harness.scorer import score_state  # noqa: E402
from heron_pipeline.harness.state_run import state_run  # noqa: E402
from heron_pipeline.metrics import builtin, registry  # noqa: E402
from heron_pipeline.questions import sql_facts  # noqa: E402
from heron_pipeline.predictions.record import PredictionRecord  # noqa: E402
from heron_pipeline.questions.model import load_questions  # noqa: E402

DIAGNOSIS = ("table_recall", "table_precision", "wrong_by_cause")


def main(predictions: str, scale: str = "tiny", seed: str = "42", rounds: str = "5") -> int:
    server = Server(load_settings())
    questions = load_questions(PROJECT_ROOT / "questions")
    preds = [PredictionRecord.from_json(r) for r in read_jsonl(Path(predictions))]
    run = state_run(server, scale, int(seed))
    gold = {q.id: list(run.run_gold(q.gold_sql).rows) for q in questions}
    full = dict(registry._REGISTRY)  # a benchmark may reach in: it restores the registry below
    without = {k: v for k, v in full.items() if k not in DIAGNOSIS}
    times: dict[str, list[float]] = {"baseline": [], "diagnosis": []}
    score_state("bench", questions, preds, gold, run)  # warm-up: caches, connections
    try:
        for _ in range(int(rounds)):
            for name, metrics in (("baseline", without), ("diagnosis", full)):
                registry._REGISTRY.clear()
                registry._REGISTRY.update(metrics)
                # cold parse caches each round, as on the first state of a run (EM's too, for both)
                for cached in (builtin._exact_match, builtin._linking, sql_facts.parse):
                    cached.cache_clear()
                started = time.perf_counter()
                records = score_state("bench", questions, preds, gold, run)
                times[name].append(time.perf_counter() - started)
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(full)
    wrong = sum(not r.correct for r in records)
    base, diag = statistics.median(times["baseline"]), statistics.median(times["diagnosis"])
    print(f"{len(preds)} predictions ({wrong} wrong) on {scale}_{seed}, {rounds} rounds: baseline {base:.3f} s, "
          f"with diagnosis {diag:.3f} s, ratio {diag / base:.3f} (budget 1.2)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
