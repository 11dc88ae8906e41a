"""What every ``heron`` subcommand module shares, below all of them and below ``cli.py``.

The exit codes, the one stderr line (``say``), the seed flags' parsers and the state build with
progress bars live here so that ``cli.py`` (the parser and ``main()``, which turns any exception into
one line and an exit code) imports the subcommand modules and none of them imports it back.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heron_pipeline.database.server import Server

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
#: heron could not reach its server, or lost it mid-command: not the input's fault, so never 2;
#: the same number as ``heron query``'s ``unavailable:``.
EXIT_UNAVAILABLE = 7


class UsageError(ValueError):
    """A flag's value heron cannot use; the message names the flag and what it accepts."""


def say(message: str) -> None:
    """One line on stderr, at once: progress and messages (stdout is for what a script reads)."""
    print(message, file=sys.stderr, flush=True)


def parse_seeds(text: str) -> list[int]:
    """``--seeds 42,43,44`` → [42, 43, 44]; at least one seed, each an integer in 0..2^31-1."""
    seeds = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if not part.isdecimal() or int(part) >= 2**31:
            raise UsageError(f"--seeds {text!r}: {part!r} is not a seed; give comma-separated integers "
                             f"in 0..2147483647, e.g. --seeds 42,43,44")
        seeds.append(int(part))
    if not seeds:
        raise UsageError("--seeds is empty; give at least one seed, e.g. --seeds 42,43,44")
    return seeds


def seed_number(text: str) -> int:
    """argparse type of ``--seed``: an integer in 0..2^31-1 (what the generator and the database
    names accept), refused at parse time with the flag's name."""
    if not text.strip().isdecimal() or int(text) >= 2**31:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed; give an integer in 0..2147483647, e.g. --seed 42")
    return int(text)


def worker_count(text: str) -> int:
    """argparse type of ``--workers`` and ``--generate-workers``: a whole number from 1."""
    if not text.strip().isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a worker count; give a whole number from 1, e.g. 2")
    return int(text)


def seed_state(server: "Server", scale: str, seed: int, *, force: bool = False, workers: int = 2,
               quiet: bool = False, artifacts: Path | None = None, generate_workers: int | None = None) -> bool:
    """Build (scale, seed) through the bench core's state step unless a finished database with the
    same build label exists, with a progress bar per domain. Returns True when it built."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from heron_pipeline.bench import build_state
    from heron_pipeline.seeding.generate import Generator

    generator = Generator.for_state(scale, seed)
    plan = generator.plan
    domains: dict[str, int] = {}
    for table, tp in plan.tables.items():
        domains[table.split(".")[0]] = domains.get(table.split(".")[0], 0) + tp.total
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description:<14}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=quiet or not console.is_terminal, transient=True) as bars:
        tasks = {d: bars.add_task(d, total=n) for d, n in domains.items()}
        state = build_state(server, artifacts if artifacts is not None else server.settings.artifacts, scale, seed,
                            force=force, workers=workers, generate_workers=generate_workers, say=say, generator=generator,
                            progress=lambda table, rows, _s: bars.advance(tasks[table.split(".")[0]], rows))
    if state.built:
        say(f"fingerprint {state.fingerprint}")
    return state.built


def add_option_flag(parser: argparse.ArgumentParser, name: str, **overrides: Any) -> None:
    """Add the ``heron bench`` flag of option ``name`` to ``parser`` as ``bench.options`` declares it (flag,
    help, choices, type, default); ``overrides`` change argparse keywords where another command means
    something else (``heron submit``'s required ``--scale``, ``heron explain``'s any-mode default). Every
    command that takes a run option takes it through here, so its default is the bench's."""
    from heron_pipeline.bench.options import option_fields

    [f] = [f for f in option_fields() if f.name == name]
    spec = f.spec
    if spec.flag is None:
        raise ValueError(f"option {name!r} has no flag")
    extra: dict[str, Any] = {} if spec.help is None else {"help": spec.help}
    if f.annotation == "bool":
        parser.add_argument(spec.flag, action="store_true", **{**extra, **overrides})
        return
    if spec.choices is not None:
        extra["choices"] = spec.choices
    elif f.annotation == "int":
        extra["type"] = int
    parser.add_argument(spec.flag, **{"default": f.flag_default, **extra, **overrides})
