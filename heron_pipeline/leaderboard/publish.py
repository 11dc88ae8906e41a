"""``heron leaderboard``: the published leaderboard, generated only from verified submissions.

Every folder under ``submissions/`` is verified (a verdict whose inputs — the submission's bytes,
the questions, the expected fingerprints, the board's rules and heron's own code — are unchanged
is reused by digest), accepted rows are ranked per (scale, question mode, seeds), rejected folders
are listed in public with their reason codes, and every file of the published folder is rendered
from that one document, so the files cannot disagree and nothing depends on the clock: the same
submissions always give the same bytes (a test regenerates the folder and compares).

Hidden states: with hidden seeds, every accepted sql/reference row also gets multi-state EX@1 over
public + hidden states and the COUNT of hidden states — never a seed or a fingerprint. Without
them the figures already published for the same submission bytes are carried over verbatim, and
nothing else about hidden states is computed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Any, Callable, Iterable

from heron_pipeline.artifacts.atomic import write_text_atomic
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.leaderboard.boards import board_order, board_role
from heron_pipeline.leaderboard.rows import leaderboard_rows, row_fields
from heron_pipeline.leaderboard.write import PUBLISHED_DIR, render_markdown
from heron_pipeline.metrics import claim_keys, field_figures
from heron_pipeline.scoring.grade import CLAIMED, telemetry

SUBMISSIONS_DIR = PROJECT_ROOT / "submissions"
PUBLISHED_FILES = ("leaderboard.json", "leaderboard.csv", "LEADERBOARD.md", "leaderboard.svg", "breakdown.svg",
                   "retrieval.csv", "index.html")
HIDDEN_KEYS = ("hidden_states", "multi_state_ex1_public_hidden")

Say = Callable[[str], None]


def submission_folders(root: Path) -> list[Path]:
    """Every folder of ``root`` holding at least one submission file, in name order."""
    from heron_pipeline.submissions.schema import SUBMISSION_FILES

    return sorted(p for p in Path(root).iterdir() if p.is_dir() and any((p / f).exists() for f in SUBMISSION_FILES))


def code_digest() -> str:
    """sha256 of heron's Python sources: a verdict computed by other code is not reused."""
    digest = hashlib.sha256()
    root = PROJECT_ROOT / "heron_pipeline"
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def verdict_key(folder: Path, questions_digest: str, expected: dict[str, dict[int, str]], board: Any) -> str:
    from heron_pipeline.submissions.verify import submission_digest

    doc = {"submission": submission_digest(folder), "questions": questions_digest, "board": board.to_json(),
           "expected": {s: {str(k): v for k, v in sorted(f.items())} for s, f in sorted(expected.items())},
           "code": code_digest(), "folder": folder.name}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def cached_verdict(folder: Path, server: Any, artifacts: Path, *, board: Any, expected: dict[str, dict[int, str]],
                   questions_dir: Path | None = None, say: Say = lambda _m: None) -> Any:
    """The verdict of ``folder``, reused from ``<artifacts>/verdicts/<key>.json`` when its inputs are unchanged."""
    from heron_pipeline.artifacts import ArtifactLayout, canonical_json, write_atomic
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.submissions.verify import Verdict, verify

    _q, digest = question_set(Path(questions_dir or QUESTIONS_DIR))
    path = ArtifactLayout.of(artifacts).verdict(verdict_key(folder, digest, expected, board))
    if path.is_file():
        try:
            verdict = Verdict.from_json(json.loads(path.read_text(encoding="utf-8")))
            say(f"{folder.name}: {'accepted' if verdict.accepted else 'rejected'} (verdict reused)")
            return verdict
        except (OSError, ValueError, KeyError):
            pass
    verdict = verify(folder, server, artifacts, board=board, expected=expected, questions_dir=questions_dir, say=say)
    write_atomic(path, canonical_json(verdict.to_json()))
    say(f"{folder.name}: {'accepted' if verdict.accepted else 'rejected: ' + ', '.join(verdict.codes)}")
    return verdict


def judged_verdict(folder: Path, server: Any, artifacts: Path, *, board: Any, expected: dict[str, dict[int, str]],
                   questions_dir: Path | None = None, say: Say = lambda _m: None) -> Any:
    """``cached_verdict``, except that a folder heron fails on (an exception that is not the harness
    being down) is kept off the board with the code ``verifier_error`` and the error's one line,
    instead of stopping the board: one hostile or unforeseen folder must not keep every other
    submission unpublished. The code says the failure is heron's, not a judgement of the
    submission, and the verdict is not stored, so a fixed heron judges the folder again."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.submissions.verify import Verdict, harness_errors, submission_digest

    try:
        return cached_verdict(folder, server, artifacts, board=board, expected=expected, questions_dir=questions_dir,
                              say=say)
    except harness_errors():
        raise
    except Exception as err:  # noqa: BLE001 — one folder's failure stays that folder's, not the board's
        message = " ".join(str(err).split())[:300] or "no message"
        _q, digest = question_set(Path(questions_dir or QUESTIONS_DIR))
        verdict = Verdict(folder=folder.name, tool=None, klass=None, questions_digest=digest,
                          submission_digest=submission_digest(folder))
        verdict.reject("verifier_error", f"heron's verifier failed on this folder ({type(err).__name__}: "
                                         f"{message}); it is heron's bug, reported so the rest of the board "
                                         f"could be published")
        say(f"error: {folder.name}: heron's verifier failed on it ({type(err).__name__}: {message}); "
            f"listed as verifier_error, the rest of the board is published")
        return verdict


def _previous_hidden(out: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(folder, submission digest) -> hidden figures already published in ``out/leaderboard.json``."""
    try:
        doc = json.loads((Path(out) / "leaderboard.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    found = {}
    for board in doc.get("standings") or []:
        for row in board.get("tools") or []:
            sub, hidden = row.get("submission") or {}, row.get("hidden")
            if hidden and sub.get("folder") and sub.get("digest"):
                found[(sub["folder"], sub["digest"])] = hidden
    return found


def _submission_info(v: Any) -> dict[str, Any]:
    c = v.conditions
    return {"folder": v.folder, "digest": v.submission_digest, "class": v.klass,
            **{k: c.get(k) for k in ("version", "approach", "repository", "date", "harness_version", "command",
                                     "runnable")}}


def _regrade(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every row's Grade recomputed from its own figures (a published row is a submission, so its
    tokens and latency are the submitter's claim and never graded), then the board ranked."""
    for row in rows:
        row["conditions"]["telemetry"] = telemetry(tokens=CLAIMED, latency=CLAIMED)
    field_figures(rows)
    return sorted(rows, key=lambda r: (-r["grade"], -r["multi_state_ex1"], r["tool"]))


def leaderboard_document(verdicts: Iterable[Any], board: Any, hidden: dict[tuple[str, str], dict[str, Any]],
                         hidden_count: int | None, records: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The one document every published file is rendered from (``records``: the committed hidden
    evaluation records, ``hidden.evaluation.read_records``)."""
    from heron_pipeline.hidden.paired import GAP_FLAG_POINTS
    from heron_pipeline.leaderboard.hidden_board import attach_hidden, evaluations_summary

    verdicts = sorted(verdicts, key=lambda v: v.folder)
    groups: dict[tuple, list[Any]] = {}
    for v in verdicts:
        if v.accepted and v.standing is not None:
            c = v.conditions
            groups.setdefault((c["scale"], c["question_mode"], tuple(c["seeds"])), []).append(v)
    standings = []
    for (scale, mode, seeds), members in sorted(groups.items(), key=lambda item: board_order(*item[0])):
        rows = []
        for v in members:
            row = json.loads(json.dumps(v.standing))
            row["tool"] = v.tool
            row["class"] = v.klass
            row["submission"] = _submission_info(v)
            figures = hidden.get((v.folder, v.submission_digest))
            if figures:
                row["hidden"] = figures
            rows.append(row)
        states = members[0].states
        standings.append({
            "scale": scale, "question_mode": mode, "role": board_role(mode), "seeds": list(seeds),
            "mode": "multi-state" if len(seeds) >= 2 else "single-state",
            "ci": {"level": 0.95, "resamples": 1000, "seed": 0}, "tools": _regrade(rows),
            "provenance": {"questions_digest": members[0].questions_digest,
                           "generator_version": sorted({s["generator_version"] for s in states}),
                           "states": [{"seed": s["seed"], "fingerprint": s["fingerprint"]} for s in states]},
        })
    retrieval = []
    for v in verdicts:
        if not v.accepted:
            continue
        c = v.conditions
        if v.retrieval is not None:
            figures = {k: v.retrieval.get(k) for k in claim_keys("retrieval")}
            by_bucket = v.retrieval.get("by_retrieval") or {}
        elif v.klass == "sql" and v.standing is not None and any(v.standing["set_recall"].values()):
            figures = {f"set_recall{k}": val for k, val in v.standing["set_recall"].items()}
            by_bucket = {}
        else:
            continue
        retrieval.append({"tool": v.tool, "class": v.klass, "scale": c["scale"], "question_mode": c["question_mode"],
                          "seeds": c["seeds"], "model": c.get("model"), "folder": v.folder, **figures,
                          "by_retrieval": by_bucket})
    retrieval.sort(key=lambda e: (*board_order(e["scale"], e["question_mode"])[:3], -(e["set_recall@10"] or 0.0),
                                  e["tool"]))
    rejected = [{"tool": v.tool or v.folder, "folder": v.folder, "claimed": v.claimed, "reproduced": v.reproduced,
                 "reasons": v.reasons, "reason_codes": v.codes, "conditions": v.conditions}
                for v in verdicts if not v.accepted]
    counts = sorted({row["hidden"]["hidden_states"] for b in standings for row in b["tools"] if row.get("hidden")})
    attach_hidden(standings, list(records or []))
    return {"evaluations": evaluations_summary(list(records or [])), "hidden_flag_points": GAP_FLAG_POINTS,
            "board": {**board.to_json(), "rule": "one model for every sql-class tool, sample 0 at temperature 0; "
                                                 "reference and retrieval rows have no model"},
            "hidden_states": counts[-1] if counts else 0,
            "standings": standings, "retrieval": retrieval, "rejected": rejected,
            "submissions": [{"folder": v.folder, "tool": v.tool, "status": "accepted" if v.accepted else "rejected",
                             "digest": v.submission_digest} for v in verdicts]}


def render_published_csv(doc: dict[str, Any]) -> str:
    buffer = io.StringIO()
    fields = ["class", "folder", *row_fields(), *HIDDEN_KEYS]
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for board in doc["standings"]:
        for flat, row in zip(leaderboard_rows([board]), board["tools"]):
            hidden = row.get("hidden") or {}
            out = {**flat, "class": row["class"], "folder": row["submission"]["folder"],
                   **{k: hidden.get(k) for k in HIDDEN_KEYS}}
            writer.writerow({k: ("" if out.get(k) is None else out[k]) for k in fields})
    return buffer.getvalue()


def render_retrieval_csv(doc: dict[str, Any]) -> str:
    buffer = io.StringIO()
    keys = claim_keys("retrieval")
    fields = ["scale", "question_mode", "seeds", "tool", "class", "model", *keys]
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for e in doc["retrieval"]:
        writer.writerow({**{k: ("" if e.get(k) is None else e[k]) for k in fields},
                         "seeds": ",".join(map(str, e["seeds"])),
                         **{k: "" if e.get(k) is None else round(e[k], 2) for k in keys}})
    return buffer.getvalue()


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)


def render_published_markdown(doc: dict[str, Any]) -> str:
    parts = [render_markdown(doc["standings"]).rstrip("\n"), ""]
    hidden_rows = [(b, r) for b in doc["standings"] for r in b["tools"] if r.get("hidden")]
    if hidden_rows:
        parts += ["## Public + hidden states", "",
                  f"Multi-state EX@1 over the public seeds and {doc['hidden_states']} hidden state(s) "
                  f"(hidden seeds are never published).", "", "| tool | scale | public | public + hidden | hidden states |",
                  "|---|---|---|---|---|"]
        parts += [f"| {r['tool']} | {b['scale']} | {_fmt(r['multi_state_ex1'])} | "
                  f"{_fmt(r['hidden']['multi_state_ex1_public_hidden'])} | {r['hidden']['hidden_states']} |"
                  for b, r in hidden_rows]
        parts.append("")
    from heron_pipeline.leaderboard.hidden_board import hidden_markdown

    parts += hidden_markdown(doc)
    parts += ["## Retrieval board (Set-Recall@k, %)", ""]
    if doc["retrieval"]:
        parts += ["| tool | class | model | scale | seeds | mode | @5 | @10 | @20 | @all |", "|---|---|---|---|---|---|---|---|---|---|"]
        parts += [f"| {e['tool']} | {e['class']} | {e['model'] or 'no model'} | {e['scale']} | "
                  f"{','.join(map(str, e['seeds']))} | {e['question_mode']} | "
                  + " | ".join(_fmt(e[k]) for k in claim_keys("retrieval")) + " |" for e in doc["retrieval"]]
    else:
        parts.append("No retrieving tool has an accepted submission yet.")
    parts += ["", "## Rejected submissions", ""]
    if doc["rejected"]:
        parts += ["| tool | folder | reasons | claimed | reproduced |", "|---|---|---|---|---|"]
        for r in doc["rejected"]:
            claimed = ", ".join(f"{k} {_fmt(v)}" for k, v in sorted(r["claimed"].items())) or "—"
            reproduced = ", ".join(f"{k} {_fmt(v)}" for k, v in sorted(r["reproduced"].items())) or "—"
            reasons = "; ".join(f"`{x['code']}` {x['detail']}".replace("|", "\\|") for x in r["reasons"][:5])
            parts.append(f"| {r['tool']} | {r['folder']} | {reasons} | {claimed} | {reproduced} |")
    else:
        parts.append("None.")
    parts += ["", "Generated by `heron leaderboard` from the folders under `submissions/`; do not edit by hand.", ""]
    return "\n".join(parts)


def render_published(doc: dict[str, Any]) -> dict[str, str]:
    """file name -> text of every published file."""
    from heron_pipeline.leaderboard.breakdown import render_breakdown_svg
    from heron_pipeline.leaderboard.html import render_index
    from heron_pipeline.leaderboard.svg import render_svg

    headline = render_svg(doc["standings"])
    breakdown = render_breakdown_svg(doc["standings"])
    return {
        "leaderboard.json": json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        "leaderboard.csv": render_published_csv(doc),
        "LEADERBOARD.md": render_published_markdown(doc),
        "leaderboard.svg": headline,
        "breakdown.svg": breakdown,
        "retrieval.csv": render_retrieval_csv(doc),
        "index.html": render_index(doc, headline, breakdown),
    }


def runnables(verdicts: Iterable[Any], submissions: Path, board: Any) -> list[Any]:
    """The accepted submissions with a checked ``tool.toml`` (the hidden evaluation's tools)."""
    from heron_pipeline.hidden.evaluation import Runnable
    from heron_pipeline.hidden.toolspec import read_tool_spec

    out = []
    for v in verdicts:
        if v.accepted and v.standing is not None and v.conditions.get("runnable"):
            spec = read_tool_spec(Path(submissions) / v.folder, board_model=board.model)
            if spec is not None:
                out.append(Runnable(Path(submissions) / v.folder, v, spec))
    return out


def publish_leaderboard(server: Any, artifacts: Path, submissions: Path = SUBMISSIONS_DIR, out: Path = PUBLISHED_DIR,
                        *, board: Any = None, hidden_seeds: list[int] | None = None,
                        expected: dict[str, dict[int, str]] | None = None, questions_dir: Path | None = None,
                        plan: Any = None, evaluations: Path | None = None, llm: Any = None, today: Any = None,
                        kind: str = "hidden", scale: str | None = None,
                        say: Say = lambda _m: None) -> dict[str, Any]:
    """Verify every submission folder and write the published folder; the leaderboard document.

    ``plan`` (a ``HiddenPlan`` with a draw) also runs every runnable submission (of ``scale``, when
    given) on the hidden draw and writes its evaluation record (``kind``: hidden, or night) under
    ``evaluations`` (default ``evaluations/``) before rendering; the page shows every record there.

    Raises HarnessUnavailable when heron cannot verify (nothing is written then); a folder heron
    fails on is listed as ``verifier_error`` and the board is still written (``judged_verdict``)."""
    import datetime as dt

    from heron_pipeline.hidden.evaluation import EVALUATIONS_DIR, evaluate, read_records, write_record

    from heron_pipeline.submissions.verify import BoardRules, hidden_figure, load_expected_fingerprints

    board = board or BoardRules()
    expected = load_expected_fingerprints() if expected is None else expected
    submissions, out = Path(submissions), Path(out)
    if out.resolve() == submissions.resolve() or submissions.resolve() in out.resolve().parents:
        raise ValueError(f"--out {out} is inside --submissions {submissions}: the watcher would retrigger itself")
    verdicts = [judged_verdict(f, server, artifacts, board=board, expected=expected, questions_dir=questions_dir,
                               say=say) for f in submission_folders(submissions)]
    hidden_seeds = hidden_seeds if hidden_seeds is not None else (list(plan.seeds) if plan is not None else None)
    if hidden_seeds:
        hidden = {}
        for v in verdicts:
            if v.accepted and v.standing is not None:
                figures = hidden_figure(submissions / v.folder, server, artifacts, hidden_seeds, expected=expected,
                                        questions_dir=questions_dir)
                if figures:
                    hidden[(v.folder, v.submission_digest)] = figures
        count = len(set(hidden_seeds))
    else:
        hidden, count = _previous_hidden(out), None
    evaluations = Path(evaluations or EVALUATIONS_DIR)
    if plan is not None and plan.has_draw:
        tools = [r for r in runnables(verdicts, submissions, board) if scale is None or r.verdict.conditions["scale"] == scale]
        for record in evaluate(server, artifacts, tools, plan, kind=kind, date=today or dt.date.today(), llm=llm,
                               questions_dir=questions_dir, say=say):
            say(f"evaluation record written: {write_record(evaluations, record)}")
    doc = leaderboard_document(verdicts, board, hidden, count, read_records(evaluations))
    for name, text in render_published(doc).items():
        write_text_atomic(out / name, text)
    return doc
