"""How often a blind second author's SQL, written from the `natural` texts alone, gives the gold answer.

Each answer runs in the prediction sandbox on every given state and is compared with the gold by the
comparator (one width rule in both question modes since issue 33: exactly the gold's columns); a
question agrees when it matches on every state. Prints one line per disagreeing question, then the agreement overall and per retrieval bucket.

Run: .venv/bin/python benchmarks/natural_agreement.py questions/natural_check/second_author_round1.yaml [tiny] [42,43,44]
(the states must exist on heron's configured server).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.names import benchmark_database  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.harness.state_run import state_run  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR, load_questions  # noqa: E402
from heron_pipeline.results import execute_readonly  # noqa: E402
from heron_pipeline.scoring import compare  # noqa: E402


def main(answers_file: str, scale: str = "tiny", seeds: str = "42,43,44") -> int:
    answers = yaml.safe_load(Path(answers_file).read_text())
    questions = load_questions(QUESTIONS_DIR)
    server = Server(load_settings())
    server.up()
    agree: dict[str, list[bool]] = defaultdict(list)
    for seed in (int(s) for s in seeds.split(",")):
        run = state_run(server, scale, seed)
        with server.connect(benchmark_database(scale, seed), autocommit=False) as conn:
            for q in questions:
                gold = list(execute_readonly(conn, q.gold_sql).rows)
                sql = answers.get(q.id)
                try:
                    rows = list(run.execute(sql).rows) if sql else None
                except Exception as err:  # noqa: BLE001 - a failed answer disagrees
                    rows = None
                    print(f"{q.id} seed {seed}: error {' '.join(str(err).split())[:120]}")
                agree[q.id].append(compare(q.gold_sql, gold, rows))
    by_bucket: dict[str, list[bool]] = defaultdict(list)
    for q in questions:
        ok = all(agree[q.id])
        by_bucket[str(getattr(q.retrieval, "value", q.retrieval))].append(ok)
        if not ok:
            print(f"DIFFERS {q.id} ({q.retrieval.value}): per state {agree[q.id]}")
    total = [all(v) for v in agree.values()]
    print(f"agreement: {sum(total)}/{len(total)} = {100 * sum(total) / len(total):.1f} %")
    for bucket, values in sorted(by_bucket.items()):
        print(f"  {bucket:12} {sum(values)}/{len(values)} = {100 * sum(values) / len(values):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
