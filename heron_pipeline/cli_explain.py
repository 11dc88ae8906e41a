"""``heron explain``: why one tool got one question wrong — the cause the board counted and a row diff.

The score is found by identity through a recorded run manifest (``diagnosis.explain``); the
predicted and gold SQL are executed again on the state (the prediction in the sandbox) for the rows.
Exit 0; 2 for a bad flag or a tool, question or seed the run does not have; 1 when no run, score
or state is found (one line naming it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, UsageError, add_option_flag, say, seed_number
from heron_pipeline.config import Settings


def cmd_explain(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.database.server import Server
    from heron_pipeline.diagnosis.explain import NotFound, UnknownName, explain, explanation_text, recorded_scores
    from heron_pipeline.harness.state_run import state_run
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.questions import QuestionError
    from heron_pipeline.questions.model import question_text

    try:
        recorded = recorded_scores(settings.artifacts, args.tool, args.scale, args.question_mode,
                                   run=Path(args.run) if args.run else None)
        try:
            drawn, _digest = question_set(recorded.questions_dir, recorded.instance_seed, recorded.redraws)
            questions = {q.id: q for q in drawn}
        except (OSError, QuestionError) as err:
            raise NotFound(f"the run's questions ({recorded.questions_dir}) cannot be read: {err}") from None
        question = questions.get(args.question)
        if question is None:
            raise UnknownName(f"--question {args.question}: not a question of {recorded.questions_dir} "
                              f"(e.g. {', '.join(sorted(questions)[:3])})")
        server = Server(settings)
        runs: dict[int, object] = {}

        def run_of(seed: int):
            if seed not in runs:
                runs[seed] = state_run(server, args.scale, seed)
            return runs[seed]

        explained = explain(recorded, args.tool, question, question_text(question, recorded.question_mode), args.seed,
                            execute=lambda seed, sql: list(run_of(seed).execute(sql).rows),
                            run_gold=lambda seed, sql: list(run_of(seed).run_gold(sql).rows),
                            examples=args.rows)
    except UnknownName as err:
        raise UsageError(str(err)) from None
    except NotFound as err:
        say(f"not found: {err}")
        return EXIT_FAIL
    sys.stdout.write(explanation_text(explained))
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``heron explain`` to the ``heron`` parser."""
    explain = subparsers.add_parser("explain", help="why a tool got a question wrong: its cause and a row diff",
                                    description=__doc__.split("\n\n")[0])
    explain.add_argument("--tool", required=True, help="the tool's name on the board (gold, alt, cli name, …)")
    explain.add_argument("--question", required=True, help="the question id, e.g. q001")
    add_option_flag(explain, "scale")  # heron bench's flag and default, declared once in bench.options
    explain.add_argument("--seed", type=seed_number, help="the state (default: the first seed where it is wrong)")
    add_option_flag(explain, "question_mode", default=None,
                    help="only runs of this question mode (default: the latest run that scored the tool, "
                         "whichever mode; `heron bench` runs natural unless told otherwise)")
    explain.add_argument("--run", help="a run manifest (default: the latest recorded run that scored the tool)")
    explain.add_argument("--rows", type=int, default=5, help="rows shown of each side of the diff (default 5)")
    explain.set_defaults(handler=cmd_explain)
