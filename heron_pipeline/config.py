"""heron's one typed configuration, read once and passed down.

Sources, later ones winning: built-in defaults, an optional TOML file (``heron.toml`` in the
project root, or the file ``HERON_CONFIG`` names), then ``HERON_*`` environment variables. Nothing
else in the package reads the environment, so a test can build a ``Settings`` by hand and know
exactly which server and folders it touches. (An ``s3://`` artifact root's credentials are the
standard AWS variables, read by botocore itself; only the endpoint is read here, to name the store.)
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

from heron_pipeline.artifacts.store import ObjectStoreURL, is_store_url

PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Below Linux's ephemeral range (32768-60999; macOS and Windows use 49152-65535), where outgoing
#: connections take their local ports: a port in that range can be held by any client's socket
#: (54817, the old default, was: `heron db up` then failed with "already in use"). Far from 5432 and
#: the usual development ports, and no registered service's.
DEFAULT_PORT = 24817

_ENV_NAMES = {
    "dsn": "HERON_DSN",
    "data_dir": "HERON_DATA_DIR",
    "artifact_dir": "HERON_ARTIFACT_DIR",
    "port": "HERON_PORT",
    "reader_password": "HERON_READER_PASSWORD",
    "seeds": "HERON_SEEDS",
    "scales": "HERON_SCALES",
}


@dataclass(frozen=True)
class Settings:
    """Where heron's server and files are.

    ``dsn`` set means an external PostgreSQL 16+ server (its database part names the maintenance
    database); ``None`` means the embedded server heron runs itself on ``127.0.0.1:port`` with its
    data under ``data_dir/pgdata``.
    """

    dsn: str | None = None
    data_dir: Path = PROJECT_ROOT / ".heron"
    #: A folder, or an ``s3://bucket/prefix`` object store (then ``artifacts`` is its local working
    #: copy, synchronised by ``artifacts.store.synchronised`` around each command).
    artifact_dir: Path | ObjectStoreURL | None = None
    port: int = DEFAULT_PORT
    #: Password of the sandbox's reader role; needed only on an external server that does not trust
    #: loopback connections (the embedded server does). See heron_pipeline/sandbox/roles.py.
    reader_password: str | None = None
    #: The seeds kept for multi-state EX (Dagster's seeds sensor registers them as partitions).
    seeds: tuple[int, ...] = (42, 43, 44)
    #: The scales the nightly tool-run schedule predicts for.
    scales: tuple[str, ...] = ("tiny",)

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    @property
    def artifacts(self) -> Path:
        """The local artifact root every step reads and writes: the folder, or the object store's
        working copy under ``data_dir/artifact-cache``."""
        if isinstance(self.artifact_dir, ObjectStoreURL):
            return self.data_dir / "artifact-cache" / self.artifact_dir.working_copy_name
        return self.artifact_dir if self.artifact_dir is not None else self.data_dir / "artifacts"

    @property
    def artifact_store(self) -> ObjectStoreURL | None:
        """The object store holding the artifacts, or None for a local folder (the default)."""
        return self.artifact_dir if isinstance(self.artifact_dir, ObjectStoreURL) else None

    @property
    def is_embedded(self) -> bool:
        return self.dsn is None


class ConfigError(ValueError):
    """A setting heron cannot use; the message names where it came from (the file and line, or
    the environment variable) and what would be accepted."""


#: How each setting is written in heron.toml: the fix an error shows.
_EXAMPLES = {
    "dsn": 'dsn = "postgresql://user@host:5432/postgres"',
    "data_dir": 'data_dir = "/srv/heron"',
    "artifact_dir": 'artifact_dir = "/srv/heron/artifacts" (or "s3://bucket/prefix")',
    "port": "port = 24817",
    "reader_password": 'reader_password = "…"',
    "seeds": "seeds = [42, 43, 44]",
    "scales": 'scales = ["tiny", "small"]',
}


def _coerce(name: str, raw: object, source: str = "heron config", *, in_file: bool = False,
            endpoint: str | None = None) -> object:
    """``raw`` as the type of setting ``name``; ``source`` (``HERON_PORT: port``,
    ``heron.toml:3: port``) is how an error names it, and one from a file (``in_file``) also shows
    how to write the key. Environment values are always text; a TOML value of the wrong type
    (``data_dir = 5``, ``artifact_dir = ["a"]``) is an error, never a path made from it."""
    fix = f"write it as {_EXAMPLES[name]}" if in_file else ""

    def bad(expected: str) -> ConfigError:
        return ConfigError(f"{source} must be {expected}, got {raw!r}" + (f"; {fix}" if fix else ""))

    if name == "port":
        if isinstance(raw, (bool, float)) or not isinstance(raw, (int, str)):
            raise bad("an integer in 1024..65535")
        try:
            port = int(raw)
        except (TypeError, ValueError):
            raise bad("an integer in 1024..65535") from None
        if not 1024 <= port <= 65535:
            raise bad("in 1024..65535")
        return port
    if name in ("data_dir", "artifact_dir"):
        if not isinstance(raw, str) or not raw.strip():
            raise bad("a folder path in quotes")
        if name == "artifact_dir" and is_store_url(raw):
            try:
                return ObjectStoreURL.parse(raw, endpoint)
            except ValueError as err:
                raise ConfigError(f"{source}: {err}") from None
        return Path(raw).expanduser().resolve()
    if name in ("dsn", "reader_password"):
        if not isinstance(raw, str):
            raise bad("text in quotes")
        if name == "dsn" and raw:
            _check_dsn(raw, source)
        return raw or None
    if name == "seeds":
        if not isinstance(raw, (list, str, int)) or isinstance(raw, bool):
            raise bad("a list of integers in 0..2147483647")
        items = raw if isinstance(raw, list) else str(raw).split(",")
        seeds = []
        for item in items:
            if isinstance(item, (bool, float)) or not str(item).strip().isdigit() or int(str(item).strip()) >= 2**31:
                raise bad(f"integers in 0..2147483647 ({item!r} is not)")
            seeds.append(int(str(item).strip()))
        if not seeds:
            raise bad("a list holding at least one seed")
        return tuple(dict.fromkeys(seeds))
    if name == "scales":
        from heron_pipeline.database.names import SCALES

        if not isinstance(raw, (list, str)):
            raise bad(f"a list of scales among {', '.join(SCALES)}")
        items = raw if isinstance(raw, list) else str(raw).split(",")
        scales = tuple(str(s).strip() for s in items if str(s).strip())
        unknown = [s for s in scales if s not in SCALES]
        if unknown or not scales or not all(isinstance(s, str) for s in items):
            raise bad(f"among {', '.join(SCALES)}")
        return scales
    raise AssertionError(name)


def _check_dsn(raw: str, source: str) -> None:
    """A ``ConfigError`` naming ``source`` unless ``raw`` parses as a libpq connection string or URI
    (what every connection heron makes is given): bad text is a setting to fix, not a failure of
    heron's own SQL found at the first query."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    try:
        conninfo_to_dict(raw)
    except psycopg.Error as err:
        reason = " ".join(str(err).split()) or type(err).__name__
        unset = "unset HERON_DSN" if source.startswith("HERON_DSN") else "remove the key"
        raise ConfigError(f"{source} is not a PostgreSQL connection string ({reason}); write it as "
                          f"{_EXAMPLES['dsn'].split(' = ', 1)[1]} (or host=… port=… dbname=…), or {unset} "
                          "to use the embedded server") from None


def _key_line(path: Path, key: str) -> int | None:
    """The line of ``path`` where top-level ``key`` is set (for errors that name the line)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    return next((number for number, line in enumerate(lines, 1) if pattern.match(line)), None)


def _file_source(path: Path, key: str) -> str:
    line = _key_line(path, key)
    return f"{path}:{line}: {key}" if line is not None else f"{path}: {key}"


_TOML_WHERE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")


def read_toml(path: Path) -> dict:
    """The TOML document in ``path``; a syntax error is a ``ConfigError`` naming the file, the
    line and column (tomllib says "at end of document" for a value cut short: that is the last
    line) and the fix."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read the heron config {path}: {err}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        where = _TOML_WHERE.search(message)
        reason = message[:where.start()] if where else message
        if where and where.group(1):
            line, column = where.group(1), where.group(2)
        else:
            line, column = str(max(1, len(text.splitlines()))), "end"
        raise ConfigError(f"{path}:{line}: invalid TOML at line {line}, column {column}: {reason}; "
                          "fix the file (keys: key = \"text\" or key = 123)") from None


def artifact_root_setting(raw: str, environ: dict[str, str] | None = None) -> Path | ObjectStoreURL:
    """An artifact-root value given outside the config file (the Dagster resource's ``artifact_dir``):
    a folder, or an ``s3://`` store at the endpoint the environment names."""
    env = os.environ if environ is None else environ
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL") or None
    return _coerce("artifact_dir", raw, "artifact_dir", endpoint=endpoint)  # type: ignore[return-value]


def load_settings(environ: dict[str, str] | None = None, config_file: Path | None = None) -> Settings:
    """Build the settings from defaults, the optional TOML file and the environment.

    A ``HERON_CONFIG`` naming a file that does not exist is an error (a typo must not silently
    mean the defaults); ``config_file`` and the default ``heron.toml`` are optional."""
    env = os.environ if environ is None else environ
    # An s3:// artifact root's endpoint: the variables botocore itself reads (the S3-specific one wins).
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL") or None
    settings = Settings()
    if config_file is None and env.get("HERON_CONFIG") and not Path(env["HERON_CONFIG"]).is_file():
        raise ConfigError(f"HERON_CONFIG names {env['HERON_CONFIG']}, which is not a file; "
                          "fix the path or unset HERON_CONFIG")
    path = config_file or (Path(env["HERON_CONFIG"]) if env.get("HERON_CONFIG") else PROJECT_ROOT / "heron.toml")
    if path.is_file():
        document = read_toml(path)
        known = {f.name for f in fields(Settings)}
        unknown = set(document) - known
        if unknown:
            raise ConfigError(f"{path}: unknown keys {sorted(unknown)}; known: {sorted(known)}")
        settings = replace(settings, **{k: _coerce(k, v, _file_source(path, k), in_file=True, endpoint=endpoint)
                                        for k, v in document.items()})
    overrides = {name: _coerce(name, env[var], f"{var}: {name}", endpoint=endpoint)
                 for name, var in _ENV_NAMES.items() if env.get(var)}
    return replace(settings, **overrides)
