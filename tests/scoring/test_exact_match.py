"""Spider-style exact set match: clause sets over normalised ASTs, literals ignored."""

from __future__ import annotations

import pytest

from heron_pipeline.scoring import exact_set_match
from heron_pipeline.scoring.exact_match import EMSchema

CASES = [
    ("identical", "SELECT a FROM t", "SELECT a FROM t", True),
    ("literal values ignored", "SELECT a FROM t WHERE b = 1", "SELECT a FROM t WHERE b = 2", True),
    ("string literals ignored", "SELECT a FROM t WHERE s = 'x'", "SELECT a FROM t WHERE s = 'y'", True),
    ("operator matters", "SELECT a FROM t WHERE b > 1", "SELECT a FROM t WHERE b < 1", False),
    ("select items are a multiset", "SELECT a, b FROM t", "SELECT b, a FROM t", True),
    ("select multiplicity matters", "SELECT a, a FROM t", "SELECT a FROM t", False),
    ("aliases resolved", "SELECT T1.name FROM singer AS T1", "SELECT singer.name FROM singer", True),
    ("unqualified in one-table scope", "SELECT name FROM singer", "SELECT s.name FROM singer s", True),
    ("case-insensitive identifiers", "SELECT Name FROM Singer", "select name from singer", True),
    ("where conjuncts are a set", "SELECT a FROM t WHERE x = 1 AND y = 2", "SELECT a FROM t WHERE y = 5 AND x = 3", True),
    # Spider's rule: WHERE leaf conditions are a multiset, and the set of AND/OR connectives must agree
    ("and vs or differ", "SELECT a FROM t WHERE x = 1 OR y = 2", "SELECT a FROM t WHERE y = 1 AND x = 2", False),
    ("or: two conditions are not one", "SELECT t.name FROM pets AS t WHERE t.pettype = 'cat' OR t.pettype = 'dog'",
     "SELECT t.name FROM pets AS t WHERE t.pettype = 'x'", False),
    ("or: same conditions, any order", "SELECT a FROM t WHERE x = 1 OR y = 2", "SELECT a FROM t WHERE y = 3 OR x = 4", True),
    ("repeated condition counts", "SELECT a FROM t WHERE x = 1 AND x = 2", "SELECT a FROM t WHERE x = 1", False),
    ("mixed connectives as a set, parentheses dropped", "SELECT a FROM t WHERE x = 1 AND (y = 2 OR z = 3)",
     "SELECT a FROM t WHERE (z = 1 OR x = 2) AND y = 3", True),
    ("mixed vs and only", "SELECT a FROM t WHERE x = 1 AND (y = 2 OR z = 3)", "SELECT a FROM t WHERE x = 1 AND y = 2 AND z = 3", False),
    ("where condition missing", "SELECT a FROM t WHERE x = 1 AND y = 2", "SELECT a FROM t WHERE x = 1", False),
    ("group by is a set", "SELECT count(*) FROM t GROUP BY a, b", "SELECT count(*) FROM t GROUP BY b, a", True),
    ("having compared", "SELECT a FROM t GROUP BY a HAVING count(*) > 1", "SELECT a FROM t GROUP BY a HAVING sum(b) > 1", False),
    ("order direction matters", "SELECT a FROM t ORDER BY a DESC", "SELECT a FROM t ORDER BY a", False),
    ("order list order matters", "SELECT a FROM t ORDER BY a, b", "SELECT a FROM t ORDER BY b, a", False),
    ("order by alias = expression", "SELECT count(*) AS n FROM t GROUP BY a ORDER BY n", "SELECT count(*) FROM t GROUP BY a ORDER BY count(*)", True),
    ("limit value ignored", "SELECT a FROM t ORDER BY a LIMIT 3", "SELECT a FROM t ORDER BY a LIMIT 10", True),
    ("limit presence matters", "SELECT a FROM t LIMIT 3", "SELECT a FROM t", False),
    ("distinct ignored", "SELECT DISTINCT a FROM t", "SELECT a FROM t", True),
    ("join order and ON ignored", "SELECT t.a FROM t JOIN u ON t.id = u.id", "SELECT x.a FROM u AS y JOIN t AS x ON x.id = y.tid", True),
    ("different table", "SELECT a FROM t", "SELECT a FROM u", False),
    ("set operation kind", "SELECT a FROM t UNION SELECT a FROM u", "SELECT a FROM t INTERSECT SELECT a FROM u", False),
    ("set operation recursive", "SELECT a FROM t WHERE x = 1 EXCEPT SELECT a FROM u", "SELECT a FROM t WHERE x = 9 EXCEPT SELECT a FROM u", True),
    ("subquery compared recursively", "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE c = 1 AND d = 2)", "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE d = 3 AND c = 1)", True),
    ("subquery differs", "SELECT a FROM t WHERE a IN (SELECT b FROM u)", "SELECT a FROM t WHERE a IN (SELECT c FROM u)", False),
    ("from subquery", "SELECT s.a FROM (SELECT a FROM t WHERE x = 1) AS s", "SELECT q.a FROM (SELECT a FROM t WHERE x = 2) AS q", True),
    ("unparsable gold", "SELEC a FROM", "SELECT a FROM t", False),
    ("unparsable prediction", "SELECT a FROM t", "SELECT FROM WHERE (", False),
    # Spider's evaluation.py, followed (each pinned by a pair of its evaluation_examples)
    ("aggregate DISTINCT ignored (DISABLE_DISTINCT)", "SELECT count(DISTINCT pettype) FROM pets",
     "select count(PetType) from Pets", True),
    ("a column right of a comparison is a value", "SELECT a FROM t WHERE b != c", "SELECT a FROM t WHERE b != 5", True),
    ("a subquery right of a comparison is compared", "SELECT a FROM t WHERE b > (SELECT avg(b) FROM t)",
     "SELECT a FROM t WHERE b > (SELECT max(b) FROM t)", False),
    ("clauses out of order never match", "SELECT city FROM e WHERE age < 30 GROUP BY city",
     "select city from e group by city where age < 30", False),
    ("clauses in order inside a subquery", "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE c = 1 GROUP BY b)",
     "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE c = 2 GROUP BY b)", True),
    ("OFFSET may precede LIMIT", "SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 2", "SELECT a FROM t ORDER BY a OFFSET 2 LIMIT 1", True),
]

#: Spider-like schema: stadium 1-n concert through stadium_id (the pair of concert_singer).
SCHEMA = EMSchema.build({"stadium": ["stadium_id", "name", "capacity"], "concert": ["concert_id", "stadium_id", "year"]},
                        [(("concert", "stadium_id"), ("stadium", "stadium_id"))])

SCHEMA_CASES = [
    ("foreign-key columns are one column", "SELECT count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = "
     "T2.stadium_id GROUP BY T2.stadium_id", "SELECT count(*) FROM concert JOIN stadium ON concert.stadium_id = "
     "stadium.stadium_id GROUP BY concert.stadium_id", True),
    ("unqualified column found in its table", "SELECT name FROM concert JOIN stadium ON concert.stadium_id = "
     "stadium.stadium_id", "SELECT s.name FROM concert AS c JOIN stadium AS s ON c.stadium_id = s.stadium_id", True),
    ("other columns stay apart", "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT T2.capacity FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id", False),
    ("no merge for a table outside the FROM", "SELECT stadium_id FROM concert", "SELECT stadium_id FROM stadium", False),
]


@pytest.mark.parametrize(("gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_exact_set_match(gold, pred, expected):
    assert exact_set_match(gold, pred) is expected


@pytest.mark.parametrize(("gold", "pred", "expected"), [c[1:] for c in SCHEMA_CASES], ids=[c[0] for c in SCHEMA_CASES])
def test_exact_set_match_with_a_schema(gold, pred, expected):
    assert exact_set_match(gold, pred, schema=SCHEMA) is expected


def test_without_a_schema_foreign_key_columns_stay_apart():
    gold, pred = SCHEMA_CASES[0][1:3]
    assert exact_set_match(gold, pred) is False


def test_subquery_digest_does_not_depend_on_the_hash_seed():
    """A subquery's digest is hashed from its signature's repr, which must be the same in
    every process: sets there would print in PYTHONHASHSEED order (a CI-only failure)."""
    import os
    import subprocess
    import sys

    code = (
        "from heron_pipeline.scoring.exact_match import _signature, _digest; import sqlglot;"
        "print(_digest(_signature(sqlglot.parse_one("
        "'SELECT b FROM u WHERE c = 1 AND d = 2 AND e = 3 GROUP BY x, y, z', read='postgres'))))"
    )
    digests = {
        subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                       capture_output=True, text=True, check=True).stdout
        for seed in range(6)
    }
    assert len(digests) == 1
