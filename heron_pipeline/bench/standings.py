"""Steps 6 and 7 — the standings of one scale and question mode, and the local leaderboard files.

The standings are computed from exactly the score artifacts given (one per tool × audited state)
and carry their provenance: per state the database fingerprint and generator version, the
questions digest, the gold, predictions and scores digests, the harness version and each tool's
conditions as recorded when its predictions were made. A tool whose predictions are incomplete or
skipped gets no row; it is listed under ``excluded`` with the reason. The leaderboard step writes
the local results folder only (the published leaderboard is built from verified submissions).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document
from heron_pipeline.bench.audit import AuditResult
from heron_pipeline.bench.identity import harness_version
from heron_pipeline.bench.predict import PredictionsResult
from heron_pipeline.bench.score import ScoresResult


@dataclass(frozen=True)
class StandingsResult:
    scale: str
    question_mode: str
    standings: ArtifactRef

    def to_json(self) -> dict[str, Any]:
        return {"scale": self.scale, "question_mode": self.question_mode, "standings": self.standings.to_json()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "StandingsResult":
        return cls(doc["scale"], doc["question_mode"], ArtifactRef.from_json(doc["standings"]))

    def load(self) -> dict[str, Any]:
        return self.standings.read_json()


def _tool_conditions(predictions: PredictionsResult) -> Any:
    from heron_pipeline.harness.aggregate import ToolConditions

    cond = dict(predictions.conditions)
    return ToolConditions(model=cond.get("model"), temperature=cond.get("temperature"),
                          usd_per_mtok_prompt=float(cond.get("usd_per_mtok_prompt") or 0.0),
                          usd_per_mtok_completion=float(cond.get("usd_per_mtok_completion") or 0.0),
                          extra={k: v for k, v in sorted(cond.items()) if k not in ("model", "temperature")})


def compute_scale_standings(artifacts: Path, audit: AuditResult, predictions: Iterable[PredictionsResult],
                            scores: Iterable[ScoresResult], question_mode: str,
                            seeds: Iterable[int] | None = None, questions: list[Any] | None = None,
                            instance_seed: int = 0) -> StandingsResult:
    """Standings over ``seeds`` (default: every audited state) from exactly these predictions and scores.
    ``instance_seed`` (the question draw; 0, the public set, is left unsaid) joins every row's conditions."""
    from heron_pipeline.harness.aggregate import compute_standings

    predictions = sorted(predictions, key=lambda p: p.tool)
    scores = list(scores)
    seeds = sorted(seeds) if seeds is not None else audit.seeds
    unaudited = sorted(set(seeds) - set(audit.seeds))
    if unaudited:
        raise ValueError(f"seed(s) {', '.join(map(str, unaudited))} of {audit.scale} were not audited")
    rows, excluded = {}, []
    for p in predictions:
        if p.question_mode != question_mode or p.scale != audit.scale:
            raise ValueError(f"predictions of {p.tool} are for {p.scale}/{p.question_mode}, "
                             f"not {audit.scale}/{question_mode}")
        if not p.complete:
            excluded.append({"tool": p.tool, "status": p.status, "reason": p.reason})
            continue
        if p.kind == "retrieval":
            continue  # the retrieval board
        mine = {s.seed: s for s in scores if s.tool == p.tool and s.status == "scored"}
        missing = [seed for seed in seeds if seed not in mine]
        if missing:
            raise ValueError(f"no scores of {p.tool} on {audit.scale} seed(s) {', '.join(map(str, missing))}; "
                             f"score every audited state first")
        stale = [seed for seed in seeds if mine[seed].predictions_digest != p.predictions.digest]
        if stale:
            raise ValueError(f"scores of {p.tool} on seed(s) {', '.join(map(str, stale))} were computed from other "
                             f"predictions; score them again")
        rows[p.tool] = (p, [mine[seed] for seed in seeds])
    payload: dict[str, Any]
    if rows:
        paths = []
        for _p, states in rows.values():
            for s in states:
                s.scores.read_bytes()
                paths.append(s.scores.path)
        payload = compute_standings(paths, audit.scale, {tool: _tool_conditions(p) for tool, (p, _) in rows.items()})
    else:
        payload = {"scale": audit.scale, "seeds": seeds, "mode": "multi-state" if len(seeds) >= 2 else "single-state",
                   "tools": []}
    for row in payload["tools"]:
        row["conditions"]["question_mode"] = question_mode
        if instance_seed:
            row["conditions"]["instance_seed"] = instance_seed
    payload["question_mode"] = question_mode
    if instance_seed:
        payload["instance_seed"] = instance_seed
    payload["excluded"] = excluded
    payload["retrieval"] = _retrieval_board([p for p in predictions if p.complete and p.kind != "reference"],
                                            questions, question_mode, audit.scale)
    # per trap tag: tagged questions and how many are proved live (None where trap-live is not judged)
    payload["trap_liveness"] = audit.trap_liveness
    by_state = {int(s["seed"]): s for s in audit.states}
    payload["provenance"] = {
        "harness_version": harness_version(),
        "questions_digest": audit.questions_digest,
        "audit": audit.key,
        "states": [{"seed": seed, "fingerprint": by_state[seed]["fingerprint"],
                    "generator_version": by_state[seed]["generator_version"],
                    "gold_digest": by_state[seed]["gold"]["digest"]} for seed in seeds],
        "tools": {tool: {"kind": p.kind, "predictions_digest": p.predictions.digest, "conditions": p.conditions,
                         "primary_seed": p.primary["seed"], "summary": p.summary,
                         "scores": {str(s.seed): s.scores.digest for s in states}}
                  for tool, (p, states) in sorted(rows.items())},
    }
    ref = write_document(ArtifactLayout.of(artifacts).standings(audit.scale, question_mode), payload)
    return StandingsResult(audit.scale, question_mode, ref)


def _retrieval_board(made: list[PredictionsResult], questions: list[Any] | None, question_mode: str,
                     scale: str) -> list[dict[str, Any]]:
    """Set-Recall@k of every tool that ranks tables (the offline retrievers, and SQL tools that report
    what they retrieved); the reference tools are left out (gold's tables are the answer key)."""
    from heron_pipeline.harness.retrieval_board import retrieval_standings

    ranked = {}
    for p in made:
        records = p.load()
        if p.kind == "retrieval" or any(r.retrieved_tables for r in records):
            ranked[p.tool] = (p, records)
    if not ranked or not questions:
        return []
    return retrieval_standings({t: r for t, (_p, r) in ranked.items()}, questions,
                               conditions={t: p.conditions for t, (p, _r) in ranked.items()},
                               question_mode=question_mode, scale=scale)


@dataclass(frozen=True)
class LocalLeaderboard:
    """What one publish of the local leaderboard wrote."""

    files: dict[str, Path]  # suffix -> results/leaderboard.<suffix>: the latest publish, a convenience
    written: dict[str, ArtifactRef]  # suffix -> results/by_digest/<digest>.<suffix>: exactly this publish's bytes
    #: one line per board published apart (two machines, or a run cut off from the store) with
    #: more than one current entry: which one the leaderboard shows; every entry is kept
    apart: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoardEntry:
    """One publish of one board (``results/boards/<sha256>.json``): the standings it shows, when it
    was published, and the entries it replaces (the board's current entries when it was made)."""

    board: str  # "<scale>/<question mode>"
    standings: StandingsResult
    published_at: str
    replaces: tuple[str, ...]
    digest: str = ""

    def to_json(self, root: Path) -> dict[str, Any]:
        doc = self.standings.to_json()
        doc["standings"] = self.standings.standings.to_json(root)
        return {"kind": "heron-board", "board": self.board, "standings": doc, "published_at": self.published_at,
                "replaces": sorted(self.replaces)}

    @classmethod
    def from_json(cls, doc: dict[str, Any], root: Path, digest: str) -> "BoardEntry":
        made = doc["standings"]
        standings = StandingsResult(made["scale"], made["question_mode"],
                                    ArtifactRef.from_json(made["standings"], root))
        return cls(str(doc["board"]), standings, str(doc["published_at"]), tuple(doc.get("replaces", ())), digest)


def board_entries(artifacts: Path) -> list[BoardEntry]:
    """Every board entry under the artifact root, each checked against its name; one that does not
    read (damaged, or not an entry) is left out — it is no board, and never guessed at."""
    import hashlib
    import json

    layout = ArtifactLayout.of(artifacts)
    found = []
    for path in layout.board_entry_files():
        try:
            payload = path.read_bytes()
            digest = hashlib.sha256(payload).hexdigest()
            if path.stem != digest:
                continue
            doc = json.loads(payload)
            if isinstance(doc, dict) and doc.get("kind") == "heron-board":
                found.append(BoardEntry.from_json(doc, layout.root, digest))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def current_boards(entries: list[BoardEntry]) -> tuple[dict[str, BoardEntry], list[str]]:
    """board -> the entry the leaderboard shows, and one line per board with several current entries.

    An entry is current unless another entry replaces it. Entries merge as a set (a union never
    loses one), so two machines that each publish a board both keep theirs; when the same board was
    published on two machines that had not seen each other's entry, both stay current and recorded,
    and the leaderboard shows the later publish (its ``published_at``, then its digest: the same
    choice on every machine), saying so in one line."""
    replaced = {digest for entry in entries for digest in entry.replaces}
    heads: dict[str, list[BoardEntry]] = {}
    for entry in entries:
        if entry.digest not in replaced:
            heads.setdefault(entry.board, []).append(entry)
    shown, apart = {}, []
    for board, found in sorted(heads.items()):
        found.sort(key=lambda e: (e.published_at, e.digest))
        shown[board] = found[-1]
        if len(found) > 1:
            apart.append(f"board {board} was published apart {len(found)} times (entries "
                         f"{', '.join(e.digest[:12] + '…' for e in found)} under results/boards/): showing the latest, "
                         f"{found[-1].digest[:12]}… of {found[-1].published_at}; publishing the board again replaces "
                         "them all")
    return shown, apart


def _legacy_index(artifacts: Path) -> dict[str, StandingsResult]:
    """The boards of a ``boards.json`` written before board entries existed (an older root)."""
    import json

    layout = ArtifactLayout.of(artifacts)
    try:
        doc = json.loads(layout.boards_index().read_text("utf-8"))
        return {k: StandingsResult(v["scale"], v["question_mode"], ArtifactRef.from_json(v["standings"], layout.root))
                for k, v in doc.items() if isinstance(v, dict) and "published_at" not in v}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def publish_local(artifacts: Path, standings: Iterable[StandingsResult]) -> dict[str, Path]:
    """leaderboard.{json,csv,md,svg} in the local results folder (see ``write_local_leaderboard``); {suffix: path}."""
    return write_local_leaderboard(artifacts, standings).files


def write_local_leaderboard(artifacts: Path, standings: Iterable[StandingsResult]) -> LocalLeaderboard:
    """The local leaderboard: one board per (scale, question mode).

    Each publish of a board is a content-addressed entry (``results/boards/<sha256>.json``) naming
    its standings by relative path and digest and the entries it replaces; the boards shown are the
    current entries (``current_boards``). Entries are never rewritten, so a pull or another
    machine's push can only add entries: a board made while the store was down, or on another
    machine, survives every later pull and push. ``boards.json`` and ``leaderboard.*`` are local
    renderings of the current entries; each leaderboard file is also kept by its digest, which is
    what a run manifest names, so a manifest still verifies after another run publishes."""
    import datetime as dt
    import json
    import logging

    from heron_pipeline.artifacts import write_content_addressed, write_text_atomic
    from heron_pipeline.artifacts.ref import canonical_json
    from heron_pipeline.leaderboard.boards import board_order
    from heron_pipeline.leaderboard.write import render_leaderboard, write_leaderboard

    layout = ArtifactLayout.of(artifacts)
    entries = board_entries(layout.root)
    shown, _apart = current_boards(entries)
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    fresh = {f"{r.scale}/{r.question_mode}": r for r in standings}
    legacy = {k: v for k, v in _legacy_index(layout.root).items() if k not in shown and k not in fresh}
    for board, result in [*sorted(legacy.items()), *fresh.items()]:
        replaced = {d for other in entries for d in other.replaces}
        heads = [e for e in entries if e.board == board and e.digest not in replaced]
        if len(heads) == 1 and heads[0].standings.standings.digest == result.standings.digest:
            continue  # the board already shows exactly these standings: nothing to record
        heads = [e.digest for e in heads]
        entry = BoardEntry(board, result, now, tuple(heads))
        path, digest = write_content_addressed(layout.board_entry(), canonical_json(entry.to_json(layout.root)),
                                               suffix=".json")
        entries.append(BoardEntry(board, result, now, tuple(heads), digest))
    shown, apart = current_boards(entries)
    for line in apart:
        logging.getLogger(__name__).warning(line)
    boards, kept = [], {}
    for key, entry in sorted(shown.items(), key=lambda item: board_order(item[1].standings.scale,
                                                                         item[1].standings.question_mode)):
        try:
            boards.append(entry.standings.load())
            kept[key] = entry
        except ValueError:
            continue  # its standings artifact is gone or changed: the board is dropped, never guessed
    if not boards:
        raise ValueError("no standings to publish: compute the standings of a scale first")
    retrieval = [row for board in boards for row in board.get("retrieval", [])]
    files = write_leaderboard(boards, layout.results(), retrieval=retrieval)
    written = {suffix: ArtifactRef(*write_content_addressed(layout.leaderboard_copy(), text.encode("utf-8"),
                                                            suffix=f".{suffix}"))
               for suffix, text in render_leaderboard(boards, retrieval=retrieval).items()}
    index = {k: {**v.standings.to_json(), "standings": v.standings.standings.to_json(layout.root),
                 "entry": v.digest, "published_at": v.published_at} for k, v in kept.items()}
    write_text_atomic(layout.boards_index(), json.dumps(index, indent=1, sort_keys=True))
    return LocalLeaderboard(files, written, tuple(apart))
