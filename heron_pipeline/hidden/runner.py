"""Run one runnable submission on an audited draw and score it: per-question correctness, errors.

The tool is run through the bench core's own steps (``predict``, ``score_pairs``), so a hidden
figure is computed by exactly the code that computes a public one. A tool that cannot run at all
(its requirement does not install, no LLM endpoint is configured, its adapter is skipped) is not
dropped: every question counts as wrong and as one error of the class that stopped it, so the row
shows what happened instead of vanishing from the hidden column.
"""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.artifacts.layout import ArtifactLayout
from heron_pipeline.hidden.toolspec import ToolSpec

Say = Callable[[str], None]
TOOL_NOT_RUN = "tool_not_run"
INSTALL_TIMEOUT_S = 900


@dataclass
class ToolRun:
    """What one tool did on one draw: sample 0 correct on every state, per question id."""

    correct: dict[str, bool]
    errors: int = 0
    errors_by_class: dict[str, int] = field(default_factory=dict)
    status: str = "ran"  # ran | not_run
    reason: str | None = None


def not_run(questions: list[Any], reason: str) -> ToolRun:
    n = len(questions)
    return ToolRun({q.id: False for q in questions}, n, {TOOL_NOT_RUN: n}, "not_run", reason)


def install_requirement(requirement: str, artifacts: Path, *, say: Say = lambda _m: None) -> Path:
    """A venv holding ``requirement`` under ``<artifacts>/tools/<sha256>/`` (made once); its bin folder.
    Extra pip arguments (an index, ``--no-index --find-links DIR``) come from ``HERON_TOOL_PIP_ARGS``."""
    import os

    key = hashlib.sha256(requirement.encode("utf-8")).hexdigest()[:24]
    home = ArtifactLayout.of(artifacts).tool_install(key)
    done = home / ".installed"
    bin_dir = home / "venv" / "bin"
    if done.is_file():
        return bin_dir
    home.mkdir(parents=True, exist_ok=True)
    extra = shlex.split(os.environ.get("HERON_TOOL_PIP_ARGS", ""))
    steps = [[sys.executable, "-m", "venv", str(home / "venv")],
             [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", *extra, requirement]]
    for argv in steps:
        try:
            done_proc = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise RuntimeError(f"installing {requirement!r} failed: {err}") from None
        if done_proc.returncode != 0:
            last = next((l for l in reversed(done_proc.stderr.splitlines()) if l.strip()), "")
            raise RuntimeError(f"installing {requirement!r} failed (exit {done_proc.returncode}): {last[:200]}")
    done.write_text(requirement + "\n", encoding="utf-8")
    say(f"installed {requirement} for the hidden evaluation")
    return bin_dir


def cli_invocation(folder: Path, spec: ToolSpec, artifacts: Path, *, say: Say = lambda _m: None) -> tuple[str, str]:
    """(command, working directory) of a cli spec: the submission's path, or a venv for a requirement
    (the command's first word is taken from the venv's bin folder when it is there)."""
    assert spec.protocol == "cli" and spec.command
    if spec.path is not None:
        return spec.command, str((Path(folder) / spec.path).resolve())
    bin_dir = install_requirement(spec.requirement or "", artifacts, say=say)
    words = shlex.split(spec.command)
    if (bin_dir / words[0]).exists():
        words[0] = str(bin_dir / words[0])
    return shlex.join(words), str(bin_dir.parent.parent)


def run_tool(folder: Path, spec: ToolSpec, tool: str, server: Any, artifacts: Path, *, scale: str,
             question_mode: str, questions: list[Any], digest: str, audit: Any, golds: dict[int, Any],
             states: dict[int, Any], llm: Any = None, say: Say = lambda _m: None) -> ToolRun:
    """Predict with the tool on the drawn questions (primary state: the lowest hidden seed) and score
    every hidden state; correctness is sample 0 right on every state (multi-state EX@1's unit)."""
    from heron_pipeline.artifacts.ref import read_jsonl
    from heron_pipeline.bench.options import BenchOptions
    from heron_pipeline.bench.predict import predict
    from heron_pipeline.bench.run import score_pairs

    seeds = tuple(sorted(golds))
    options = BenchOptions(scale=scale, seeds=seeds, primary_seed=seeds[0], question_mode=question_mode,
                           tools=(tool,), seed_missing=False)
    try:
        if spec.protocol == "cli":
            command, cwd = cli_invocation(folder, spec, artifacts, say=say)
            options = replace(options, tools=("cli",), cli_command=command, cli_name=tool, cli_cwd=cwd)
        else:
            if llm is None or not getattr(llm, "configured", False):
                return not_run(questions, "no LLM endpoint is configured (HERON_LLM_BASE_URL)")
            llm = replace(llm, model=spec.model, temperature=0.0)
            options = replace(options, tools=(spec.adapter,))
        made = predict(server, artifacts, options, options.tools[0], questions, digest, audit, states[seeds[0]],
                       llm=llm, cache_dir=getattr(llm, "cache_dir", None))
    except (RuntimeError, ValueError, OSError) as err:
        return not_run(questions, " ".join(str(err).split())[:300])
    if made.status == "skipped" or made.predictions is None:
        return not_run(questions, made.reason or "skipped")
    scored = score_pairs(server, artifacts, [(made, golds[s]) for s in seeds], questions, audit, time_ves=False,
                         workers=1)
    correct = {q.id: True for q in questions}
    errors: set[str] = set()
    by_class: dict[str, int] = {}
    for result in scored:
        seen: set[str] = set()
        for record in read_jsonl(result.scores.path):
            if record["sample"] != 0 or record["question_id"] not in correct:
                continue
            seen.add(record["question_id"])
            correct[record["question_id"]] &= bool(record["correct"])
            if record.get("error_class") and record["question_id"] not in errors:
                errors.add(record["question_id"])
                by_class[record["error_class"]] = by_class.get(record["error_class"], 0) + 1
        for qid in set(correct) - seen:  # a question without a record on a state is wrong there
            correct[qid] = False
    return ToolRun(correct, len(errors), dict(sorted(by_class.items())))
