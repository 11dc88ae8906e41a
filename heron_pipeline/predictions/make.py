"""Making a tool's predictions once per scale (the bench core's predict step stores them by content hash).

Predictions never depend on which state they will be scored on — only on the question, the schema
and (for tools that look at data) the primary state — so they are made once and the same SQL is
executed on every seed. ``predict_tool`` is the predict step of the bench core (``heron bench`` and
the Dagster assets both call it): it resolves the tool, decides whether it can run here, runs the
questions (LLM tools in ``HERON_LLM_CONCURRENCY`` parallel workers, results kept in question
order), and says whether the predictions are complete:

- ``skipped`` — the tool cannot run here (no endpoint configured, no command): no records;
- ``incomplete`` — the run budget stopped it (the rest are ``budget`` errors), or more than 20 % of
  its calls failed at the provider (the outage rule; counts by class in ``summary``): the records
  are kept on disk, but no standings row may be published from them;
- ``complete`` otherwise.

Stored by content hash (``bench.predict``, in ``ArtifactLayout.predictions``), an LLM tool's answers,
once made, are a fixed input to every later scoring run; the response cache makes the same records
again on a rerun, byte for byte.
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from heron_pipeline.adapters.base import Adapter, PredictionContext
from heron_pipeline.artifacts.ref import read_jsonl
from heron_pipeline.llm.errors import BUDGET, CACHE_MISS, OUTAGE_SHARE, PROVIDER_FAILURES
from heron_pipeline.predictions.record import PredictionRecord

if TYPE_CHECKING:
    from heron_pipeline.llm.settings import LLMSettings

#: The state tools may look at while predicting, unless configured otherwise.
PRIMARY_SEED = 42

#: Why an LLM tool is skipped when no endpoint is configured, and the one line that enables it.
NO_ENDPOINT = "needs an LLM endpoint: set HERON_LLM_BASE_URL and HERON_LLM_MODEL (and HERON_LLM_API_KEY)"
NO_COMMAND = "needs a command: set HERON_CLI_COMMAND or pass --cli-command"


@dataclass(frozen=True)
class PredictOptions:
    """How to run the predict step (resolved by the caller at run time, never at import)."""

    n: int = 1
    question_mode: str = "full"  # "full" | "natural" (issue 12)
    retry_failed: bool = False  # re-ask only cached failures
    offline: bool = False  # cache only; a miss is error class `cache_miss`
    cli_command: str | None = None  # the `cli` adapter's command (HERON_CLI_COMMAND / --cli-command)
    cli_name: str | None = None  # its name on the board (HERON_CLI_NAME / --cli-name, default "cli")
    cli_cwd: str | None = None  # its working directory (HERON_CLI_CWD / --cli-cwd; a runnable submission's path)
    llm: "LLMSettings | None" = None  # None or unconfigured → LLM tools skipped
    cache_dir: Path | None = None  # LLM response cache (HERON_LLM_CACHE_DIR or ArtifactLayout.llm_cache())
    schema: str = "full"  # raw-llm's schema rendering: "full" | "compact"


@dataclass(frozen=True)
class ToolPredictions:
    tool: str  # name on the board (for cli: cli_name); "llm" resolves to "raw-llm"
    kind: str  # "reference" | "sql" | "retrieval"
    status: str  # "complete" | "incomplete" | "skipped"
    reason: str | None  # one line when not complete
    records: list[PredictionRecord]  # empty when skipped
    conditions: dict
    summary: dict = field(default_factory=dict)


def _check_samples(adapter_name: str, question_id: str, made: list[PredictionRecord], n: int) -> None:
    samples = sorted(r.sample for r in made)
    if samples != list(range(n)) or any(r.question_id != question_id for r in made):
        raise ValueError(f"adapter {adapter_name!r} returned samples {samples} for {question_id}, "
                         f"expected 0..{n - 1}")


def make_predictions(adapter: Adapter, questions: Iterable[Any], context: PredictionContext,
                     progress: Callable[[int], None] | None = None) -> list[PredictionRecord]:
    """``context.n`` records per question, in question order; checks the adapter kept the contract.

    The plain sequential loop (no skipping, budget or outage verdict); ``predict_tool`` is the
    bench core's entry point.
    """
    records: list[PredictionRecord] = []
    for question in questions:
        made = adapter.predict(question, context)
        _check_samples(adapter.name, question.id, made, context.n)
        records.extend(sorted(made, key=lambda r: r.sample))
        if progress:
            progress(1)
    return records


def prepare_reader_dsn(admin_dsn: str, *, password: str | None = None, maintenance_database: str = "postgres") -> str:
    """The primary state's DSN for the sandbox's read-only role, its role and grants brought in place
    as the admin (``sandbox.roles.ensure_sandbox``: checked first, changed under the setup lock)."""
    import psycopg
    from psycopg import conninfo

    from heron_pipeline.database.names import with_database
    from heron_pipeline.sandbox.limits import Limits
    from heron_pipeline.sandbox.roles import READER_ROLE, ensure_sandbox

    with psycopg.connect(admin_dsn, autocommit=True) as admin, \
            psycopg.connect(with_database(admin_dsn, maintenance_database), autocommit=True) as lock:
        ensure_sandbox(admin, lock, Limits(), password=password)
    return conninfo.make_conninfo(admin_dsn, user=READER_ROLE, password=password or None)


def _board_name(spec_name: str, options: PredictOptions) -> str:
    if spec_name != "cli":
        return spec_name
    from heron_pipeline.adapters.registry import adapter_names

    name = options.cli_name or "cli"
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"--cli-name / HERON_CLI_NAME must be alphanumeric (with - or _), got {name!r}")
    if name != "cli" and name in adapter_names():
        raise ValueError(f"--cli-name / HERON_CLI_NAME {name!r} is a built-in tool's name: choose another")
    return name


def _sum(records: Sequence[PredictionRecord], attr: str) -> int | None:
    values = [getattr(r, attr) for r in records if getattr(r, attr) is not None]
    return sum(values) if values else None


def _cost(records: Sequence[PredictionRecord]) -> float | None:
    """Summed cost; None (unknown) as soon as one record's cost is unknown."""
    if not records or any(r.cost_usd is None for r in records):
        return None
    return sum(r.cost_usd for r in records)  # type: ignore[misc]


def _errors_by_class(records: Sequence[PredictionRecord], kind: str = "sql") -> dict[str, int]:
    """Failed records by class (a retrieval tool's records have no SQL by design: only ``error`` counts)."""
    counts: dict[str, int] = {}
    for r in records:
        if r.error is not None or r.error_class is not None or (r.sql is None and kind != "retrieval"):
            key = r.error_class or "no_sql"
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def _budget_records(question: Any, n: int, budget: float | None) -> list[PredictionRecord]:
    return [PredictionRecord(question.id, i, None, error_class=BUDGET, cost_usd=0.0,
                             error=f"run budget of ${budget:g} reached before this question was asked")
            for i in range(n)]


def _crash_records(question: Any, n: int, err: Exception) -> list[PredictionRecord]:
    line = " ".join(f"{type(err).__name__}: {err}".split())[:300]
    return [PredictionRecord(question.id, i, None, error_class="adapter_error", error=line) for i in range(n)]


def predict_tool(tool: str, questions: Sequence[Any], context: PredictionContext, options: PredictOptions,
                 progress: Callable[[dict], None] | None = None) -> ToolPredictions:
    """Predict every question with ``tool`` (see module docstring); ``progress`` gets a dict after
    each question (and once more with ``final`` set) from the calling thread."""
    from heron_pipeline.adapters.registry import adapter_spec

    spec = adapter_spec(tool)
    board = _board_name(spec.name, options)
    n = options.n
    if n < 1:
        raise ValueError(f"--n must be at least 1, got {n}")
    mode = options.question_mode
    from heron_pipeline.questions.model import QUESTION_MODES

    if mode not in QUESTION_MODES:
        raise ValueError(f"--question-mode must be one of {', '.join(QUESTION_MODES)}, got {mode!r}")
    if mode == "natural":
        missing = [q.id for q in questions if not getattr(q, "natural", None)]
        if missing:
            raise ValueError(f"question mode 'natural': {len(missing)} question(s) have no natural text "
                             f"({', '.join(missing[:5])}{'…' if len(missing) > 5 else ''})")

    def skipped(reason: str) -> ToolPredictions:
        return ToolPredictions(board, spec.kind, "skipped", reason, [], {"question_mode": mode, "n": n}, {})

    client = None
    factory_options: dict[str, Any] = {}
    if spec.needs_llm:
        if options.llm is None or not options.llm.configured:
            return skipped(NO_ENDPOINT)
        from heron_pipeline.llm.client import LLMClient

        client = LLMClient(options.llm, cache_dir=options.cache_dir, offline=options.offline,
                           retry_failed=options.retry_failed)
        factory_options["llm"] = client
        if spec.name == "raw-llm":
            factory_options["schema"] = options.schema
    if spec.name == "cli":
        if not options.cli_command:
            return skipped(NO_COMMAND)
        factory_options.update(command=options.cli_command, cli_name=board, cwd=options.cli_cwd)
    conventions = context.conventions
    if not conventions:
        from heron_pipeline.questions import QUESTIONS_DIR
        from heron_pipeline.questions.conventions import load_conventions

        conventions = load_conventions(QUESTIONS_DIR).text
    reader = context.reader_dsn
    if spec.needs_data and reader is None and context.primary_dsn:
        reader = prepare_reader_dsn(context.primary_dsn, password=context.reader_password)
    ctx = PredictionContext(scale=context.scale, n=n, catalog=context.catalog, primary_dsn=context.primary_dsn,
                            options={**(context.options or {}), "question_mode": mode},
                            conventions=conventions, question_mode=mode,
                            reader_dsn=reader)
    adapter = spec.factory(**factory_options)
    conditions = {**adapter.conditions(), "n": n, "question_mode": mode,
                  "conventions_sha256": hashlib.sha256(conventions.encode()).hexdigest()[:16]}

    budget = options.llm.budget_usd if options.llm else None

    def run_one(question: Any) -> list[PredictionRecord]:
        if client is not None and client.budget_reached:
            return _budget_records(question, n, budget)
        try:
            made = adapter.predict(question, ctx)
            _check_samples(board, question.id, made, n)
        except Exception as err:  # noqa: BLE001 - no adapter lets one question stop the run
            return _crash_records(question, n, err)
        return sorted(made, key=lambda r: r.sample)

    results: list[list[PredictionRecord] | None] = [None] * len(questions)
    workers = options.llm.concurrency if (client is not None and options.llm) else 1
    done_records: list[PredictionRecord] = []
    lock = threading.Lock()

    def report(final: bool = False) -> None:
        if progress is None:
            return
        stats = client.stats.snapshot() if client else {}
        progress({"tool": board, "done": sum(r is not None for r in results), "total": len(questions),
                  "requests": stats.get("requests", 0), "cache_hits": stats.get("cache_hits", 0),
                  "retries": stats.get("retries", 0), "prompt_tokens": _sum(done_records, "prompt_tokens"),
                  "completion_tokens": _sum(done_records, "completion_tokens"), "cost_usd": _cost(done_records),
                  "errors_by_class": _errors_by_class(done_records, spec.kind), "final": final})

    if workers <= 1:
        for i, question in enumerate(questions):
            results[i] = run_one(question)
            done_records.extend(results[i])  # type: ignore[arg-type]
            report()
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"heron-{board}") as pool:
            futures = {pool.submit(run_one, q): i for i, q in enumerate(questions)}
            for future in as_completed(futures):
                with lock:
                    results[futures[future]] = future.result()
                    done_records.extend(results[futures[future]])  # type: ignore[arg-type]
                report()
    records = [r for made in results for r in (made or [])]
    report(final=True)
    summary, status, reason = _verdict(records, client, len(questions), budget, board, spec.kind)
    return ToolPredictions(board, spec.kind, status, reason, records, conditions, summary)


def _verdict(records: list[PredictionRecord], client: Any, questions: int, budget: float | None,
             tool: str, kind: str = "sql") -> tuple[dict[str, Any], str, str | None]:
    """The summary of a run, its status and the one-line reason when it is not complete."""
    errors = _errors_by_class(records, kind)
    if client is not None:
        stats = client.stats.snapshot()
        calls, failures = stats["calls"], stats["call_failures_by_class"]
    else:  # one call per record (cli; reference tools make none that can fail at a provider)
        stats = {"requests": 0, "cache_hits": 0, "retries": 0, "spent_usd": 0.0}
        calls, failures = len(records), {k: v for k, v in errors.items() if k in PROVIDER_FAILURES}
    unanswered = {k: v for k, v in failures.items() if k in PROVIDER_FAILURES or k == CACHE_MISS}
    failed = sum(unanswered.values())
    summary = {
        "questions": questions, "records": len(records), "calls": calls, "requests": stats["requests"],
        "cache_hits": stats["cache_hits"], "retries": stats["retries"], "spent_usd": stats["spent_usd"],
        "errors_by_class": errors, "call_failures_by_class": dict(sorted(failures.items())),
        "provider_failure_share": failed / calls if calls else 0.0,
        "prompt_tokens": _sum(records, "prompt_tokens"), "cached_prompt_tokens": _sum(records, "cached_prompt_tokens"),
        "completion_tokens": _sum(records, "completion_tokens"), "cost_usd": _cost(records),
    }
    if errors.get(BUDGET):
        return summary, "incomplete", (f"{tool}: run budget of ${budget:g} reached; {errors[BUDGET]} sample(s) "
                                       f"recorded as budget errors")
    if calls and failed / calls > OUTAGE_SHARE:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(unanswered.items()))
        return summary, "incomplete", (f"{tool}: {failed} of {calls} calls ({100 * failed / calls:.0f} %) failed "
                                       f"at the provider ({counts}); more than {100 * OUTAGE_SHARE:.0f} % is an "
                                       f"outage: no standings row")
    return summary, "complete", None


def load_predictions(path: Path) -> list[PredictionRecord]:
    return [PredictionRecord.from_json(doc) for doc in read_jsonl(Path(path))]


