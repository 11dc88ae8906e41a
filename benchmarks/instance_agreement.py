"""How often a blind author's SQL, written from one draw's natural texts, gives that draw's gold answer.

The author sees only the drawn natural texts, the conventions note and the schema prompt (no database);
each answer runs in the prediction sandbox on every given state and is compared with the drawn gold by
the comparator (the headline rule); a question agrees when it matches on every state.

Run: .venv/bin/python benchmarks/instance_agreement.py ANSWERS.yaml --instance-seed 1 \
        --redraws '{"q066": 1, "q088": 1, "q096": 2}' [--scale tiny] [--seeds 42,43,44]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heron_pipeline.bench.inputs import instance_set  # noqa: E402
from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.names import benchmark_database  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.harness.state_run import state_run  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR  # noqa: E402
from heron_pipeline.results import execute_readonly  # noqa: E402
from heron_pipeline.scoring import compare  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("answers")
    parser.add_argument("--instance-seed", type=int, required=True)
    parser.add_argument("--redraws", default="{}")
    parser.add_argument("--scale", default="tiny")
    parser.add_argument("--seeds", default="42,43,44")
    args = parser.parse_args()
    answers = yaml.safe_load(Path(args.answers).read_text(encoding="utf-8"))
    drawn = {q.id: q for q in instance_set(QUESTIONS_DIR, args.instance_seed, json.loads(args.redraws)).questions}
    server = Server(load_settings())
    server.up()
    agree: dict[str, list[bool]] = {qid: [] for qid in answers}
    for seed in (int(s) for s in args.seeds.split(",")):
        run = state_run(server, args.scale, seed)
        with server.connect(benchmark_database(args.scale, seed), autocommit=False) as conn:
            for qid, sql in answers.items():
                q = drawn[qid]
                gold = list(execute_readonly(conn, q.gold_sql).rows)
                try:
                    rows = list(run.execute(sql).rows)
                except Exception as err:  # noqa: BLE001 - a failed answer disagrees
                    rows = None
                    print(f"{qid} seed {seed}: error {' '.join(str(err).split())[:160]}")
                agree[qid].append(rows is not None and compare(q.gold_sql, gold, rows))
    for qid, verdicts in agree.items():
        if not all(verdicts):
            print(f"DIFFERS {qid}: per state {verdicts} — {drawn[qid].natural}")
    total = sum(all(v) for v in agree.values())
    print(f"agreement with the draw's gold (instance seed {args.instance_seed}, {args.scale} "
          f"{args.seeds}): {total}/{len(agree)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
