"""Time the scoring harness: one tool's 100 questions × 3 states, for correctness and with VES timing.

Targets (issue 5, scale small): correctness ≤ 15 s, with VES timing ≤ 90 s. Gold results are
computed first and not timed (they are an upstream artifact); predictions are the ``gold`` tool's,
so every prediction is correct and VES times every one of them — the worst case for timing.

Run: HERON_DATA_DIR=… HERON_PORT=… .venv/bin/python benchmarks/bench_scoring.py [scale] [seeds] [tool]
(defaults: small 42,43,44 gold). The states must exist on that server; the reader role is created on it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.adapters import PredictionContext, create_adapter  # noqa: E402
from heron_pipeline.config import PROJECT_ROOT, load_settings  # noqa: E402
from heron_pipeline.database.names import benchmark_database  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.harness.scorer import score_state  # noqa: E402
from heron_pipeline.harness.state_run import state_run  # noqa: E402
from heron_pipeline.predictions.make import make_predictions  # noqa: E402
from heron_pipeline.questions.model import load_questions  # noqa: E402
from heron_pipeline.results import execute_readonly  # noqa: E402

TARGETS = {"correctness": 15.0, "ves": 90.0}


def main(scale: str = "small", seeds: str = "42,43,44", tool: str = "gold") -> int:
    settings = load_settings()
    server = Server(settings)
    server.up()
    seed_list = [int(s) for s in seeds.split(",")]
    questions = load_questions(PROJECT_ROOT / "questions")
    gold = {}
    for seed in seed_list:
        with server.connect(benchmark_database(scale, seed), autocommit=False) as conn:
            gold[seed] = {q.id: list(execute_readonly(conn, q.gold_sql).rows) for q in questions}
    predictions = make_predictions(create_adapter(tool), questions, PredictionContext(scale=scale))
    runs = {seed: state_run(server, scale, seed) for seed in seed_list}  # role setup, not timed
    print(f"{tool}: {len(questions)} questions × {len(seed_list)} states of {scale}")
    status = 0
    for mode in ("correctness", "ves"):
        started = time.perf_counter()
        correct = 0
        for seed in seed_list:
            records = score_state(tool, questions, predictions, gold[seed], runs[seed], time_ves=mode == "ves")
            correct += sum(r.correct for r in records)
        seconds = time.perf_counter() - started
        ok = seconds <= TARGETS[mode]
        status |= 0 if ok else 1
        print(f"  {mode:<12} {seconds:7.2f} s  (target ≤ {TARGETS[mode]:.0f} s: {'ok' if ok else 'MISSED'}), "
              f"{correct}/{len(questions) * len(seed_list)} correct")
    return status


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
