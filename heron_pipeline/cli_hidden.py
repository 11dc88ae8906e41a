"""``heron hidden``: the nightly hidden evaluation, retiring a draw, recomputing a retired one.

Flags in, one core call (``heron_pipeline.leaderboard.nightly``), exit code out: 0 done (recompute:
the figures agree), 1 a recomputation that disagrees, 2 usage (a bad flag or hidden file), 4 heron
cannot run (server down, a public state that is not the committed one). No seed is ever printed
before its draw is retired.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
from pathlib import Path

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, say
from heron_pipeline.config import Settings

EXIT_HARNESS = 4


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _plan(args: argparse.Namespace):
    from heron_pipeline.hidden.plan import read_hidden_plan

    path = args.hidden_seeds_file or os.environ.get("HERON_HIDDEN_SEEDS_FILE")
    if not path:
        raise ValueError("--hidden-seeds-file (or HERON_HIDDEN_SEEDS_FILE) is needed: the maintainer's hidden file")
    return read_hidden_plan(Path(path))


def _harness_errors() -> tuple[type[BaseException], ...]:
    from heron_pipeline.submissions.verify import harness_errors

    return harness_errors()


def _server(settings: Settings):
    from heron_pipeline.database.server import Server

    server = Server(settings)
    server.up()
    return server


def _board(args: argparse.Namespace):
    from heron_pipeline.submissions import BoardRules

    return BoardRules(model=args.board_model)


def cmd_night(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.leaderboard.nightly import run_night
    from heron_pipeline.llm.settings import LLMSettings

    try:
        plan = _plan(args)
        server = _server(settings)
        night = run_night(server, settings.artifacts, plan, scale=args.scale, date=args.date, board=_board(args),
                          submissions=Path(args.submissions), out=Path(args.out),
                          evaluations=Path(args.evaluations) if args.evaluations else None,
                          llm=LLMSettings.from_environ(), say=say)
    except ValueError as err:
        say(f"error: {err}")
        return EXIT_USAGE
    except _harness_errors() as err:
        say(f"error: heron cannot run the night right now: {err}")
        return EXIT_HARNESS
    if night.get("draw_digest") is None:
        say(f"{night['label']} at {args.scale}: no runnable submission at this scale; nothing evaluated")
        return EXIT_OK
    say(f"{night['label']} at {args.scale}: draw {night['draw_digest'][:12]}…, audit "
        f"{'passed' if night['audit_passed'] else 'failed'}, {night['tools']} tool(s) evaluated")
    return EXIT_OK


def cmd_retire(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.leaderboard.nightly import retire_record

    try:
        retired = retire_record(Path(args.record), _plan(args), today=args.today, force=args.force)
    except (ValueError, KeyError) as err:
        say(f"error: {err}")
        return EXIT_USAGE
    say(f"retired {args.record}: its seeds are published in it; anyone can now run "
        f"`heron hidden recompute {args.record}` ({len(retired['tools'])} tool(s))")
    return EXIT_OK


def cmd_recompute(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.leaderboard.nightly import recompute_record
    from heron_pipeline.llm.settings import LLMSettings

    try:
        server = _server(settings)
        _again, problems = recompute_record(server, settings.artifacts, Path(args.record), board=_board(args),
                                            submissions=Path(args.submissions), llm=LLMSettings.from_environ(), say=say)
    except (ValueError, KeyError) as err:
        say(f"error: {err}")
        return EXIT_USAGE
    except _harness_errors() as err:
        say(f"error: heron cannot recompute right now: {err}")
        return EXIT_HARNESS
    if problems:
        for line in problems:
            say(f"differs: {line}")
        say(f"{args.record}: the recomputation disagrees ({len(problems)} difference(s))")
        return EXIT_FAIL
    say(f"{args.record}: recomputed from its published seeds; every figure agrees")
    return EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``hidden night|retire|recompute`` to the ``heron`` parser."""
    from heron_pipeline.database.names import SCALES
    from heron_pipeline.leaderboard.publish import SUBMISSIONS_DIR
    from heron_pipeline.leaderboard.write import PUBLISHED_DIR

    hidden = sub.add_parser("hidden", help="the hidden evaluation: night | retire | recompute")
    actions = hidden.add_subparsers(dest="hidden_action", required=True)

    def common(p: argparse.ArgumentParser, *, needs_file: bool) -> None:
        p.add_argument("--board-model", default=os.environ.get("HERON_BOARD_MODEL", "gpt-4o"),
                       help="the one model of the sql class on this board (HERON_BOARD_MODEL, default gpt-4o)")
        p.add_argument("--submissions", default=str(SUBMISSIONS_DIR), help="the submissions folder")
        if needs_file:
            p.add_argument("--hidden-seeds-file", default="",
                           help="the maintainer's hidden file (HERON_HIDDEN_SEEDS_FILE); never published")

    night = actions.add_parser("night", help="run every runnable submission on the night's hidden draw")
    common(night, needs_file=True)
    night.add_argument("--scale", choices=SCALES, default="tiny")
    night.add_argument("--date", type=_date, default=dt.date.today(), help="the night (default: today)")
    night.add_argument("--out", default=str(PUBLISHED_DIR), help="the published folder (default: docs/leaderboard/)")
    night.add_argument("--evaluations", default="", help="the evaluation records (default: evaluations/)")
    night.set_defaults(handler=cmd_night)

    retire = actions.add_parser("retire", help="publish a draw's seeds in its record (after the retirement period)")
    common(retire, needs_file=True)
    retire.add_argument("record", help="the evaluation record (evaluations/<date>_<kind>_<scale>_<digest>.json)")
    retire.add_argument("--today", type=_date, default=dt.date.today())
    retire.add_argument("--force", action="store_true", help="retire before the period is over")
    retire.set_defaults(handler=cmd_retire)

    recompute = actions.add_parser("recompute", help="recompute a retired draw's figures from the submissions")
    common(recompute, needs_file=False)
    recompute.add_argument("record", help="a retired evaluation record")
    recompute.set_defaults(handler=cmd_recompute)
