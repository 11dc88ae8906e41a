"""``heron submit``: a finished bench run packaged as a submission folder.

The folder is made from the run manifest only (``<artifacts>/runs/<sha256>.json``): the predictions
artifact it names (digest checked), the standings it computed and the conditions recorded when the
predictions were made. Claims are exactly what the run computed, so an honest package always
verifies. Without ``--run`` the manifest is the most recent one — by the time the manifest itself
records, never by file modification time — for that scale, seeds and question mode containing the
tool. Everything written depends only on the manifest, so packaging the same run twice gives the
same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef
from heron_pipeline.bench.run import recorded_runs
from heron_pipeline.bench.predict import PredictionsResult
from heron_pipeline.submissions.figures import retrieval_figures
from heron_pipeline.metrics import claim_keys
from heron_pipeline.submissions.schema import CLAIMS_FILE, META_FILE, PREDICTIONS_FILE

#: What the reference tools and offline retrievers are, for their meta.json (other tools give
#: ``approach`` and ``repository`` through the adapter's conditions).
KNOWN_TOOLS = {
    "gold": "the audited gold SQL itself (upper bound; checks the harness)",
    "alt": "the independently written alternative SQL of every question (checks the gold)",
    "bm25": "offline per-field BM25 over the catalog: ranked tables, no SQL",
    "bm25-fk": "offline BM25 plus foreign-key join paths: ranked tables, no SQL",
}
REPOSITORY = "heron (this repository)"


#: ``--model none``: a cli tool that calls no model (meta.json model and temperature null).
NO_MODEL = "none"


class PackageError(ValueError):
    """No run to package, or the run does not contain what was asked for."""


def _tool_predictions(doc: dict[str, Any], tool: str) -> dict[str, Any] | None:
    return next((p for p in doc.get("predictions") or [] if p.get("tool") == tool and p.get("status") == "complete"
                 and p.get("predictions")), None)


def find_manifest(artifacts: Path, tool: str, scale: str, seeds: list[int], question_mode: str) -> Path:
    """The most recent run (by its recorded finish time) of ``scale`` × ``seeds`` × mode with ``tool`` complete."""
    matching = []
    for path, doc in recorded_runs(artifacts):
        options = doc.get("options") or {}
        if options.get("scale") != scale or sorted(options.get("seeds") or []) != sorted(seeds):
            continue
        if options.get("question_mode", "full") != question_mode or _tool_predictions(doc, tool) is None:
            continue
        matching.append((str(doc.get("finished_at") or doc.get("started_at") or ""), path.name, path))
    if not matching:
        raise PackageError(f"no run manifest in {ArtifactLayout.of(artifacts).runs()} for {tool} on {scale} seeds "
                           f"{','.join(map(str, seeds))} ({question_mode}); run `heron bench --tools {tool} "
                           f"--scale {scale} --seeds {','.join(map(str, seeds))} --question-mode {question_mode}` "
                           f"first or pass --run")
    return max(matching)[2]


def _claims(doc: dict[str, Any], made: PredictionsResult, records: list[Any], questions: list[Any]) -> dict[str, float]:
    if made.kind == "retrieval":
        return retrieval_figures(records, questions)
    if not doc.get("standings"):
        raise PackageError("the run wrote no standings (did its audit fail?); nothing to claim")
    standings = ArtifactRef.from_json(doc["standings"]["standings"]).read_json()
    row = next((t for t in standings["tools"] if t["tool"] == made.tool), None)
    if row is None:
        raise PackageError(f"the run's standings have no row for {made.tool}")
    return {key: row[key] for key in claim_keys(made.kind) if row.get(key) is not None}


def runnable_spec(made: PredictionsResult, *, tool_path: Path | None = None, requirement: str | None = None) -> Any:
    """The ``tool.toml`` of a run's tool: the cli command (with its folder or pinned requirement), or the
    LLM adapter with its model and temperature. PackageError for a tool that cannot be run elsewhere."""
    from heron_pipeline.hidden.toolspec import ToolSpec, ToolSpecError, parse_tool_spec, render_tool_spec

    cond = made.conditions
    if made.kind != "sql":
        raise PackageError(f"--runnable: {made.tool} is a {made.kind} tool; only sql tools are run on a hidden draw")
    if str(cond.get("model") or "").startswith("cli:"):
        if (tool_path is None) == (requirement is None):
            raise PackageError("--runnable: a cli tool needs exactly one of --tool-path DIR (the folder its command "
                               "runs in, copied into the submission) or --requirement NAME==VERSION")
        spec = ToolSpec("cli", command=str(cond.get("command") or ""), path="tool" if tool_path else None,
                        requirement=requirement)
    else:
        spec = ToolSpec("llm", adapter=made.tool, model=cond.get("model"), temperature=cond.get("temperature"))
    try:
        parse_tool_spec(render_tool_spec(spec))  # the same check verify makes (folder checks come later)
    except ToolSpecError as err:
        raise PackageError(f"--runnable: {err}") from None
    return spec


def package(artifacts: Path, tool: str, scale: str, seeds: list[int], out: Path, *, question_mode: str = "natural",
            manifest: Path | None = None, runnable: bool = False, tool_path: Path | None = None,
            requirement: str | None = None, model: str | None = None) -> Path:
    """Write ``out/{meta.json, predictions.jsonl, claims.json}`` from a run manifest; the folder.
    ``runnable`` also writes ``tool.toml`` (and copies ``tool_path`` to ``out/tool``). ``model``: the
    model a ``cli`` tool says it uses, at temperature 0 — its word, as the model of any SQL-only
    submission always is (heron sees SQL, not the model behind it)."""
    from heron_pipeline.artifacts import canonical_json, canonical_jsonl, write_atomic
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import canonical_tool

    tool = canonical_tool(tool)
    path = Path(manifest) if manifest is not None else find_manifest(artifacts, tool, scale, seeds, question_mode)
    try:
        raw = path.read_bytes()
        doc = json.loads(raw)
    except FileNotFoundError:
        raise PackageError(f"--run {path}: no such file") from None
    except json.JSONDecodeError as err:
        raise PackageError(f"--run {path}: not JSON ({err.msg})") from None
    options = doc.get("options") or {}
    if options.get("scale") != scale or sorted(options.get("seeds") or []) != sorted(seeds):
        raise PackageError(f"--run {path} is a run of {options.get('scale')} seeds "
                           f"{','.join(map(str, options.get('seeds') or []))}, not {scale} seeds "
                           f"{','.join(map(str, seeds))}")
    entry = _tool_predictions(doc, tool)
    if entry is None:
        raise PackageError(f"--run {path} has no complete predictions of {tool}")
    made = PredictionsResult.from_json(entry)
    if made.question_mode != question_mode:
        raise PackageError(f"--run {path} made {tool}'s predictions in mode {made.question_mode}, not {question_mode}")
    records = made.load()
    instance_seed = int(doc["questions"].get("instance_seed") or 0)
    redraws = dict(doc["questions"].get("redraws") or {})
    questions, digest = question_set(Path(doc["questions"]["dir"]), instance_seed, redraws)
    if digest != made.questions_digest:
        raise PackageError(f"the questions changed since the run ({made.questions_digest[:12]}… then, "
                           f"{digest[:12]}… now); run `heron bench` again")
    claims = _claims(doc, made, records, questions)
    cond = made.conditions
    seeds_sorted = sorted(seeds)
    klass = "reference" if made.kind == "reference" else made.kind
    meta = {
        "tool": made.tool,
        "class": klass,
        "version": str(cond.get("version") or doc.get("harness_version")),
        "approach": str(cond.get("approach") or KNOWN_TOOLS.get(made.tool, made.tool)),
        "repository": str(cond.get("repository") or REPOSITORY),
        "model": None if klass != "sql" or model == NO_MODEL else model or cond.get("model"),
        "temperature": None if klass != "sql" or model == NO_MODEL else 0.0 if model else cond.get("temperature"),
        "n": made.n,
        "date": str(doc.get("finished_at") or doc.get("started_at"))[:10],
        "scale": scale,
        "seeds": seeds_sorted,
        "question_mode": question_mode,
        "questions_digest": made.questions_digest,
        **({"instance_seed": instance_seed, "instance_redraws": redraws} if instance_seed else {}),
        "harness_version": doc.get("harness_version"),
        "command": str(cond.get("command") or f"heron bench --tools {made.tool} --scale {scale} "
                                              f"--seeds {','.join(map(str, seeds_sorted))} --question-mode {question_mode}"),
        "run": {"manifest_digest": path.stem, "scale": scale, "seeds": seeds_sorted, "question_mode": question_mode,
                "questions_digest": made.questions_digest, "predictions_digest": made.predictions.digest,
                "finished_at": doc.get("finished_at"),
                "states": [{"seed": s["seed"], "fingerprint": s["fingerprint"],
                            "generator_version": s["generator_version"]} for s in doc.get("states") or []
                           if int(s["seed"]) in seeds_sorted]},
    }
    spec = runnable_spec(made, tool_path=tool_path, requirement=requirement) if runnable else None
    out = Path(out)
    if spec is not None:
        import shutil

        from heron_pipeline.hidden.toolspec import TOOL_FILE, render_tool_spec

        if tool_path is not None:
            if not Path(tool_path).is_dir():
                raise PackageError(f"--tool-path {tool_path}: no such folder")
            shutil.rmtree(out / "tool", ignore_errors=True)
            shutil.copytree(tool_path, out / "tool", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        write_atomic(out / TOOL_FILE, render_tool_spec(spec).encode("utf-8"))
    lines = ({**r.to_json(), "scale": scale, "question_mode": question_mode} for r in records)
    write_atomic(out / PREDICTIONS_FILE, canonical_jsonl(lines))
    write_atomic(out / META_FILE, canonical_json(meta) + b"\n")
    write_atomic(out / CLAIMS_FILE, canonical_json(claims) + b"\n")
    return out
