"""The embedded server's lifecycle, on a server of the test's own (never the user's)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import EmbeddedServer, ServerError, ephemeral_ports, process_alive
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
        with pytest.raises(ServerError, match=f"port {port} .* in use") as raised:
            server.up()
    assert not (pg_tmp / "pgdata" / "postmaster.pid").exists()
    # what the user can do: choose another port (both ways) or find who holds it
    message = str(raised.value)
    assert "HERON_PORT=" in message and "`port = <port>` in heron.toml" in message
    assert f"ss -tanp 'sport = :{port}'" in message
    ephemeral = ephemeral_ports()
    if ephemeral is not None and port in ephemeral:  # the kernel chose it, so it is in the range
        assert f"ephemeral range {ephemeral.start}-{ephemeral.stop - 1}" in message


def _zombie() -> subprocess.Popen:
    """A child that has exited and is not reaped yet: what a SIGKILLed, detached postmaster is
    until the process that reaps orphans gets to it."""
    child = subprocess.Popen(["true"])
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        assert time.monotonic() < deadline, "the child did not exit"
        time.sleep(0.01)
    return child


def test_a_zombie_is_not_a_running_process(tmp_path: Path) -> None:
    child = _zombie()
    try:
        os.kill(child.pid, 0)  # succeeds on a zombie: why the old check took it for a server
        assert process_alive(child.pid) is False
        assert process_alive(os.getpid()) is True
        pgdata = tmp_path / "pgdata"
        pgdata.mkdir()
        (pgdata / "postmaster.pid").write_text(f"{child.pid}\n{pgdata}\n0\n5432\n")
        assert EmbeddedServer(pgdata, 5432).running_pid() is None
    finally:
        child.wait()
    assert process_alive(child.pid) is False  # reaped: gone


def test_up_starts_a_server_whose_postmaster_is_a_zombie(pg_tmp: Path, free_port) -> None:
    """The restart after a SIGKILL (issue "Hardening II"): postmaster.pid still names the killed
    postmaster, a zombie for a second or two. ``up()`` must start a server, not wait 180 s for a
    port the zombie will never open; PostgreSQL itself refuses to start while that pid exists, so
    ``up()`` also waits for it to be reaped (here after 2 s, by this test)."""
    server = EmbeddedServer(pg_tmp / "pgdata", free_port())
    server.up()
    server.down()
    child = _zombie()
    (server.pgdata / "postmaster.pid").write_text(f"{child.pid}\n{server.pgdata}\n0\n{server.port}\n")
    reaper = threading.Timer(2.0, child.wait)
    reaper.start()
    outcome: list = []
    started = time.monotonic()
    runner = threading.Thread(target=lambda: outcome.append(server.up()), daemon=True)
    runner.start()
    try:
        runner.join(timeout=90)
        assert not runner.is_alive(), "up() waited for a zombie postmaster to open its port"
        assert outcome == [True] and server.is_up()
        assert time.monotonic() - started < 60
    finally:
        reaper.join()
        if not runner.is_alive():
            server.down()


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
