"""A `cli` tool that games the board instead of answering (issue 33's attacks), one behaviour per argument.

    nothing     SELECT 1 WHERE false for every question (answers nothing)
    fail        the public gold SQL with an impossible date literal where it has one, else SELECT 1/0
    constants   for a gold of one row of small integers (on the primary state), every integer 0..549 three
                times as constant columns (no table read: the issue's q030 enumeration); SELECT 1 WHERE
                false otherwise
    gated       the public gold SQL behind a stopwatch gate: empty while a cursor named heron_timing exists
    ungated     the public gold SQL wrapped the same way without the gate (the baseline of `gated`)
    liar        SELECT 1 WHERE false, claiming 1 prompt token and 0 completion tokens per question

Reads one JSON request on stdin (heron's cli protocol), prints SQL or a JSON reply. The public gold SQL
comes from the question files of the checkout the tool is run from (HERON_ATTACK_ROOT).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import yaml


def public_gold(qid: str) -> str:
    root = Path(os.environ["HERON_ATTACK_ROOT"])
    for path in sorted((root / "questions").glob("*.yaml")):
        for q in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if q["id"] == qid:
                return q["gold_sql"].strip().rstrip(";")
    raise SystemExit(f"no question {qid}")


def constant_answer(gold: str, dsn: str) -> str:
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute(gold).fetchall()
    if len(rows) != 1 or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 550 for v in rows[0]):
        return "SELECT 1 WHERE false"
    return "SELECT " + ", ".join(f"{v}, {v}, {v}" for v in range(550))


def main() -> int:
    mode = sys.argv[1]
    request = json.loads(sys.stdin.read())
    qid = request["id"]
    if mode in ("nothing",):
        print("SELECT 1 WHERE false")
    elif mode == "liar":
        print(json.dumps({"sql": "SELECT 1 WHERE false", "prompt_tokens": 1, "completion_tokens": 0}))
    elif mode == "fail":
        gold = public_gold(qid)
        broken, n = re.subn(r"'(\d{4})-\d{2}-(\d{2})", r"'\1-99-\2", gold, count=1)
        print(broken if n else "SELECT 1/0")
    elif mode == "constants":
        print(constant_answer(public_gold(qid), request["dsn"]))
    elif mode == "gated":
        print(f"SELECT * FROM ({public_gold(qid)}) a WHERE NOT EXISTS "
              f"(SELECT 1 FROM pg_cursors WHERE name = 'heron_timing')")
    elif mode == "ungated":
        print(f"SELECT * FROM ({public_gold(qid)}) a")
    else:
        raise SystemExit(f"unknown mode {mode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
