"""Issue 29's closing figures: public, hidden and gap per tool on tiny 42/43/44, and the time of a night.

Two runnable tools made through the real steps (tests/hidden/scripted.py: `run_bench` + `package(...,
runnable=True)`): the copycat `cli` tool (public gold SQL of the most similar public text) and an
honest `raw-llm` tool on a scripted OpenAI-compatible server (each text answered with its own gold).
Then one hidden draw (a random instance seed, never printed) and the nights of two dates, timed:
the first night builds its two hidden states, the rerun of the same night reuses them.

    .venv/bin/python benchmarks/hidden_board.py      # uses the running server (`heron db up`)
"""

from __future__ import annotations

import datetime as dt
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.hidden.plan import HIDDEN_INSTANCE_MIN, HiddenPlan, night_plan  # noqa: E402
from heron_pipeline.leaderboard.nightly import run_night  # noqa: E402
from heron_pipeline.leaderboard.publish import publish_leaderboard  # noqa: E402
from heron_pipeline.llm.settings import LLMSettings  # noqa: E402
from heron_pipeline.submissions import BoardRules  # noqa: E402
from tests.hidden.scripted import BOARD_MODEL, answers_of, honest_responder, make_submissions  # noqa: E402
from tests.llm.fake_openai import FakeOpenAI  # noqa: E402


def main() -> None:
    server = Server(load_settings())
    server.up()
    secret = secrets.token_hex(32)
    day, next_day = dt.date(2026, 12, 5), dt.date(2026, 12, 6)
    nights = [night_plan(secret, "tiny", d) for d in (day, next_day)]
    plan = HiddenPlan(nights[0].seeds, HIDDEN_INSTANCE_MIN + secrets.randbelow(2**62), secret)
    root = Path(tempfile.mkdtemp(prefix="heron-hidden-bench-"))
    paths = {k: root / k for k in ("artifacts", "submissions", "published", "evaluations")}
    with FakeOpenAI() as fake:
        fake.responder = honest_responder(answers_of([plan.instance_seed, *(n.instance_seed for n in nights)]))
        llm = LLMSettings(model=BOARD_MODEL, base_url=fake.url(), timeout_s=30, max_retries=0)
        started = time.perf_counter()
        make_submissions(server, paths["artifacts"], paths["submissions"], llm)
        made_s = time.perf_counter() - started
        common = dict(board=BoardRules(model=BOARD_MODEL), evaluations=paths["evaluations"], llm=llm)
        timings = {}
        for name, date in (("first night (builds 2 hidden states)", day), ("same night again", day),
                           ("next night (builds 2 more)", next_day)):
            started = time.perf_counter()
            night = run_night(server, paths["artifacts"], plan, scale="tiny", date=date,
                              submissions=paths["submissions"], out=paths["published"], **common)
            timings[name] = (time.perf_counter() - started, night["draw_digest"][:12], night["audit_passed"])
        started = time.perf_counter()
        doc = publish_leaderboard(server, paths["artifacts"], paths["submissions"], paths["published"],
                                  hidden_seeds=[], plan=plan, today=day, **common)
        hidden_s = time.perf_counter() - started
    print(f"submissions made (2 bench runs + package): {made_s:.1f} s")
    print("| tool | public | hidden (draw) | gap [95 % CI] | flagged | nights |")
    print("|---|---|---|---|---|---|")
    for board in doc["standings"]:
        for row in board["tools"]:
            h = row["hidden_eval"]
            print(f"| {row['tool']} | {row['multi_state_ex1']:.1f} | {h['hidden']['multi_state_ex1']:.1f} | "
                  f"{h['gap']['difference']:+.1f} [{h['gap']['ci'][0]:.1f}, {h['gap']['ci'][1]:.1f}] | "
                  f"{h['flagged']} | " + ", ".join(f"{p['date']} {p['hidden']:.1f}" for p in row["history"]) + " |")
    for name, (seconds, digest, passed) in timings.items():
        print(f"{name}: {seconds:.1f} s (draw {digest}…, audit {'passed' if passed else 'FAILED'})")
    print(f"hidden draw evaluation (states of the first night, its own draw): {hidden_s:.1f} s")


if __name__ == "__main__":
    main()
