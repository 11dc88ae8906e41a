"""Getting one SQL statement out of a model's free-text reply, or saying clearly that there is none.

Models wrap SQL in fences, prepend prose, append explanations or answer with several blocks. The
rules, in order: the last ```sql fenced block; else the last fenced block that starts like a query;
else the text from the first line starting with SELECT/WITH (or "(") to the end of that statement.
A trailing semicolon is dropped (the sandbox accepts one statement). Anything else is a garbage
reply, reported as an error rather than sent to the database as SQL.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
_QUERY_START = re.compile(r"^\s*(\(\s*)*(select|with|values|table)\b", re.IGNORECASE)
_LINE_START = re.compile(r"^[ \t]*(\(\s*)*(select|with)\b", re.IGNORECASE | re.MULTILINE)


class NoSQLFound(ValueError):
    """The reply contains nothing that looks like a query."""


def _clean(sql: str) -> str:
    sql = sql.strip()
    while sql.endswith(";"):
        sql = sql[:-1].rstrip()
    return sql


def extract_sql(reply: str | None) -> str:
    """The query in ``reply`` (see module docstring); NoSQLFound when there is none."""
    if not reply or not reply.strip():
        raise NoSQLFound("empty reply")
    fences = _FENCE.findall(reply)
    sql_fences = [body for lang, body in fences if lang.lower() in ("sql", "postgresql", "postgres", "psql")]
    for body in reversed(sql_fences):
        if _QUERY_START.match(body):
            return _clean(body)
    for _lang, body in reversed(fences):
        if _QUERY_START.match(body):
            return _clean(body)
    match = _LINE_START.search(reply)
    if match:
        rest = reply[match.start():]
        # the statement ends at the first semicolon or at a blank line followed by prose
        end = re.search(r";|\n\s*\n(?=\s*[A-Za-z][a-z]+[ ,:])", rest)
        return _clean(rest[: end.start()] if end else rest)
    raise NoSQLFound(f"no SQL in reply: {' '.join(reply.split())[:80]!r}")


_JSON_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)


def extract_json(reply: str | None) -> dict | None:
    """The first JSON object in ``reply`` (a ```json fence first, else the first ``{`` from which a
    whole object decodes), or None.

    For the intermediate steps of multi-step tools, where a model that ignores the format must
    lead to a recorded fallback, not a crash.
    """
    import json

    if not reply:
        return None
    decoder = json.JSONDecoder()
    for text in [*_JSON_FENCE.findall(reply), reply]:
        start = text.find("{")
        while start != -1:
            try:
                doc, _end = decoder.raw_decode(text, start)
            except ValueError:
                start = text.find("{", start + 1)
                continue
            if isinstance(doc, dict):
                return doc
            start = text.find("{", start + 1)
    return None
