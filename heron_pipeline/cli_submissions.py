"""``heron submit``, ``heron verify`` and ``heron leaderboard``: flags in, one core call, exit code out.

The work is in ``heron_pipeline.submissions`` (package, verify) and
``heron_pipeline.leaderboard.publish``; this module parses flags, prints the verdict JSON on stdout
and maps outcomes to exit codes: 0 accepted / written, 1 rejected, 2 usage, 4 heron itself cannot
run (server or database unavailable, a public state that is not the committed one, a failing audit).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, add_option_flag, parse_seeds, say
from heron_pipeline.config import Settings

EXIT_HARNESS = 4


def _board(args: argparse.Namespace):
    from heron_pipeline.submissions import BoardRules

    return BoardRules(model=args.board_model)


def _server(settings: Settings):
    from heron_pipeline.database.server import Server

    server = Server(settings)
    server.up()
    return server


def _harness_errors() -> tuple[type[BaseException], ...]:
    from heron_pipeline.submissions.verify import harness_errors

    return harness_errors()


def _verify_errors() -> tuple[type[BaseException], ...]:
    # verification never raises for the submission's faults (those are reason codes), so any
    # ValueError from the core is heron's own failure: exit 4, never 1
    return (*_harness_errors(), ValueError)


def cmd_submit(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.submissions import PackageError, package

    try:
        seeds = parse_seeds(args.seeds)
    except ValueError:
        say(f"error: --seeds {args.seeds!r}: give comma-separated integers, e.g. 42,43,44")
        return EXIT_USAGE
    try:
        out = package(settings.artifacts, args.tool, args.scale, seeds, Path(args.out), question_mode=args.question_mode,
                      manifest=Path(args.run) if args.run else None, runnable=args.runnable,
                      tool_path=Path(args.tool_path) if args.tool_path else None,
                      requirement=args.requirement or None, model=args.model or None)
    except PackageError as err:
        say(f"error: {err}")
        return EXIT_FAIL
    say(f"submission written: {out} (meta.json, predictions.jsonl, claims.json{', tool.toml' if args.runnable else ''}); "
        f"check it with `heron verify {out}`")
    print(out)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.submissions import verify

    folder = Path(args.folder)
    if not folder.is_dir():
        say(f"error: {folder}: no such submission folder (give submissions/<tool>)")
        return EXIT_USAGE
    try:
        server = _server(settings)
        verdict = verify(folder, server, settings.artifacts, board=_board(args), say=say)
    except _verify_errors() as err:
        say(f"error: heron cannot verify right now: {err}")
        return EXIT_HARNESS
    except Exception as err:  # noqa: BLE001 — heron's own bug on this folder: one line, exit 4, never "rejected"
        if getattr(args, "debug", False):
            raise  # `heron --debug verify` prints the traceback for a bug report
        say(f"error: heron failed on {folder} ({type(err).__name__}: {' '.join(str(err).split())[:300]}); "
             f"this is heron's failure, not the submission's: please report it")
        return EXIT_HARNESS
    print(json.dumps(verdict.to_json() if args.full else {k: v for k, v in verdict.to_json().items()
                                                          if k not in ("standing", "retrieval")},
                     indent=1, sort_keys=True))
    if verdict.accepted:
        say(f"accepted: {verdict.tool} ({folder})")
        return EXIT_OK
    say(f"rejected: {verdict.tool or folder.name}: {', '.join(verdict.codes)}")
    return EXIT_FAIL


def cmd_leaderboard(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.leaderboard.publish import publish_leaderboard
    from heron_pipeline.leaderboard.write import PUBLISHED_DIR
    from heron_pipeline.hidden.plan import read_hidden_plan
    from heron_pipeline.leaderboard.publish import SUBMISSIONS_DIR
    from heron_pipeline.llm.settings import LLMSettings

    submissions = Path(args.submissions) if args.submissions else SUBMISSIONS_DIR
    out = Path(args.out) if args.out else PUBLISHED_DIR
    if not submissions.is_dir():
        say(f"error: --submissions {submissions}: no such folder")
        return EXIT_USAGE
    hidden_file = args.hidden_seeds_file or os.environ.get("HERON_HIDDEN_SEEDS_FILE") or None
    try:
        plan = read_hidden_plan(Path(hidden_file)) if hidden_file else None
    except ValueError as err:
        say(f"error: {err}")
        return EXIT_USAGE
    hidden = list(plan.seeds) if plan is not None else None
    try:
        server = _server(settings)
        doc = publish_leaderboard(server, settings.artifacts, submissions, out, board=_board(args), hidden_seeds=hidden,
                                  plan=plan, evaluations=Path(args.evaluations) if args.evaluations else None,
                                  llm=LLMSettings.from_environ(), say=say)
    except ValueError as err:
        say(f"error: {err}")
        return EXIT_USAGE
    except _harness_errors() as err:
        say(f"error: heron cannot build the leaderboard right now: {err}")
        return EXIT_HARNESS
    accepted = sum(len(b["tools"]) for b in doc["standings"]) + sum(e["class"] == "retrieval" for e in doc["retrieval"])
    say(f"leaderboard written to {out}: {accepted} accepted, {len(doc['rejected'])} rejected"
         + (f", {doc['hidden_states']} hidden state(s)" if hidden else ""))
    return EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``submit``, ``verify`` and ``leaderboard`` to the ``heron`` parser."""
    submit = sub.add_parser("submit", help="package a finished bench run as a submission folder")
    submit.add_argument("--tool", required=True, help="the tool's name in the run (e.g. gold, raw-llm)")
    add_option_flag(submit, "scale", required=True)  # the flags, choices and defaults of heron bench's run options
    add_option_flag(submit, "seeds")
    submit.add_argument("--out", required=True, help="the submission folder to write (e.g. submissions/<tool>)")
    add_option_flag(submit, "question_mode", help="the mode of the run to package (default: natural, the headline)")
    submit.add_argument("--run", default="", help="the run manifest (default: the most recent matching one)")
    submit.add_argument("--runnable", action="store_true",
                        help="also write tool.toml, so the board can run the tool on a hidden draw")
    submit.add_argument("--tool-path", default="", help="with --runnable, a cli tool: the folder its command runs "
                                                        "in (copied into the submission as tool/)")
    submit.add_argument("--requirement", default="", help="with --runnable, a cli tool: a pinned requirement "
                                                          "line (name==version) that installs its command")
    submit.add_argument("--model", default="", help="a cli tool: the model it uses, at temperature 0 (its word, as "
                                                    "for any SQL-only submission), or `none` for a tool that calls "
                                                    "no model; default: the run's conditions")
    submit.set_defaults(handler=cmd_submit)

    for name, helptext in (("verify", "recompute a submission on the public states; accept or reject it"),
                           ("leaderboard", "verify every submission and write the published leaderboard")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--board-model", default=os.environ.get("HERON_BOARD_MODEL", "gpt-4o"),
                       help="the one model of the sql class on this board (HERON_BOARD_MODEL, default gpt-4o)")
        if name == "verify":
            p.add_argument("folder", help="the submission folder")
            p.add_argument("--full", action="store_true", help="include the recomputed standings row in the verdict")
            p.set_defaults(handler=cmd_verify)
        else:
            p.add_argument("--submissions", default="", help="the submissions folder (default: submissions/)")
            p.add_argument("--out", default="", help="the published folder (default: docs/leaderboard/)")
            p.add_argument("--hidden-seeds-file", default="",
                           help="hidden seeds, draw and nightly secret (HERON_HIDDEN_SEEDS_FILE); never published")
            p.add_argument("--evaluations", default="",
                           help="the committed hidden evaluation records (default: evaluations/)")
            p.set_defaults(handler=cmd_leaderboard)
