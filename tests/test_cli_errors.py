"""Every bad input to the real ``heron`` command: one stderr line that names the thing and the fix.

Each case runs ``python -m heron_pipeline.cli`` in a subprocess with an environment of its own
and checks the contract of issue 11 item 8: a non-zero exit (the code that says which kind of
failure), exactly one line on stderr, no traceback, and the flag, file or address named in it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from heron_pipeline.cli import explain_failure
from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import EmbeddedServer
from heron_pipeline.database.server import Server

USAGE, FAIL, UNAVAILABLE = 2, 1, 7


def heron(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heron_pipeline.cli", *argv], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", **env}, timeout=120)


@dataclass(frozen=True)
class Case:
    """One bad input: the command line, the environment (``{port}``, ``{data}``, ``{tmp}`` are
    filled in), a file to write first, the exit code, and words the line must contain."""

    name: str
    argv: tuple[str, ...]
    env: dict[str, str]
    code: int
    names: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)


CLOSED = "postgresql://postgres:s3cret@127.0.0.1:{port}/postgres"  # a port nobody listens on

CASES = [
    Case("fingerprint, HERON_DSN on a closed port", ("fingerprint", "--scale", "tiny", "--seed", "42"),
         {"HERON_DSN": CLOSED}, UNAVAILABLE, ("127.0.0.1:{port}", "HERON_DSN", "Connection refused")),
    Case("verify-data, HERON_DSN on a closed port", ("verify-data", "--scale", "tiny", "--seed", "42"),
         {"HERON_DSN": CLOSED}, UNAVAILABLE, ("127.0.0.1:{port}", "HERON_DSN")),
    Case("schema, HERON_DSN on a closed port", ("schema",), {"HERON_DSN": CLOSED}, UNAVAILABLE,
         ("127.0.0.1:{port}", "HERON_DSN")),
    Case("dump, HERON_DSN on a closed port", ("dump", "--scale", "tiny", "--seed", "42"), {"HERON_DSN": CLOSED},
         UNAVAILABLE, ("127.0.0.1:{port}", "HERON_DSN")),
    Case("fingerprint after heron db down", ("fingerprint", "--scale", "tiny", "--seed", "42"),
         {"HERON_DATA_DIR": "{data}", "HERON_PORT": "{port}"}, UNAVAILABLE,
         ("127.0.0.1:{port}", "not running", "heron db up")),
    Case("verify-data after heron db down", ("verify-data", "--scale", "tiny", "--seed", "42"),
         {"HERON_DATA_DIR": "{data}", "HERON_PORT": "{port}"}, UNAVAILABLE,
         ("127.0.0.1:{port}", "not running", "heron db up")),
    Case("fingerprint, embedded server never started", ("fingerprint", "--scale", "tiny", "--seed", "1"),
         {"HERON_DATA_DIR": "{tmp}/fresh", "HERON_PORT": "{port}"}, UNAVAILABLE, ("127.0.0.1:{port}", "heron db up")),
    Case("db status of an external server that is down", ("db", "status"), {"HERON_DSN": CLOSED}, FAIL,
         ("down", "127.0.0.1:{port}", "HERON_DSN")),
    Case("db down of an external server", ("db", "down"), {"HERON_DSN": CLOSED}, FAIL, ("HERON_DSN", "unset")),
    Case("bench --seeds abc", ("bench", "--seeds", "abc"), {"HERON_PORT": "{port}"}, USAGE, ("--seeds", "'abc'", "42,43,44")),
    Case("audit --seeds 42,x", ("audit", "--seeds", "42,x"), {"HERON_PORT": "{port}"}, USAGE, ("--seeds", "'x'")),
    Case("bench --seeds ,", ("bench", "--seeds", ","), {"HERON_PORT": "{port}"}, USAGE, ("--seeds", "at least one")),
    Case("fingerprint --seed abc", ("fingerprint", "--scale", "tiny", "--seed", "abc"), {}, USAGE,
         ("--seed", "'abc'", "--help")),
    Case("seed --seed -1", ("seed", "--scale", "tiny", "--seed", "-1"), {"HERON_PORT": "{port}"}, USAGE,
         ("--seed", "'-1'", "0..2147483647")),
    Case("seed --scale huge", ("seed", "--scale", "huge", "--seed", "1"), {}, USAGE, ("--scale", "huge")),
    Case("heron.toml cut short", ("db", "status"), {"HERON_CONFIG": "{tmp}/cut.toml"}, USAGE,
         ("{tmp}/cut.toml", "line 2"), {"cut.toml": 'data_dir = "/tmp/x"\nport = '}),
    Case("heron.toml with a bad string on line 3", ("fingerprint", "--scale", "tiny", "--seed", "42"),
         {"HERON_CONFIG": "{tmp}/quote.toml"}, USAGE, ("{tmp}/quote.toml", "line 3"),
         {"quote.toml": '# heron\nport = 60000\ndsn = "postgresql://x\n'}),
    Case("heron.toml with an unknown key", ("db", "status"), {"HERON_CONFIG": "{tmp}/key.toml"}, USAGE,
         ("{tmp}/key.toml", "prot"), {"key.toml": "prot = 60000\n"}),
    Case("heron.toml port out of range", ("db", "status"), {"HERON_CONFIG": "{tmp}/port.toml"}, USAGE,
         ("{tmp}/port.toml", "port", "1024..65535"), {"port.toml": "port = 80\n"}),
    Case("HERON_CONFIG names no file", ("db", "status"), {"HERON_CONFIG": "{tmp}/missing.toml"}, USAGE,
         ("HERON_CONFIG", "{tmp}/missing.toml")),
    Case("HERON_PORT=abc", ("db", "status"), {"HERON_PORT": "abc"}, USAGE, ("HERON_PORT", "'abc'")),
    Case("db url with --scale alone", ("db", "url", "--scale", "tiny"), {"HERON_PORT": "{port}"}, USAGE,
         ("--scale", "--seed")),
]


@pytest.fixture(scope="module")
def stopped_server(free_port) -> tuple[Path, int]:
    """A data folder whose embedded server was started, then stopped with ``heron db down``
    (outside pytest's tmp tree, as in conftest.server_dir: the server's account must reach it)."""
    data = Path(tempfile.mkdtemp(prefix="heron-test-"))
    port = free_port()
    env = {"HERON_DATA_DIR": str(data), "HERON_PORT": str(port)}
    assert heron("db", "up", env=env).returncode == 0
    assert heron("db", "down", env=env).returncode == 0
    yield data, port
    shutil.rmtree(data, ignore_errors=True)


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def _run_case(case: Case, data: Path, stopped_port: int, tmp: Path, port: int) -> tuple[dict, subprocess.CompletedProcess]:
    port = stopped_port if "{data}" in "".join(case.env.values()) else port
    values = {"port": str(port), "data": str(data), "tmp": str(tmp)}
    tmp.mkdir(parents=True)
    for name, content in case.files.items():
        (tmp / name).write_text(content)
    env = {k: _fill(v, values) for k, v in case.env.items()}
    env.setdefault("HERON_DATA_DIR", str(tmp / "unused"))
    return values, heron(*case.argv, env=env)


@pytest.fixture(scope="module")
def outcomes(stopped_server, tmp_path_factory, free_port) -> dict[str, tuple[dict, subprocess.CompletedProcess]]:
    """Every case's run, four at a time (each is a Python start-up, most of a second)."""
    data, stopped_port = stopped_server
    root = tmp_path_factory.mktemp("cases")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {c.name: pool.submit(_run_case, c, data, stopped_port, root / str(i), free_port())
                   for i, c in enumerate(CASES)}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_one_line_naming_it(case: Case, outcomes) -> None:
    values, done = outcomes[case.name]
    lines = done.stderr.splitlines()
    assert done.returncode == case.code, done.stderr
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for words in case.names:
        assert _fill(words, values) in lines[0], (words, lines[0])
    assert "s3cret" not in done.stderr, "a message must never show the password of HERON_DSN"


def test_debug_adds_the_traceback(tmp_path: Path, free_port) -> None:
    env = {"HERON_DSN": CLOSED.format(port=free_port()), "HERON_DATA_DIR": str(tmp_path)}
    for argv in (("--debug", "fingerprint", "--scale", "tiny", "--seed", "42"),
                 ("fingerprint", "--scale", "tiny", "--seed", "42", "--debug")):
        done = heron(*argv, env=env)
        assert done.returncode == UNAVAILABLE
        assert "Traceback (most recent call last)" in done.stderr
        assert done.stderr.splitlines()[-1].startswith("error: cannot connect")


def test_missing_state_names_the_seed_command(settings: Settings, server: Server) -> None:
    env = {"HERON_DATA_DIR": str(settings.data_dir), "HERON_PORT": str(settings.port)}
    if settings.dsn:
        env["HERON_DSN"] = settings.dsn
    for command in ("fingerprint", "verify-data"):
        done = heron(command, "--scale", "small", "--seed", "9876", env=env)
        assert done.returncode == FAIL
        assert done.stderr.splitlines() == ["error: heron_small_9876 does not exist; "
                                            "run `heron seed --scale small --seed 9876`"]


def test_status_of_a_stopped_server_says_how_to_start_it(stopped_server) -> None:
    data, port = stopped_server
    done = heron("db", "status", env={"HERON_DATA_DIR": str(data), "HERON_PORT": str(port)})
    assert done.returncode == 1
    assert done.stderr == f"down: 127.0.0.1:{port}; start it with `heron db up`\n"
    assert not EmbeddedServer(data / "pgdata", port).stopped_uncleanly(), "heron db down is a clean shutdown"


@pytest.mark.parametrize("err, line, code", [
    (psycopg.OperationalError('connection failed: connection to server at "127.0.0.1", port 1 failed: FATAL:  '
                              'database "heron_small_9" does not exist'),
     "error: heron_small_9 does not exist on postgresql://u:***@127.0.0.1:1/postgres (HERON_DSN); "
     "run `heron seed --scale small --seed 9`", FAIL),
    (psycopg.OperationalError('connection failed: connection to server at "127.0.0.1", port 1 failed: '
                              'Connection refused\n\tIs the server running on that host?'),
     "error: cannot connect to database postgres on postgresql://u:***@127.0.0.1:1/postgres (HERON_DSN): "
     "Connection refused; check that the server is running and HERON_DSN names it", UNAVAILABLE),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
     "error: lost the connection to postgresql://u:***@127.0.0.1:1/postgres (HERON_DSN): terminating connection "
     "due to administrator command; check the server with `heron db status`, then rerun the command "
     "(the next build of the state drops the unfinished one)", UNAVAILABLE),
    (psycopg.errors.UndefinedTable('relation "x" does not exist\nLINE 1: SELECT * FROM x'),
     "error: PostgreSQL: relation \"x\" does not exist (an unexpected failure of heron's own SQL; "
     "`heron --debug ...` shows where)", FAIL),
    (KeyError("tables"), "error: unexpected KeyError: 'tables'; `heron --debug ...` shows the traceback "
                         "for a bug report", FAIL),
])
def test_explain_failure_table(err: BaseException, line: str, code: int) -> None:
    """Failures raised inside a command, as main() reports them (in-process: a lost connection or
    a connection made by plain psycopg deep in the core cannot be provoked by a flag)."""
    settings = Settings(dsn="postgresql://u:pw@127.0.0.1:1/postgres")
    assert explain_failure(err, settings, "seed") == (line, code)
