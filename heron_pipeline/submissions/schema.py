"""The submission folder's three files, validated with pydantic, every problem located.

A submission is ``meta.json`` (who made it and under which conditions), ``predictions.jsonl`` (one
prediction record per question and sample, the record the harness itself writes) and
``claims.json`` (the figures the submitter claims). A reviewer must be able to fix a rejected
folder from the verdict alone, so each problem names its file, its line (for JSON lines) and its
field, and all problems of a folder are reported at once rather than the first one only.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from heron_pipeline.metrics import claim_keys, required_claims
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.submissions.files import (MAX_LINE_BYTES, MAX_PREDICTION_LINES, NAME_RULE,
                                              FileRefused, bounded_json, read_submission_file, valid_name)

META_FILE, PREDICTIONS_FILE, CLAIMS_FILE = "meta.json", "predictions.jsonl", "claims.json"
SUBMISSION_FILES = (META_FILE, PREDICTIONS_FILE, CLAIMS_FILE)
CLASSES = ("sql", "reference", "retrieval")

# Claimable figures (percent, higher is better) are the claims the metric registry declares per class
# (``heron_pipeline.metrics.claim_keys``). Grade is relative to the field it is ranked in and VES is a
# timing, so neither is claimable.
#: Samples per question a submission may hold (the bench samples 1; pass@k needs a few).
MAX_SAMPLES = 100


@dataclass(frozen=True)
class Problem:
    """One located schema problem: file, line (1-based, JSON lines only), field, message."""

    file: str
    field: str | None
    message: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.field + ': ' if self.field else ''}{self.message}"


class RunInfo(BaseModel):
    """What the run manifest said about the run the predictions come from (written by ``heron submit``)."""

    model_config = ConfigDict(extra="allow")

    manifest_digest: str
    scale: str
    seeds: list[int]
    question_mode: str
    questions_digest: str
    predictions_digest: str


class Meta(BaseModel):
    """meta.json: the row's name and every condition its numbers were measured under."""

    model_config = ConfigDict(extra="allow", protected_namespaces=())

    tool: str = Field(min_length=1)
    class_: Literal["sql", "reference", "retrieval"] = Field(alias="class")
    version: str
    approach: str
    repository: str
    model: str | None
    temperature: float | None
    n: int = Field(ge=1, le=MAX_SAMPLES)
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}")
    scale: str
    seeds: list[int] = Field(min_length=1)
    question_mode: str
    questions_digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    harness_version: str
    command: str
    run: RunInfo | None = None
    #: the question draw the predictions answer (0: the public set) and its redraw counters
    instance_seed: int = Field(default=0, ge=0, lt=2**63)
    instance_redraws: dict[str, int] = Field(default_factory=dict)

    @field_validator("tool", "scale", "question_mode")
    @classmethod
    def _path_name(cls, name: str) -> str:
        # these three name folders under the artifacts (scores/<tool>/<scale>_<seed>/<question_mode>)
        if not valid_name(name):
            raise ValueError(NAME_RULE)
        return name

    @field_validator("seeds")
    @classmethod
    def _distinct(cls, seeds: list[int]) -> list[int]:
        if len(set(seeds)) != len(seeds):
            raise ValueError("seeds must be distinct")
        return seeds


class PredictionLine(BaseModel):
    """One line of predictions.jsonl: a prediction record; unknown optional fields are kept."""

    model_config = ConfigDict(extra="allow")

    question_id: str = Field(min_length=1)
    sample: int = Field(ge=0)
    sql: str | None = None
    retrieved_tables: list[str] = Field(default_factory=list)
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)
    latency_s: float | None = Field(default=None, ge=0)
    error: str | None = None
    scale: str | None = None  # written by `heron submit`; must agree with meta.json
    question_mode: str | None = None

    def record(self) -> PredictionRecord:
        """The harness's record (unknown optional fields dropped for scoring)."""
        return PredictionRecord.from_json(self.model_dump())


@dataclass
class Submission:
    """A parsed submission folder (parts are None where their file did not validate)."""

    folder: Path
    meta: Meta | None = None
    predictions: list[PredictionLine] | None = None
    claims: dict[str, float] | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def well_formed(self) -> bool:
        return not self.problems


def _located(file: str, error: ValidationError, line: int | None = None) -> list[Problem]:
    out = []
    for e in error.errors():
        loc = ".".join(str(p) for p in e["loc"]) or None
        out.append(Problem(file, loc, e["msg"], line))
    return out


def _read_text(folder: Path, name: str, problems: list[Problem], missing: str) -> str | None:
    """The text of one submission file, or None with its problem recorded (absent, refused, not UTF-8)."""
    try:
        return read_submission_file(folder, name).decode("utf-8")
    except FileNotFoundError:
        problems.append(Problem(name, None, missing))
    except FileRefused as err:
        problems.append(Problem(name, None, str(err)))
    except OSError as err:
        problems.append(Problem(name, None, f"unreadable: {err.strerror or err}"))
    except UnicodeDecodeError as err:
        problems.append(Problem(name, None, f"not UTF-8 text (byte {err.start})"))
    return None


def _read_json(folder: Path, name: str, problems: list[Problem]) -> Any:
    text = _read_text(folder, name, problems, f"missing; a submission folder needs {', '.join(SUBMISSION_FILES)}")
    if text is None:
        return None
    try:
        return bounded_json(text)
    except json.JSONDecodeError as err:
        problems.append(Problem(name, None, f"not JSON: {err.msg} at line {err.lineno} column {err.colno}", err.lineno))
    except FileRefused as err:
        problems.append(Problem(name, None, str(err)))
    return None


def parse_meta(doc: Any, problems: list[Problem]) -> Meta | None:
    if doc is None:
        return None
    if not isinstance(doc, dict):
        problems.append(Problem(META_FILE, None, "must be a JSON object"))
        return None
    try:
        return Meta.model_validate(doc)
    except ValidationError as err:
        problems.extend(_located(META_FILE, err))
        return None


def parse_claims(doc: Any, klass: str | None, problems: list[Problem]) -> dict[str, float] | None:
    if doc is None:
        return None
    if not isinstance(doc, dict):
        problems.append(Problem(CLAIMS_FILE, None, "must be a JSON object of figure name -> percent"))
        return None
    allowed = claim_keys("retrieval" if klass == "retrieval" else "sql")
    claims: dict[str, float] = {}
    for key, value in doc.items():
        if key not in allowed:
            problems.append(Problem(CLAIMS_FILE, key, f"not a claimable figure for class {klass}; "
                                                      f"one of {', '.join(allowed)}"))
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 <= value <= 100:
            problems.append(Problem(CLAIMS_FILE, key, f"must be a percentage between 0 and 100, got {value!r}"))
        else:
            claims[key] = float(value)
    for required in required_claims(klass):
        if required not in doc:
            problems.append(Problem(CLAIMS_FILE, required, f"required for class {klass}"))
    return claims


def parse_predictions(folder: Path, problems: list[Problem]) -> list[PredictionLine] | None:
    text = _read_text(folder, PREDICTIONS_FILE, problems, "missing; one prediction record per question and sample")
    if text is None:
        return None
    lines = text.splitlines()
    count = sum(1 for line in lines if line.strip())
    if count > MAX_PREDICTION_LINES:
        problems.append(Problem(PREDICTIONS_FILE, None, f"holds {count:,} records; a submission holds at most "
                                                        f"{MAX_PREDICTION_LINES:,} (one per question and sample)"))
        return None
    records = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        size = len(text.encode("utf-8"))
        if size > MAX_LINE_BYTES:
            problems.append(Problem(PREDICTIONS_FILE, None, f"the line is {size:,} bytes; a prediction record may "
                                                            f"hold at most {MAX_LINE_BYTES:,}", number))
            continue
        try:
            doc = bounded_json(text)
        except json.JSONDecodeError as err:
            problems.append(Problem(PREDICTIONS_FILE, None, f"not JSON: {err.msg}", number))
            continue
        except FileRefused as err:
            problems.append(Problem(PREDICTIONS_FILE, None, str(err), number))
            continue
        if not isinstance(doc, dict):
            problems.append(Problem(PREDICTIONS_FILE, None, "must be a JSON object", number))
            continue
        try:
            records.append(PredictionLine.model_validate(doc))
        except ValidationError as err:
            problems.extend(_located(PREDICTIONS_FILE, err, number))
    return records


def load_submission(folder: Path) -> Submission:
    """Parse and validate the three files of ``folder``; every problem is in ``problems``."""
    folder = Path(folder)
    problems: list[Problem] = []
    meta = parse_meta(_read_json(folder, META_FILE, problems), problems)
    predictions = parse_predictions(folder, problems)
    claims = parse_claims(_read_json(folder, CLAIMS_FILE, problems), meta.class_ if meta else None, problems)
    return Submission(folder, meta, predictions, claims, problems)
