"""``heron explain``'s core: one prediction's cause and row diff, found by identity through a run manifest.

The score record is the one a recorded bench run wrote (``runs/<digest>.json`` names every scores
artifact with its sha256; the artifact is read only if its bytes still hash to it), never "the
newest file". The predicted and gold SQL are executed again on the state — the prediction through
the sandbox, as the scorer ran it — to show which rows differ; the cause shown is the stored one,
the one the standings counted. A ``trap:<tag>`` cause lists the mutants the answer equals and is
checked again against the stored mutant answers the run recorded (``mutants.answers``, by digest).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.artifacts import ArtifactLayout
from heron_pipeline.artifacts.ref import ArtifactRef, read_jsonl
from heron_pipeline.bench.run import recorded_runs
from heron_pipeline.diagnosis.causes import TRAP_PREFIX, RowDiff, row_diff, trap_label, trap_matches


class NotFound(ValueError):
    """No recorded run, score or state to explain from; the message names what was looked for."""


class UnknownName(ValueError):
    """A tool, question or seed the recorded run does not have; the message lists what it has."""


@dataclass(frozen=True)
class RecordedScores:
    """The run manifest a tool's scores were found in, and the scores artifact of each seed."""

    manifest: Path
    run: dict[str, Any]
    scores: dict[int, ArtifactRef]
    #: seed -> the trap mutant answers the scores were diagnosed with (runs before them: none)
    mutant_answers: dict[int, ArtifactRef] = field(default_factory=dict)

    @property
    def seeds(self) -> list[int]:
        return sorted(self.scores)

    @property
    def questions_dir(self) -> Path:
        return Path(self.run["questions"]["dir"])

    @property
    def question_mode(self) -> str:
        """The question mode the run scored (the text ``heron explain`` shows)."""
        return run_question_mode(self.run)

    @property
    def instance_seed(self) -> int:
        """The question draw the run scored (0: the public set)."""
        return int(self.run["questions"].get("instance_seed") or 0)

    @property
    def redraws(self) -> dict[str, int]:
        return dict(self.run["questions"].get("redraws") or {})


def run_question_mode(doc: dict[str, Any]) -> str:
    """The question mode a recorded run scored (a manifest from before question modes: ``full``)."""
    return str((doc.get("options") or {}).get("question_mode", "full"))


def recorded_scores(artifacts: Path, tool: str, scale: str, question_mode: str | None = None,
                    run: Path | None = None) -> RecordedScores:
    """The scores of ``tool`` in run manifest ``run``, or in the most recent recorded run (by its
    finish time) of ``scale`` that scored ``tool`` — of ``question_mode`` when one is given, of any
    mode otherwise (``heron explain`` right after ``heron bench`` finds the bench's run, whichever
    mode it ran in).

    NotFound when no run of that scale (and mode) is recorded; UnknownName when runs are but none
    scored ``tool`` (the message lists the tools they scored)."""
    modes = f" ({question_mode})" if question_mode else ""
    if run is not None:
        try:
            candidates = [(run, json.loads(Path(run).read_text(encoding="utf-8")))]
        except UnicodeDecodeError as err:
            raise NotFound(f"--run {run}: not a run manifest (not UTF-8 text: byte 0x{err.object[err.start]:02x} "
                           f"at offset {err.start}); give a runs/<sha256>.json that `heron bench` wrote") from None
        except (OSError, ValueError) as err:
            raise NotFound(f"--run {run}: not a readable run manifest ({type(err).__name__})") from None
    else:
        candidates = [(p, d) for p, d in recorded_runs(artifacts) if (d.get("options") or {}).get("scale") == scale
                      and question_mode in (None, run_question_mode(d))]
    if not candidates:
        raise NotFound(f"no recorded run of {scale}{modes} in {ArtifactLayout.of(artifacts).runs()}; "
                       f"run `heron bench --scale {scale}"
                       + (f" --question-mode {question_mode}" if question_mode else "") + "` first")
    matching, tools = [], set()
    for path, doc in candidates:
        tools |= {s["tool"] for s in doc.get("scores") or [] if s.get("status") == "scored"}
        entries = [s for s in doc.get("scores") or []
                   if s.get("tool") == tool and s.get("status") == "scored" and s.get("scores")]
        if entries:
            matching.append((str(doc.get("finished_at") or doc.get("started_at") or ""), path.name, path, doc, entries))
    if not matching:
        have = ", ".join(sorted(tools)) or "no tool"
        raise UnknownName(f"--tool {tool}: no recorded run of {scale}{modes} scored it; they scored {have}")
    _, _, path, doc, entries = max(matching, key=lambda m: (m[0], m[1]))
    return RecordedScores(path, doc, {int(s["seed"]): ArtifactRef.from_json(s["scores"]) for s in entries},
                          {int(s["seed"]): ArtifactRef.from_json(s["mutant_answers"]) for s in entries
                           if s.get("mutant_answers")})


def score_record(ref: ArtifactRef, question_id: str) -> dict[str, Any] | None:
    """Sample 0's score record of ``question_id`` in a scores artifact (its digest checked first)."""
    ref.read_bytes()  # ArtifactMismatch when the file is gone or changed
    return next((r for r in read_jsonl(ref.path) if r["question_id"] == question_id and r["sample"] == 0), None)


def predicted_sql(run: dict[str, Any], tool: str, question_id: str) -> str | None:
    """Sample 0's SQL of ``question_id`` in the predictions artifact the run recorded for ``tool``."""
    made = next((p for p in run.get("predictions") or [] if p.get("tool") == tool and p.get("predictions")), None)
    if made is None:
        return None
    ref = ArtifactRef.from_json(made["predictions"])
    ref.read_bytes()
    return next((r.get("sql") for r in read_jsonl(ref.path) if r["question_id"] == question_id
                 and r.get("sample", 0) == 0), None)


@dataclass(frozen=True)
class Explanation:
    """Everything ``heron explain`` prints about one prediction on one state."""

    tool: str
    scale: str
    seed: int
    question_id: str
    question: str
    gold_sql: str
    pred_sql: str | None
    record: dict[str, Any]
    diff: RowDiff | None
    failure: str | None  # why the prediction could not be re-run (its error class and message)
    manifest: Path
    #: a trap cause checked again: the stored mutant answers' digest and the mutants the re-run
    #: answer equals (``trap_label``), in the diagnosis' order; None when not checked
    trap_check: tuple[str, tuple[str, ...]] | None = None


def explain(recorded: RecordedScores, tool: str, question: Any, question_text: str, seed: int | None,
            execute: Callable[[int, str], list[tuple]], run_gold: Callable[[int, str], list[tuple]],
            *, examples: int = 5) -> Explanation:
    """One prediction explained: on ``seed``, or on the first seed (in seed order) where it is wrong,
    else the first seed. ``execute(seed, sql)`` runs the prediction through the sandbox (raises on
    failure), ``run_gold(seed, sql)`` the gold."""
    if seed is not None and seed not in recorded.scores:
        raise UnknownName(f"--seed {seed}: {tool} was scored on seeds {','.join(map(str, recorded.seeds))} in "
                          f"{recorded.manifest.name}")
    records = {}
    for s in ([seed] if seed is not None else recorded.seeds):
        record = score_record(recorded.scores[s], question.id)
        if record is None:
            raise NotFound(f"no score of {question.id} for {tool} on seed {s} in {recorded.scores[s].path}")
        records[s] = record
    chosen = seed if seed is not None else next((s for s in recorded.seeds if not records[s]["correct"]),
                                                recorded.seeds[0])
    record = records[chosen]
    sql = predicted_sql(recorded.run, tool, question.id)
    diff = failure = trap_check = None
    if sql is None:
        failure = record.get("error") or "no SQL"
    else:
        try:
            pred_rows = execute(chosen, sql)
        except Exception as err:  # noqa: BLE001 — the sandbox's own classified failure, shown as it is
            failure = f"{getattr(err, 'kind', type(err).__name__)}: {' '.join(str(err).split())[:300]}"
        else:
            diff = row_diff(run_gold(chosen, question.gold_sql), pred_rows, examples=examples)
            trap_check = _trap_check(recorded, chosen, question, record, pred_rows)
    return Explanation(tool, recorded.run["options"]["scale"], chosen, question.id, question_text, question.gold_sql,
                       sql, record, diff, failure, recorded.manifest, trap_check)


def _trap_check(recorded: RecordedScores, seed: int, question: Any, record: dict[str, Any],
                pred_rows: list[tuple]) -> tuple[str, tuple[str, ...]] | None:
    """A stored ``trap:<tag>`` cause decided again from the stored mutant answers of ``seed``."""
    from heron_pipeline.mutants.answers import parse_mutant_answers

    ref = recorded.mutant_answers.get(seed)
    if ref is None or not str(record.get("cause") or "").startswith(TRAP_PREFIX):
        return None
    answers = parse_mutant_answers(ref.read_json()).get(question.id, ())
    found = trap_matches(question.gold_sql, pred_rows, answers, [str(getattr(t, "value", t)) for t in question.traps])
    return ref.digest, tuple(trap_label(m) for m in found)


def _rows(rows: tuple[tuple, ...]) -> list[str]:
    return ["    " + " | ".join("NULL" if v is None else str(v) for v in row) for row in rows]


def explanation_text(e: Explanation) -> str:
    """The explanation as the lines ``heron explain`` prints."""
    r = e.record
    verdict = "correct" if r["correct"] else "wrong"
    lines = [f"{e.tool} · {e.question_id} · {e.scale} seed {e.seed}: {verdict}  (run {e.manifest.name[:12]}…)",
             "", "question:", f"  {e.question}", "", "gold SQL:", *("  " + l for l in e.gold_sql.strip().splitlines()),
             "", "predicted SQL:", *("  " + l for l in (e.pred_sql or "(none)").strip().splitlines()), ""]
    if r["correct"]:
        lines.append("cause: none (correct)")
    else:
        cause = r.get("cause") or r.get("error_class") or "unknown"
        detail = r.get("cause_detail") or (r.get("error") if r.get("error_class") else None)
        lines.append(f"cause: {cause}" + (f" — {detail}" if detail else ""))
        if r.get("missing_tables"):
            lines.append(f"  gold tables not read: {', '.join(r['missing_tables'])}")
        if r.get("extra_tables"):
            lines.append(f"  tables gold does not read: {', '.join(r['extra_tables'])}")
        if r.get("trap_mutants"):
            lines.append("  the answer equals, on this state, the answer of the gold's mutant (traps: description):")
            lines += [f"    {label}" for label in r["trap_mutants"]]
        if e.trap_check is not None:
            digest, found = e.trap_check
            same = list(found) == list(r.get("trap_mutants") or [])
            lines.append(f"  {'reproduced' if same else 'NOT reproduced'} from the stored mutant answers "
                         f"{digest[:12]}… ({len(found)} matching)")
    if e.failure is not None:
        lines.append(f"prediction not executed again: {e.failure}")
    elif e.diff is not None:
        d = e.diff
        lines += ["", f"rows: {d.rows_missing} in gold only, {d.rows_extra} in the prediction only"
                      + (f" (predicted columns {', '.join(str(c + 1) for c in d.columns)} paired with gold's)"
                         if d.columns and list(d.columns) != list(range(len(d.columns))) else "")]
        if d.missing:
            lines += [f"  first {len(d.missing)} in gold only:", *_rows(d.missing)]
        if d.extra:
            lines += [f"  first {len(d.extra)} in the prediction only:", *_rows(d.extra)]
    return "\n".join(lines) + "\n"
