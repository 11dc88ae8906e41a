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

CORPUS = yaml.safe_load((Path(__file__).parent / "hostile_corpus.yaml").read_text())
CATEGORIES = {"ddl", "dml", "multi-statement", "data-modifying-cte", "copy", "file-read", "role-and-settings",
              "locks", "sleep", "cartesian", "explain", "do-block", "prepare-execute"}
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
    assert len(CORPUS) >= 40
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


@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_each_hostile_case_is_refused_by_the_parser_before_any_connection(case: dict) -> None:
    """With the parser on, every case the parser can judge fails without touching a server."""
    from heron_pipeline.sandbox.errors import Rejected

    if _classes(case["with_parser"]) != {"rejected"} or case.get("parser_accepts"):
        pytest.skip("a valid read-only query: stopped by the role or the server-side limits, not the parser")
    with pytest.raises(Rejected):
        run_prediction(case["sql"], dsn="host=127.0.0.1 port=1 user=nobody dbname=none connect_timeout=1")
