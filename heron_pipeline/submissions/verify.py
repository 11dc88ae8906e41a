"""``heron verify``: recompute a submission's figures on the public states and accept or reject it.

Numbers are recomputed, never accepted. The checks that need no database come first (schema,
scale and seeds, model, completeness, one read-only SELECT per prediction); then the public states
named in meta.json are built or reused, each checked against the fingerprint committed in
``submissions/expected_fingerprints.json``, audited, and every SQL is re-executed in the sandbox on
every state through the bench core's own steps (``audited_golds``, ``score``,
``compute_scale_standings``): verification cannot disagree with ``heron bench`` because it is the
same code. A claimed figure more than its tolerance (declared with the claim in the metric
registry, ``heron_pipeline.metrics``; 2 points) above its recomputed value is a ``claim_gap``. One
submission may hit several reason codes; all are reported (at most ``MAX_REASONS_PER_CODE`` of each
code are listed, then one line counting the rest).

A submission that fails any check needing no database is judged there: no state is built and no
SQL runs for it (a known-bad folder costs milliseconds, not the gigabytes of a state). The files
are read through ``submissions.files`` (regular files, bounded sizes and nesting) and the names
that reach a path must match one pattern and stay under their root, else ``malformed``.

The harness failing (server down, a public state whose fingerprint is not the committed one, an
audit that does not pass) is ``HarnessUnavailable`` — heron's failure, never the submitter's.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.submissions.files import FileRefused, read_submission_file, stays_inside
from heron_pipeline.submissions.schema import (
    CLAIMS_FILE,
    META_FILE,
    PREDICTIONS_FILE,
    SUBMISSION_FILES,
    Problem,
    Submission,
    load_submission,
)

EXPECTED_FINGERPRINTS = PROJECT_ROOT / "submissions" / "expected_fingerprints.json"
#: Hidden seeds are at least this large, so a public seed is always below it.
HIDDEN_SEED_MIN, HIDDEN_SEED_MAX = 10**9, 2**31 - 1
REASONS = ("malformed", "incomplete", "scale", "model", "non_select", "claim_gap", "verifier_error")
#: Reasons listed per code; the rest of a code is one entry counting them (``omitted``), so a
#: 50 MB folder of repeated lines gives a verdict of kilobytes, not of 68,600 reasons.
MAX_REASONS_PER_CODE = 20


class HarnessUnavailable(RuntimeError):
    """heron itself cannot verify right now (exit 4): the submission is not judged."""


def harness_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean heron itself cannot verify (server, sandbox role, artifacts, disk): they
    stop ``heron leaderboard`` as a whole, since no folder could be judged fairly. Anything else
    raised while judging one folder is about that folder."""
    import psycopg

    from heron_pipeline.artifacts.ref import ArtifactMismatch
    from heron_pipeline.database.embedded import ServerError
    from heron_pipeline.sandbox.errors import SandboxUnavailable

    return HarnessUnavailable, ServerError, psycopg.OperationalError, SandboxUnavailable, ArtifactMismatch, OSError


@dataclass(frozen=True)
class BoardRules:
    """The board's one model for the ``sql`` class (the spec: gpt-4o, sample 0 at temperature 0)."""

    model: str = "gpt-4o"
    temperature: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "temperature": self.temperature}


@dataclass
class Verdict:
    """The outcome of one verification; ``to_json`` is what ``heron verify`` prints."""

    folder: str
    tool: str | None
    klass: str | None
    reasons: list[dict[str, Any]] = field(default_factory=list)
    claimed: dict[str, float] = field(default_factory=dict)
    reproduced: dict[str, float | None] = field(default_factory=dict)
    states: list[dict[str, Any]] = field(default_factory=list)
    conditions: dict[str, Any] = field(default_factory=dict)
    standing: dict[str, Any] | None = None  # the recomputed standings row (sql, reference)
    retrieval: dict[str, Any] | None = None  # the recomputed retrieval-board entry (retrieval)
    questions_digest: str | None = None
    submission_digest: str | None = None

    @property
    def accepted(self) -> bool:
        return not self.reasons

    @property
    def codes(self) -> list[str]:
        return list(dict.fromkeys(r["code"] for r in self.reasons))

    def reject(self, code: str, detail: str, **where: Any) -> None:
        listed = [r for r in self.reasons if r["code"] == code]
        if len(listed) < MAX_REASONS_PER_CODE:
            self.reasons.append({"code": code, "detail": detail,
                                 **{k: v for k, v in where.items() if v is not None}})
            return
        rest = listed[-1] if "omitted" in listed[-1] else None
        if rest is None:
            rest = {"code": code, "detail": "", "omitted": 0}
            self.reasons.append(rest)
        rest["omitted"] += 1
        rest["detail"] = f"{rest['omitted']:,} more {code} reason(s) not listed"

    def to_json(self) -> dict[str, Any]:
        return {"status": "accepted" if self.accepted else "rejected", "folder": self.folder, "tool": self.tool,
                "class": self.klass, "reason_codes": self.codes, "reasons": self.reasons, "claimed": self.claimed,
                "reproduced": self.reproduced, "public_states": self.states, "conditions": self.conditions,
                "questions_digest": self.questions_digest, "submission_digest": self.submission_digest,
                "standing": self.standing, "retrieval": self.retrieval}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "Verdict":
        return cls(doc["folder"], doc.get("tool"), doc.get("class"), list(doc.get("reasons") or []),
                   dict(doc.get("claimed") or {}), dict(doc.get("reproduced") or {}),
                   list(doc.get("public_states") or []), dict(doc.get("conditions") or {}), doc.get("standing"),
                   doc.get("retrieval"), doc.get("questions_digest"), doc.get("submission_digest"))


def submission_digest(folder: Path) -> str:
    """sha256 over the three files' names and bytes (missing files count as absent, files heron
    refuses to read — links, devices, FIFOs, over their size limit — as refused), then a runnable
    submission's tool.toml and tool folder (so hidden figures follow the tool's exact bytes)."""
    digest = hashlib.sha256()
    for name in SUBMISSION_FILES:
        try:
            data = read_submission_file(Path(folder), name)
        except FileNotFoundError:
            data = b"<missing>"
        except (FileRefused, OSError):
            data = b"<refused>"
        digest.update(name.encode() + b"\0")
        digest.update(data)
        digest.update(b"\0")
    from heron_pipeline.hidden.toolspec import runnable_digest_parts

    for name, data in runnable_digest_parts(Path(folder)):  # tool.toml and its tool folder, when runnable
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def load_expected_fingerprints(path: Path = EXPECTED_FINGERPRINTS) -> dict[str, dict[int, str]]:
    """scale -> seed -> committed fingerprint of each public state."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except json.JSONDecodeError as err:
        raise HarnessUnavailable(f"{path} is not JSON ({err.msg}); regenerate it with `make submissions`") from None
    return {scale: {int(seed): str(fp) for seed, fp in seeds.items()} for scale, seeds in doc.get("states", {}).items()}


def _line_of(folder: Path, name: str, key: str) -> int | None:
    """The line of a top-level key in a JSON file (for located messages)."""
    try:
        text = read_submission_file(Path(folder), name).decode("utf-8")
    except (OSError, FileRefused, UnicodeDecodeError):
        return None
    for number, line in enumerate(text.splitlines(), start=1):
        if f'"{key}"' in line:
            return number
    return None


def _malformed(verdict: Verdict, folder: Path, problems: Iterable[Problem]) -> None:
    for p in problems:
        line = p.line
        if line is None and p.field and p.file in (META_FILE, CLAIMS_FILE):
            line = _line_of(folder, p.file, p.field.split(".")[0])
        verdict.reject("malformed", p.message, file=p.file, line=line, field=p.field)


def static_checks(sub: Submission, verdict: Verdict, questions: list[Any], digest: str,
                  expected: dict[str, dict[int, str]], board: BoardRules) -> None:
    """Every rule that needs no database: scale, model, incomplete, non_select."""
    from heron_pipeline.bench.options import QUESTION_MODES
    from heron_pipeline.database.names import SCALES
    from heron_pipeline.sandbox.errors import LimitExceeded, Rejected
    from heron_pipeline.sandbox.guard import check_sql

    meta, folder = sub.meta, sub.folder
    assert meta is not None and sub.predictions is not None

    def at(key: str) -> int | None:
        return _line_of(folder, META_FILE, key)

    # scale: meta.json, the records and the run manifest must describe the same run on public states
    if meta.scale not in SCALES:
        verdict.reject("scale", f"unknown scale {meta.scale!r}; one of {', '.join(SCALES)}", file=META_FILE,
                       line=at("scale"), field="scale")
    if meta.question_mode not in QUESTION_MODES:
        verdict.reject("scale", f"unknown question mode {meta.question_mode!r}; one of {', '.join(QUESTION_MODES)}",
                       file=META_FILE, line=at("question_mode"), field="question_mode")
    if meta.questions_digest != digest:
        verdict.reject("scale", f"questions digest {meta.questions_digest[:12]}… is not the current one "
                                f"({digest[:12]}…); regenerate the submission against the current questions",
                       file=META_FILE, line=at("questions_digest"), field="questions_digest")
    public = expected.get(meta.scale)
    for seed in meta.seeds:
        if seed >= HIDDEN_SEED_MIN or (public is not None and seed not in public):
            verdict.reject("scale", f"seed {seed} is not a public seed of {meta.scale}"
                           + (f" (public: {', '.join(map(str, sorted(public)))})" if public else ""),
                           file=META_FILE, line=at("seeds"), field="seeds")
    if meta.run is not None:
        run = meta.run
        for key, mine, theirs in (("scale", meta.scale, run.scale), ("seeds", sorted(meta.seeds), sorted(run.seeds)),
                                  ("question_mode", meta.question_mode, run.question_mode),
                                  ("questions_digest", meta.questions_digest, run.questions_digest)):
            if mine != theirs:
                verdict.reject("scale", f"the run manifest says {key} {theirs!r}, meta.json {mine!r}",
                               file=META_FILE, line=at("run"), field=f"run.{key}")
    for key in ("scale", "question_mode"):
        wrong = [n for n, r in enumerate(sub.predictions, start=1)
                 if getattr(r, key) is not None and getattr(r, key) != getattr(meta, key)]
        if wrong:
            other = getattr(sub.predictions[wrong[0] - 1], key)
            verdict.reject("scale", f"{len(wrong)} record(s) are for {key} {other!r}, meta.json says "
                                    f"{getattr(meta, key)!r}", file=PREDICTIONS_FILE, line=wrong[0], field=key)
    # model: one model for the sql class (a tool that calls no model says so with model and temperature
    # null: nothing to compare); reference and retrieval rows have none
    if meta.class_ == "sql" and not (meta.model is None and meta.temperature is None):
        if meta.model != board.model:
            verdict.reject("model", f"model {meta.model!r} is not the board's model {board.model!r}",
                           file=META_FILE, line=at("model"), field="model")
        if meta.temperature != board.temperature:
            verdict.reject("model", f"temperature {meta.temperature!r}: the board scores sample 0 at temperature "
                                    f"{board.temperature}", file=META_FILE, line=at("temperature"), field="temperature")
    else:
        for key in ("model", "temperature"):
            if getattr(meta, key) is not None:
                verdict.reject("model", f"class {meta.class_} has no {key} (got {getattr(meta, key)!r}); "
                                        f"set it to null", file=META_FILE, line=at(key), field=key)
    # incomplete: every question × sample exactly once, no unknown ids
    known = {q.id for q in questions}
    seen: dict[tuple[str, int], int] = {}
    for number, r in enumerate(sub.predictions, start=1):
        if r.question_id not in known:
            verdict.reject("incomplete", f"unknown question id {r.question_id!r}", file=PREDICTIONS_FILE,
                           line=number, field="question_id")
        elif r.sample >= meta.n:
            verdict.reject("incomplete", f"sample {r.sample} of {r.question_id} but n is {meta.n}",
                           file=PREDICTIONS_FILE, line=number, field="sample")
        elif (r.question_id, r.sample) in seen:
            verdict.reject("incomplete", f"{r.question_id} sample {r.sample} given twice (first on line "
                                         f"{seen[(r.question_id, r.sample)]})", file=PREDICTIONS_FILE, line=number,
                           field="sample")
        else:
            seen[(r.question_id, r.sample)] = number
    missing = [f"{q.id}#{s}" for q in questions for s in range(meta.n) if (q.id, s) not in seen]
    if missing:
        verdict.reject("incomplete", f"{len(missing)} question sample(s) missing: {', '.join(missing[:10])}"
                       + (" …" if len(missing) > 10 else ""), file=PREDICTIONS_FILE)
    # non_select: every predicted SQL that would be scored must be one read-only SELECT (the sandbox's
    # parser layer). Only the records recomputation would score are parsed (the first line of each
    # known question × sample; duplicates and unknown ids are already `incomplete`), each distinct
    # text once: parsing is what a folder of repeated lines would otherwise make heron do 68,600
    # times. SQL over the parser's bounds is not a rejection: the sandbox refuses it the same way
    # when it is scored, so it counts as a failed prediction (``limit``), exactly as in `heron bench`.
    refusals: dict[str, str | None] = {}
    for number in sorted(seen.values()):
        r = sub.predictions[number - 1]
        if r.sql is None:
            continue
        if r.sql not in refusals:
            try:
                check_sql(r.sql)
                refusals[r.sql] = None
            except Rejected as err:
                refusals[r.sql] = str(err)
            except (LimitExceeded, RecursionError):
                refusals[r.sql] = None
        if refusals[r.sql] is not None:
            verdict.reject("non_select", f"{r.question_id} sample {r.sample}: {refusals[r.sql]}",
                           file=PREDICTIONS_FILE, line=number, field="sql")


def runnable_check(sub: Submission, verdict: Verdict, board: BoardRules) -> None:
    """A runnable submission's ``tool.toml`` checked statically (schema, nothing outside the folder, the
    board's model policy, bounded files); the verdict's conditions say whether the row is runnable."""
    from heron_pipeline.hidden.toolspec import TOOL_FILE, ToolSpecError, read_tool_spec, tool_files

    try:
        spec = read_tool_spec(sub.folder, board_model=board.model)
        if spec is not None and spec.path:
            tool_files(sub.folder, spec.path)
    except ToolSpecError as err:
        verdict.reject(err.code, str(err), file=TOOL_FILE)
        return
    if spec is not None and sub.meta is not None and sub.meta.class_ == "retrieval":
        verdict.reject("malformed", f"{TOOL_FILE}: a retrieval submission is not scored on SQL; remove tool.toml",
                       file=TOOL_FILE)
        return
    verdict.conditions["runnable"] = spec.protocol if spec is not None else None


def escaping_names(sub: Submission, artifacts: Path) -> list[tuple[str, str]]:
    """(field, value) of each submitted name that would not stay under its artifacts folder. The
    schema's name pattern already refuses these; this is the check on the resolved path itself."""
    from heron_pipeline.artifacts import ArtifactLayout

    meta = sub.meta
    assert meta is not None
    layout = ArtifactLayout.of(artifacts)
    # every folder the verification would write under, as the layout names it
    written = {"tool": layout.scores(meta.tool, meta.scale, 0, meta.question_mode),
               "scale": layout.submission_predictions(meta.scale, meta.question_mode),
               "question_mode": layout.submission_predictions(meta.scale, meta.question_mode)}
    named = {"tool": meta.tool, "scale": meta.scale, "question_mode": meta.question_mode}
    return [(key, named[key]) for key, folder in written.items()
            if not stays_inside(layout.root, os.path.relpath(folder, layout.root))]


def _states(server: Any, artifacts: Path, scale: str, seeds: Iterable[int], expected: dict[str, dict[int, str]],
            say: Any) -> dict[int, Any]:
    """Build or reuse each state and check it against the committed fingerprint."""
    from heron_pipeline.bench.states import build_state

    states = {}
    for seed in sorted(seeds):
        state = build_state(server, artifacts, scale, seed, say=say)
        want = expected.get(scale, {}).get(seed)
        if want is not None and state.fingerprint != want:
            raise HarnessUnavailable(
                f"{state.database} has fingerprint {state.fingerprint[:16]}…, the repository expects {want[:16]}… "
                f"(submissions/expected_fingerprints.json); the generator changed: regenerate the committed "
                f"fingerprints and submissions (`make submissions`)")
        states[seed] = state
    return states


def _audited(server: Any, artifacts: Path, scale: str, states: dict[int, Any], questions: list[Any], digest: str,
             say: Any) -> tuple[Any, dict[int, Any]]:
    from heron_pipeline.bench.audit import AuditGateError, require_passed
    from heron_pipeline.bench.run import audited_golds

    audit, golds = audited_golds(server, artifacts, scale, states, questions, digest, say=say)
    try:
        require_passed(audit, scale)
    except AuditGateError as err:
        raise HarnessUnavailable(f"{err}; the submission cannot be judged until the questions pass their audit") from None
    return audit, golds


def _predictions_result(artifacts: Path, sub: Submission, records: list[Any], digest: str, audit: Any,
                        primary: Any) -> Any:
    """The submission's predictions as the bench core's predictions result (content-hashed artifact)."""
    from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_jsonl_artifact
    from heron_pipeline.bench.predict import PredictionsResult
    from heron_pipeline.scoring.grade import CLAIMED, telemetry

    meta = sub.meta
    assert meta is not None
    path, sha = write_jsonl_artifact(ArtifactLayout.of(artifacts).submission_predictions(meta.scale, meta.question_mode),
                                     (r.to_json() for r in records))
    extra = meta.model_extra or {}
    conditions = {"model": meta.model, "temperature": meta.temperature, "question_mode": meta.question_mode,
                  **{k: extra[k] for k in ("usd_per_mtok_prompt", "usd_per_mtok_completion") if k in extra},
                  # tokens and latency in predictions.jsonl are the submitter's word: shown, never graded
                  "telemetry": telemetry(tokens=CLAIMED, latency=CLAIMED)}
    return PredictionsResult(
        tool=meta.tool, kind="reference" if meta.class_ == "reference" else meta.class_, status="complete",
        reason=None, scale=meta.scale, question_mode=meta.question_mode, n=meta.n, predictions=ArtifactRef(path, sha),
        conditions=conditions, summary={}, questions_digest=digest,
        primary={"seed": primary.seed, "fingerprint": primary.fingerprint}, audit_key=audit.key, records=len(records))


def _multi_state_correct(scores: list[Any]) -> dict[str, bool]:
    """Question id → sample 0 correct on every state (multi-state EX@1's unit), from the score records."""
    from heron_pipeline.artifacts.ref import read_jsonl

    correct: dict[str, bool] = {}
    for s in scores:
        s.scores.read_bytes()
        for r in read_jsonl(s.scores.path):
            if r["sample"] == 0:
                correct[r["question_id"]] = correct.get(r["question_id"], True) and bool(r["correct"])
    return correct


def _cells(correct: dict[str, bool], questions: list[Any]) -> dict[str, dict[str, float]]:
    """Multi-state EX@1 per (SQL shape × retrieval difficulty) cell and per trap."""
    from heron_pipeline.scoring import breakdown

    def v(x: Any) -> str:
        return str(getattr(x, "value", x))

    tags = {q.id: [f"{v(q.shape)} × {v(q.retrieval)}", *(f"trap:{v(t)}" for t in q.traps)] for q in questions}
    return {label: {"n": n, "ex": 100 * mean} for label, (n, mean) in breakdown(correct, tags).items()}


def recompute(server: Any, artifacts: Path, sub: Submission, questions: list[Any], digest: str, seeds: Iterable[int],
              expected: dict[str, dict[int, str]], *, say: Any = lambda _m: None) -> tuple[dict[str, Any], list[Any]]:
    """The submission's figures on the states ``seeds`` (standings row or retrieval entry) and the states."""
    from heron_pipeline.bench.options import PRIMARY_SEED
    from heron_pipeline.bench.score import score
    from heron_pipeline.bench.standings import compute_scale_standings
    from heron_pipeline.submissions.figures import retrieval_breakdown, retrieval_figures

    meta = sub.meta
    assert meta is not None and sub.predictions is not None
    known = {q.id for q in questions}
    unique: dict[tuple[str, int], Any] = {}
    for line in sub.predictions:
        if line.question_id in known and line.sample < meta.n:
            unique.setdefault((line.question_id, line.sample), line.record())
    records = list(unique.values())
    seeds = sorted(seeds)
    states = _states(server, artifacts, meta.scale, seeds, expected, say)
    audit, golds = _audited(server, artifacts, meta.scale, states, questions, digest, say)
    if meta.class_ == "retrieval":
        figures = retrieval_figures(records, questions)
        return {"figures": figures, "retrieval": {"tool": meta.tool, **figures,
                                                  "by_retrieval": retrieval_breakdown(records, questions)}}, \
            list(states.values())
    primary = states[PRIMARY_SEED] if PRIMARY_SEED in states else states[seeds[0]]
    made = _predictions_result(artifacts, sub, records, digest, audit, primary)
    scored = [score(server, artifacts, made, golds[seed], questions, audit) for seed in seeds]
    standings = compute_scale_standings(artifacts, audit, [made], scored, meta.question_mode, seeds=seeds).load()
    row = next(t for t in standings["tools"] if t["tool"] == meta.tool)
    correct = _multi_state_correct(scored)
    row["breakdown_cells"] = _cells(correct, questions)
    # kept for paired comparisons (A vs B on the same questions; the hidden evaluation's gap)
    row["per_question"] = {qid: int(ok) for qid, ok in sorted(correct.items())}
    return {"figures": row, "standing": row}, list(states.values())


def verify(folder: Path, server: Any, artifacts: Path, *, board: BoardRules = BoardRules(),
           expected: dict[str, dict[int, str]] | None = None, questions_dir: Path | None = None,
           say: Any = lambda _m: None) -> Verdict:
    """Judge one submission folder on its public states. Raises HarnessUnavailable when heron cannot run."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.metrics import claim_gaps, claim_keys

    folder = Path(folder)
    expected = load_expected_fingerprints() if expected is None else expected
    questions, digest = question_set(Path(questions_dir or QUESTIONS_DIR))
    sub = load_submission(folder)
    verdict = Verdict(folder=folder.name, tool=sub.meta.tool if sub.meta else None,
                      klass=sub.meta.class_ if sub.meta else None, claimed=dict(sub.claims or {}),
                      questions_digest=digest, submission_digest=submission_digest(folder))
    _malformed(verdict, folder, sub.problems)
    if sub.meta is None or sub.predictions is None:
        return verdict
    meta = sub.meta
    if meta.instance_seed:  # predictions for a drawn question set: judged against that draw
        questions, digest = question_set(Path(questions_dir or QUESTIONS_DIR), meta.instance_seed,
                                         meta.instance_redraws)
        verdict.questions_digest = digest
    verdict.conditions = {"scale": meta.scale, "seeds": sorted(meta.seeds), "question_mode": meta.question_mode,
                          "model": meta.model, "temperature": meta.temperature, "n": meta.n,
                          "version": meta.version, "approach": meta.approach, "repository": meta.repository,
                          "date": meta.date, "harness_version": meta.harness_version, "command": meta.command,
                          **({"instance_seed": meta.instance_seed} if meta.instance_seed else {})}
    static_checks(sub, verdict, questions, digest, expected, board)
    runnable_check(sub, verdict, board)
    for key, value in escaping_names(sub, artifacts):
        verdict.reject("malformed", f"{key} {value!r} leaves heron's artifacts folder", file=META_FILE,
                       line=_line_of(folder, META_FILE, key), field=key)
    if verdict.reasons:
        return verdict  # judged without a database: build and re-execute only what passed every check
    result, states = recompute(server, artifacts, sub, questions, digest, meta.seeds, expected, say=say)
    verdict.states = [{"seed": s.seed, "fingerprint": s.fingerprint, "generator_version": s.generator_version,
                       "expected": expected.get(meta.scale, {}).get(s.seed) == s.fingerprint} for s in states]
    figures = result["figures"]
    verdict.reproduced = {k: figures.get(k) for k in claim_keys(meta.class_)}
    verdict.standing, verdict.retrieval = result.get("standing"), result.get("retrieval")
    for claim, claimed, got in claim_gaps(meta.class_, verdict.claimed, verdict.reproduced):
        verdict.reject("claim_gap", f"{claim.key}: claimed {claimed:g}, recomputed "
                                    f"{'none' if got is None else f'{got:g}'} (tolerance {claim.tolerance:g} "
                                    f"points)", file=CLAIMS_FILE, line=_line_of(folder, CLAIMS_FILE, claim.key),
                       field=claim.key)
    return verdict


def hidden_figure(folder: Path, server: Any, artifacts: Path, hidden_seeds: Iterable[int], *,
                  expected: dict[str, dict[int, str]] | None = None, questions_dir: Path | None = None,
                  say: Any = lambda _m: None) -> dict[str, Any] | None:
    """Multi-state EX@1 over the public + hidden states of an accepted sql/reference submission:
    ``{"hidden_states": N, "multi_state_ex1_public_hidden": x}`` — never the seeds or fingerprints."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR

    hidden = sorted(set(hidden_seeds))
    expected = load_expected_fingerprints() if expected is None else expected
    questions, digest = question_set(Path(questions_dir or QUESTIONS_DIR))
    sub = load_submission(folder)
    if sub.meta is None or sub.meta.class_ == "retrieval" or not hidden:
        return None
    result, _ = recompute(server, artifacts, sub, questions, digest, [*sub.meta.seeds, *hidden], expected, say=say)
    return {"hidden_states": len(hidden), "multi_state_ex1_public_hidden": result["figures"]["multi_state_ex1"]}


def read_hidden_seeds(path: Path) -> list[int]:
    """The hidden seeds of a file (integers separated by whitespace or commas; ``#`` starts a comment).
    ValueError naming the file and the bad entry."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"--hidden-seeds-file {path}: cannot read it ({err.strerror or err})") from None
    seeds = []
    for line in text.splitlines():
        for item in line.split("#", 1)[0].replace(",", " ").split():
            try:
                seed = int(item)
            except ValueError:
                raise ValueError(f"--hidden-seeds-file {path}: {item!r} is not an integer") from None
            if not HIDDEN_SEED_MIN <= seed <= HIDDEN_SEED_MAX:
                raise ValueError(f"--hidden-seeds-file {path}: a hidden seed must be between {HIDDEN_SEED_MIN} and "
                                 f"{HIDDEN_SEED_MAX} (got one outside)")
            seeds.append(seed)
    if not seeds:
        raise ValueError(f"--hidden-seeds-file {path}: no seeds in it")
    return sorted(set(seeds))
