"""A `cli` tool that answers with known-wrong SQL: each question's gold SQL, broken one way.

Which way depends on the question's position in its file set (``HERON_WRONG_QUESTIONS``, a folder
of question files), modulo 5: 0 a syntax error, 1 the soft-delete filters dropped, 2 the last
output column dropped, 3 the first table swapped for a look-alike of the same domain, 4 gold as is.
Used by tests/diagnosis and by hand (``HERON_CLI_COMMAND``); reads only sqlglot and PyYAML.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import sqlglot
import yaml
from sqlglot import exp

#: A plausible wrong table for a few tables the questions read (same domain, similar columns).
LOOK_ALIKES = {"billing.disputes": "billing.refunds", "billing.payment_attempts": "billing.payments",
               "orders.orders": "orders.quotes", "crm.contacts": "crm.leads", "support.cases": "comms.conversations",
               "tenancy.tenants": "tenancy.workspaces", "crm.accounts": "crm.leads"}


def without_soft_delete(tree: exp.Expression) -> exp.Expression:
    def drop(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null) \
                and isinstance(node.this, exp.Column) and node.this.name == "deleted_at":
            return exp.true()
        return node
    return tree.transform(drop)


def without_last_column(tree: exp.Expression) -> exp.Expression:
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is not None and len(select.expressions) > 1:
        select.set("expressions", select.expressions[:-1])
    return tree


def with_look_alike(tree: exp.Expression) -> exp.Expression:
    for table in tree.find_all(exp.Table):
        name = f"{table.db}.{table.name}".lower()
        if name in LOOK_ALIKES:
            schema, bare = LOOK_ALIKES[name].split(".")
            table.set("db", exp.to_identifier(schema))
            table.set("this", exp.to_identifier(bare))
            break
    return tree


def broken(index: int, gold_sql: str) -> str:
    way = index % 5
    if way == 0:
        return "SELEC " + gold_sql.strip()[len("SELECT"):] if gold_sql.lstrip().upper().startswith("SELECT") \
            else "SELEC 1"
    if way == 4:
        return gold_sql
    tree = sqlglot.parse_one(gold_sql, read="postgres")
    tree = (without_soft_delete, without_last_column, with_look_alike)[way - 1](tree)
    return tree.sql(dialect="postgres")


def main() -> None:
    request = json.load(sys.stdin)
    folder = Path(os.environ["HERON_WRONG_QUESTIONS"])
    questions = [q for path in sorted(folder.glob("*.yaml")) for q in yaml.safe_load(path.read_text()) or []]
    index = next(i for i, q in enumerate(questions) if q["id"] == request["id"])
    print(json.dumps({"sql": broken(index, questions[index]["gold_sql"])}))


if __name__ == "__main__":
    main()
