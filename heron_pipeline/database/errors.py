"""PostgreSQL failures told in one line a user can act on.

psycopg's messages are written for libpq's users: several lines, the same hint whatever the
cause, and no word of which setting named the server. heron's commands report a failure as one
line that says which address failed, why, and what to do, so the pieces live here: how to show a
DSN without its password, the reason part of a psycopg message, and whether an error means the
server went away (as opposed to a statement that failed).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

import psycopg

#: libpq's "connection to server at "host", port N failed: <reason>" (the reason is the part a
#: user acts on); psycopg prefixes it with "connection failed: ".
_LIBPQ_FAILED = re.compile(r'connection to server (?:at "[^"]*"(?: \([^)]*\))?, port \d+|on socket "[^"]*") failed: ')

#: SQLSTATEs of a server that is shutting down or restarting under the session (class 57P).
_GONE_SQLSTATES = {"57P01", "57P02", "57P03"}  # admin_shutdown, crash_shutdown, cannot_connect_now


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines, libpq's tab-indented hints) as one space."""
    return " ".join(text.split())


def redacted_dsn(dsn: str) -> str:
    """``dsn`` with its password replaced by ``***`` (URL or key=value form): messages name the
    server, never its secret."""
    if "://" in dsn:
        parts = urlsplit(dsn)
        if parts.password is None:
            return dsn
        netloc = f"{parts.username or ''}:***@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", dsn)


def failure_reason(err: BaseException) -> str:
    """The part of a psycopg error that says why, on one line, without libpq's boilerplate:
    ``Connection refused``, ``FATAL: database "x" does not exist``, ``server closed the
    connection unexpectedly``."""
    first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    first = first.removeprefix("connection failed: ")
    match = _LIBPQ_FAILED.search(first)
    if match:
        first = first[match.end():]
    for prefix in ("consuming input failed: ", "sending query failed: ", "sending query and params failed: "):
        first = first.removeprefix(prefix)
    return one_line(first)


def is_connection_lost(err: BaseException) -> bool:
    """True when ``err`` says the server went away under an open session (killed, restarted,
    shut down), as opposed to a statement that failed or a connection that was never made."""
    if not isinstance(err, psycopg.OperationalError):
        return False
    if getattr(err, "sqlstate", None) in _GONE_SQLSTATES:
        return True
    text = str(err).lower()
    return any(words in text for words in ("server closed the connection", "connection is lost",
                                           "terminating connection", "server conn crashed",
                                           "could not receive data from server", "no connection to the server"))


def is_connect_failure(err: BaseException) -> bool:
    """True when ``err`` is psycopg failing to open a connection at all (refused, unknown host,
    authentication, missing database)."""
    if not isinstance(err, psycopg.OperationalError):
        return False
    text = str(err)
    return text.startswith("connection failed") or text.startswith("failed to resolve host") \
        or text.startswith("connection timeout expired")
