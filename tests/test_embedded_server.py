"""The embedded server's lifecycle, on a server of the test's own (never the user's)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import EmbeddedServer, ServerError
from heron_pipeline.database.server import Server


def test_up_twice_is_one_server(pg_tmp: Path, free_port) -> None:
    server = EmbeddedServer(pg_tmp / "pgdata", free_port())
    try:
        assert server.up() is True
        pid = server.running_pid()
        assert server.up() is False
        assert server.running_pid() == pid
        assert server.is_up()
    finally:
        server.down()
    assert not server.is_up()
    assert server.down() is False


def test_locale_and_time_zone_are_explicit(server: Server) -> None:
    if not server.settings.is_embedded:
        pytest.skip("external server: its settings are its administrator's")
    with server.connect() as conn:
        assert conn.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()").fetchone()[0] == "C"
        assert conn.execute("SHOW server_encoding").fetchone()[0] == "UTF8"
        assert conn.execute("SELECT current_setting('timezone', true)").fetchone()[0] == "UTC"
        assert conn.execute("SHOW fsync").fetchone()[0] == "on"
        assert conn.execute("SHOW listen_addresses").fetchone()[0] == "127.0.0.1"


def test_taken_port_is_a_clear_error(pg_tmp: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        server = EmbeddedServer(pg_tmp / "pgdata", port)
        with pytest.raises(ServerError, match=f"port {port} .* in use"):
            server.up()
    assert not (pg_tmp / "pgdata" / "postmaster.pid").exists()


def test_cli_url_prints_only_the_dsn(settings: Settings, server: Server) -> None:
    env = {"HERON_DATA_DIR": str(settings.data_dir), "HERON_PORT": str(settings.port), "PATH": "/usr/bin:/bin"}
    if settings.dsn:
        env["HERON_DSN"] = settings.dsn
    run = lambda *a: subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "db", *a],  # noqa: E731
                                    capture_output=True, text=True, env=env)
    plain = run("url")
    assert plain.returncode == 0 and plain.stdout == server.dsn() + "\n"
    scoped = run("url", "--scale", "small", "--seed", "43")
    assert scoped.stdout.strip().endswith("/heron_small_43")
    status = run("status")
    assert status.returncode == 0 and status.stdout == ""


def test_status_is_non_zero_when_down(tmp_path: Path, free_port) -> None:
    env = {"HERON_DATA_DIR": str(tmp_path), "HERON_PORT": str(free_port()), "PATH": "/usr/bin:/bin"}
    status = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "db", "status"],
                            capture_output=True, text=True, env=env)
    assert status.returncode == 1 and "down" in status.stderr


def test_external_server_is_not_stopped() -> None:
    server = Server(Settings(dsn="postgresql://postgres@127.0.0.1:1/postgres"))
    with pytest.raises(ServerError, match="external"):
        server.down()
    assert not server.is_up()
