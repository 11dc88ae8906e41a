"""``cli``: any external command as a tool, so third-party tools join without touching heron's code.

Follows the harness-to-tool contract of lm-evaluation-harness and Spider 2.0's "bring your own
agent": heron only speaks a documented protocol. For each question and sample the command
(``HERON_CLI_COMMAND`` / ``--cli-command``, split like a shell would but run without one, in
``HERON_CLI_CWD`` / ``--cli-cwd`` when given, else heron's working directory) gets ONE
JSON object on stdin::

    {"id": "q001", "sample": 0, "question": "...", "question_mode": "full",
     "conventions": "<the benchmark's conventions note>",
     "dsn": "<primary state, as the cli tools' read-only login>", "schema": "/path/to/schema.json"}

and prints on stdout either the SQL text, or a JSON object ``{"sql": ..., "retrieved_tables": [...],
"prompt_tokens": ..., "completion_tokens": ..., "cost_usd": ...}`` (all but ``sql`` optional). The
tokens and cost are the tool's own claim: recorded and shown as claimed (``conditions["telemetry"]``),
never in the Grade; the latency is heron's own clock around the call, so it is measured. The
schema file (format ``heron-schema/1``, ``schema_document``; documented in examples/cli/README.md)
is the catalog as JSON. A non-zero exit is ``tool_failed``, no answer within ``HERON_CLI_TIMEOUT``
seconds (default 120; the whole process group is killed) is ``tool_timeout``, a JSON object
without a usable ``sql`` is ``malformed_reply``, text without SQL is ``no_sql`` — each one
question's error, never the run's.

The child's environment is scrubbed: PATH, HOME, LANG and the variables named in
``HERON_CLI_PASS_ENV`` (comma-separated), never heron's own DSN or keys. Its name on the board is
``HERON_CLI_NAME`` / ``--cli-name`` (default ``cli``), so two external tools never share artifacts.
The DSN (issue 33) is the ``heron_cli`` login (``sandbox.cli_role``), never the prediction sandbox's
role: it opens the primary state only, reads what the sandbox reads, and its settings are put back
before each run of the command and read after it — a run that leaves settings behind (``ALTER ROLE
CURRENT_USER … SET``) is ``tool_failed`` with the settings named, and they are reset.

Simplification: answers are not cached (the tool owns its own caching) and calls are sequential.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

from psycopg import conninfo

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
from heron_pipeline.artifacts.atomic import write_text_atomic
from heron_pipeline.llm.errors import MALFORMED_REPLY, NO_SQL, TOOL_FAILED, TOOL_TIMEOUT
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.scoring.grade import CLAIMED, MEASURED, telemetry
from heron_pipeline.sandbox.cli_role import CLI_ROLE, CliAccess, cli_password

SCHEMA_FORMAT = "heron-schema/1"
DEFAULT_TIMEOUT_S = 120.0
BASE_ENV = ("PATH", "HOME", "LANG")


def schema_document(catalog: Any) -> dict[str, Any]:
    """The catalog as the ``heron-schema/1`` JSON document handed to external tools."""
    tables = []
    for table in catalog.tables.values():
        tables.append({
            "name": table.qualified,
            "comment": table.comment,
            "columns": [{"name": c.name, "type": c.type_sql, "nullable": c.nullable, "comment": c.comment}
                        for c in table.columns],
            "primary_key": list(table.primary_key),
            "foreign_keys": [{"columns": list(fk.columns), "ref_table": fk.ref_table,
                              "ref_columns": list(fk.ref_columns)} for fk in table.foreign_keys],
        })
    return {"format": SCHEMA_FORMAT, "ddl_hash": catalog.ddl_hash,
            "enums": {name: list(labels) for name, labels in catalog.enums.items()}, "tables": tables}


def write_schema_file(catalog: Any, directory: Path | None = None) -> Path:
    """The schema document as a file named by the DDL's hash (written once, atomically)."""
    directory = Path(directory or tempfile.gettempdir())
    path = directory / f"heron-schema-{catalog.ddl_hash[:16]}.json"
    if not path.exists():
        write_text_atomic(path, json.dumps(schema_document(catalog), sort_keys=True, indent=1))
    return path


def child_environment(environ: Mapping[str, str], pass_env: str | None) -> dict[str, str]:
    """PATH, HOME, LANG and the variables listed in ``pass_env`` (comma-separated), nothing else."""
    names = [*BASE_ENV, *(n.strip() for n in (pass_env or "").split(",") if n.strip())]
    return {n: environ[n] for n in names if n in environ}


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class CommandAdapter:
    """An external command as a tool (see module docstring)."""

    def __init__(self, command: str | None = None, *, cli_name: str | None = None, timeout_s: float | None = None,
                 pass_env: str | None = None, environ: Mapping[str, str] | None = None,
                 schema_dir: Path | None = None, cwd: str | Path | None = None):
        env = os.environ if environ is None else environ
        command = command or env.get("HERON_CLI_COMMAND")
        if not command or not command.strip():
            raise ValueError("the cli tool needs a command: set HERON_CLI_COMMAND or pass --cli-command")
        try:
            self.argv = shlex.split(command)
        except ValueError as err:
            raise ValueError(f"HERON_CLI_COMMAND / --cli-command cannot be split into words: {err}") from None
        self.command = command
        self.name = cli_name or env.get("HERON_CLI_NAME") or "cli"
        raw_timeout = timeout_s if timeout_s is not None else env.get("HERON_CLI_TIMEOUT")
        try:
            self.timeout_s = float(raw_timeout) if raw_timeout not in (None, "") else DEFAULT_TIMEOUT_S
        except ValueError:
            raise ValueError(f"HERON_CLI_TIMEOUT must be a number of seconds, got {raw_timeout!r}") from None
        if self.timeout_s <= 0:
            raise ValueError(f"HERON_CLI_TIMEOUT must be greater than 0, got {raw_timeout!r}")
        self.env = child_environment(env, pass_env if pass_env is not None else env.get("HERON_CLI_PASS_ENV"))
        self.schema_dir = schema_dir
        self.cwd = str(cwd) if cwd else (env.get("HERON_CLI_CWD") or None)
        if self.cwd is not None and not Path(self.cwd).is_dir():
            raise ValueError(f"HERON_CLI_CWD / --cli-cwd {self.cwd}: no such folder")
        self._access: CliAccess | None = None

    def conditions(self) -> dict[str, Any]:
        return {"model": f"cli:{self.name}", "temperature": None, "command": self.command,
                "timeout_s": self.timeout_s, "passed_env": sorted(set(self.env) - set(BASE_ENV)),
                # the reply's usage is the tool's word; the latency is heron's perf_counter around the call
                "telemetry": telemetry(tokens=CLAIMED, latency=MEASURED)}

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        schema = write_schema_file(context.schema(), self.schema_dir)
        return [self._sample(question, i, context, schema) for i in range(context.n)]

    def access(self, context: PredictionContext) -> CliAccess | None:
        """The cli login of the primary state (None without the admin's DSN: then there is nothing
        to set up, and the DSN handed over is the reader's with the cli login's user)."""
        if not context.primary_dsn:
            return None
        if self._access is None or self._access.admin_dsn != context.primary_dsn:
            self._access = CliAccess(context.primary_dsn, context.reader_password)
        return self._access

    def tool_dsn(self, context: PredictionContext) -> str | None:
        """The DSN handed to the command: the cli login on the primary state, never the sandbox's role."""
        access = self.access(context)
        if access is not None:
            return access.dsn
        if not context.reader_dsn:
            return None
        return conninfo.make_conninfo(context.reader_dsn, user=CLI_ROLE,
                                      password=cli_password(context.reader_password) or None)

    def request(self, question: Any, sample: int, context: PredictionContext, schema: Path) -> dict[str, Any]:
        """The JSON object sent on the command's stdin."""
        return {"id": question.id, "sample": sample, "question": context.text_of(question),
                "question_mode": context.question_mode, "conventions": context.conventions,
                "dsn": self.tool_dsn(context), "schema": str(schema)}

    def _sample(self, question: Any, sample: int, context: PredictionContext, schema: Path) -> PredictionRecord:
        payload = json.dumps(self.request(question, sample, context, schema)).encode()
        access = self.access(context)
        if access is not None:
            access.reset()  # the login as heron set it, whatever an earlier run left
        record = self._run(question, sample, payload)
        if access is not None:
            left = access.tampered()
            if left:
                access.reset()
                return PredictionRecord(question.id, sample, None, latency_s=record.latency_s, error_class=TOOL_FAILED,
                                        error=("the tool changed its database login's settings, which is not "
                                               "allowed: " + "; ".join(left))[:300])
        return record

    def _run(self, question: Any, sample: int, payload: bytes) -> PredictionRecord:
        started = time.perf_counter()

        def failed(error_class: str, error: str) -> PredictionRecord:
            return PredictionRecord(question.id, sample, None, latency_s=time.perf_counter() - started,
                                    error=" ".join(error.split())[:300], error_class=error_class)

        try:
            child = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=self.env, cwd=self.cwd, start_new_session=True)
        except OSError as err:
            return failed(TOOL_FAILED, f"cannot start {self.argv[0]!r}: {err.strerror or err}")
        try:
            out, err_out = child.communicate(payload, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            child.communicate()
            return failed(TOOL_TIMEOUT, f"no answer within {self.timeout_s:g} s")
        except BaseException:  # this process is being stopped (SystemExit on SIGTERM): the tool goes with it
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            raise
        latency = time.perf_counter() - started
        if child.returncode != 0:
            last = next((line for line in reversed(err_out.decode(errors="replace").splitlines()) if line.strip()), "")
            return failed(TOOL_FAILED, f"exit status {child.returncode}" + (f": {last}" if last else ""))
        return self._parse(question.id, sample, out.decode(errors="replace"), latency)

    @staticmethod
    def _parse(question_id: str, sample: int, text: str, latency: float) -> PredictionRecord:
        stripped = text.strip()
        doc: Any = None
        if stripped.startswith("{"):
            try:
                doc = json.loads(stripped)
            except json.JSONDecodeError:
                doc = None
        if isinstance(doc, dict):
            sql = doc.get("sql")
            tables = doc.get("retrieved_tables") or []
            if not isinstance(sql, str) or not sql.strip():
                return PredictionRecord(question_id, sample, None, latency_s=latency, error_class=MALFORMED_REPLY,
                                        error="the JSON answer has no 'sql' string")
            if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
                return PredictionRecord(question_id, sample, None, latency_s=latency, error_class=MALFORMED_REPLY,
                                        error="'retrieved_tables' must be a list of table names")
            cost = doc.get("cost_usd")
            return PredictionRecord(
                question_id, sample, sql.strip().rstrip(";").rstrip() or None,
                retrieved_tables=tuple(t.lower() for t in tables),
                prompt_tokens=_int_or_none(doc.get("prompt_tokens")),
                completion_tokens=_int_or_none(doc.get("completion_tokens")), latency_s=latency,
                cost_usd=float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None)
        try:
            return PredictionRecord(question_id, sample, extract_sql(text), latency_s=latency)
        except NoSQLFound as err:
            return PredictionRecord(question_id, sample, None, latency_s=latency, error_class=NO_SQL, error=str(err))
