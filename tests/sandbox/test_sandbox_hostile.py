"""The hostile corpus, run through ``run_prediction`` with the parser layer on and again with it off.

Each case must fail with its expected class; after each case an ordinary query must still run (one
prediction never breaks the next); after each pass the database's fingerprint, the cluster's roles,
the ``public`` schema and the large objects are exactly as before, and the server still answers.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from heron_pipeline.database.fingerprint import fingerprint_database
from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.errors import SandboxError
from heron_pipeline.sandbox.execute import Sandbox, run_prediction


def _expand(sql: str) -> str:
    """The parse bombs are written short in the YAML and grown here past the parser's bounds."""
    return (sql.replace("{in_list}", ",0" * 30_000).replace("{open}", "(" * 200).replace("{close}", ")" * 200)
            .replace("{nots}", "NOT NOT " * 1_000))


CORPUS = [dict(case, sql=_expand(case["sql"]))
          for case in yaml.safe_load((Path(__file__).parent / "hostile_corpus.yaml").read_text())]
CATEGORIES = {"ddl", "dml", "multi-statement", "data-modifying-cte", "copy", "file-read", "role-and-settings",
              "locks", "sleep", "cartesian", "explain", "do-block", "prepare-execute",
              # issue 11
              "unicode-escape", "string-tricks", "comments", "side-effects", "resource-exhaustion"}
PWNED = Path("/tmp/heron_sandbox_pwned")


def _classes(value: str | list[str]) -> set[str]:
    return {value} if isinstance(value, str) else set(value)


def _side_state(server: Server, database: str) -> tuple:
    """What the fingerprint does not cover but hostile SQL might touch: roles, public, large objects."""
    with server.connect(database) as conn:
        roles = conn.execute("SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolcanlogin, rolbypassrls, "
                             "rolconfig FROM pg_roles ORDER BY 1").fetchall()
        members = conn.execute("SELECT roleid::regrole::text, member::regrole::text FROM pg_auth_members "
                               "ORDER BY 1, 2").fetchall()
        public = conn.execute("SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace").fetchone()
        objects = conn.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone()
        prepared = conn.execute("SELECT count(*) FROM pg_prepared_xacts").fetchone()
    return roles, members, public, objects, prepared


def test_the_corpus_is_big_and_covers_every_category() -> None:
    assert len(CORPUS) >= 100
    assert len({case["name"] for case in CORPUS}) == len(CORPUS)
    assert CATEGORIES <= {case["category"] for case in CORPUS}
    assert all("ok" not in _classes(case["without_parser"]) | _classes(case["with_parser"]) for case in CORPUS)


@pytest.mark.parametrize("parser", [True, False], ids=["parser-on", "parser-off"])
def test_hostile_corpus_leaves_the_database_unchanged(server: Server, seeded: str, sandbox: Sandbox,
                                                      parser: bool) -> None:
    before = fingerprint_database(server.dsn(seeded)).digest
    side_before = _side_state(server, seeded)
    PWNED.unlink(missing_ok=True)
    wrong: list[str] = []
    for case in CORPUS:
        expected = _classes(case["with_parser"] if parser else case["without_parser"])
        try:
            result = run_prediction(case["sql"], dsn=sandbox.dsn, limits=sandbox.limits, parser=parser)
            got, line = "ok", f"ok: {len(result.rows)} rows"
        except SandboxError as err:
            got, line = err.kind, err.line()
        if got not in expected:
            wrong.append(f"{case['name']}: expected {sorted(expected)}, got {line}")
        # The next prediction runs normally whatever the previous one did.
        follow_up = run_prediction("SELECT count(*) FROM tenancy.tenants", dsn=sandbox.dsn, limits=sandbox.limits,
                                   parser=parser)
        assert follow_up.rows[0][0] > 0, case["name"]
    assert not wrong, "\n".join(wrong)
    assert not PWNED.exists() and not os.path.exists("/tmp/heron_sandbox_pwned")
    assert server.is_up()
    with server.connect(seeded) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert _side_state(server, seeded) == side_before
    assert fingerprint_database(server.dsn(seeded)).digest == before


def _parser_refuses(case: dict) -> bool:
    return _classes(case["with_parser"]) == {"rejected"} and not case.get("parser_accepts")


PARSER_REFUSED = [c for c in CORPUS if _parser_refuses(c)]
PARSER_LIMITED = [c for c in CORPUS if c.get("parser_limit")]
PARSER_ACCEPTED = [c for c in CORPUS if not _parser_refuses(c) and not c.get("parser_limit")]


@pytest.mark.parametrize("case", PARSER_LIMITED, ids=[c["name"] for c in PARSER_LIMITED])
def test_inputs_over_the_parser_bounds_are_a_limit_before_any_connection(case: dict) -> None:
    from heron_pipeline.sandbox.errors import LimitExceeded

    with pytest.raises(LimitExceeded):
        run_prediction(case["sql"], dsn="host=127.0.0.1 port=1 user=nobody dbname=none connect_timeout=1")


@pytest.mark.parametrize("case", PARSER_REFUSED, ids=[c["name"] for c in PARSER_REFUSED])
def test_each_hostile_case_is_refused_by_the_parser_before_any_connection(case: dict) -> None:
    """With the parser on, every case the parser can judge fails without touching a server."""
    from heron_pipeline.sandbox.errors import Rejected

    with pytest.raises(Rejected):
        run_prediction(case["sql"], dsn="host=127.0.0.1 port=1 user=nobody dbname=none connect_timeout=1")


@pytest.mark.parametrize("case", PARSER_ACCEPTED, ids=[c["name"] for c in PARSER_ACCEPTED])
def test_valid_read_only_hostile_queries_pass_the_parser_and_are_stopped_below_it(case: dict) -> None:
    """A well-formed read-only query (a cartesian explosion, a read of a catalog the role cannot
    see) is not the parser's to refuse: it must pass `check_sql`, so the corpus run above proves
    the role, the server-side limits and the fetch caps stop it on their own."""
    from heron_pipeline.sandbox.guard import check_sql

    assert check_sql(case["sql"]).kind in {"select", "union", "intersect", "except", "subquery", "values"}
    assert _classes(case["without_parser"]) & {"rejected", "timeout", "limit"}
