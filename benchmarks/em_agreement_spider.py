"""Agreement of heron's exact set match with Spider's own evaluation code, pair by pair.

Usage:
    python benchmarks/em_agreement_spider.py --spider-dir DIR [--spider-python PY] [--show N]

DIR is a copy of Spider's evaluation code kept wherever the user keeps it (never in this
repository): `evaluation.py`, `process_sql.py`, `evaluation_examples/gold_example.txt`,
`evaluation_examples/pred_example.txt` and `evaluation_examples/examples/tables.json`, as in
github.com/taoyds/spider. Spider's verdicts are computed by Spider's functions (`get_sql`,
`rebuild_sql_val`, `rebuild_sql_col`, `build_foreign_key_map`, `Evaluator.eval_exact_match`) in a
separate interpreter, PY, which needs `nltk` (heron does not depend on it); the sentence splitter,
which needs a download, is bypassed (`preserve_line=True`): Spider tokenizes one query at a time.

The agreement is reported over the pairs that are valid PostgreSQL: both queries parse with sqlglot's
postgres dialect and neither uses a double-quoted string — SQLite reads `"USA"` as a string,
PostgreSQL as an identifier (a double-quoted token that names a table or column of the schema is an
identifier in both and is kept). Each disagreement is put in one class, first match wins.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heron_pipeline.scoring.exact_match import EMSchema, exact_set_match  # noqa: E402

# Runs in Spider's interpreter: reads the pairs and prints Spider's verdict of each as JSON
# (true/false; null when Spider cannot parse the gold). Written for this script, calling only
# Spider's public functions, in the order its `evaluate` applies them.
_SPIDER_DRIVER = r"""
import json, sys
spider_dir = sys.argv[1]
sys.path.insert(0, spider_dir)
import nltk
import process_sql
process_sql.word_tokenize = lambda text: nltk.tokenize.word_tokenize(text, preserve_line=True)
import evaluation as ev
examples = spider_dir + "/evaluation_examples/"
with open(examples + "examples/tables.json") as f:
    entries = {e["db_id"]: e for e in json.load(f)}
schemas = {}
for db_id, e in entries.items():
    tables = {}
    for table_index, column in e["column_names_original"]:
        if table_index >= 0:
            tables.setdefault(e["table_names_original"][table_index].lower(), []).append(column.lower())
    schemas[db_id] = ev.Schema(tables)
kmaps = {db_id: ev.build_foreign_key_map(e) for db_id, e in entries.items()}
golds = [l.rstrip("\n").split("\t") for l in open(examples + "gold_example.txt") if l.strip()]
preds = [l.rstrip("\n").split("\t")[0] for l in open(examples + "pred_example.txt") if l.strip()]
empty = {"except": None, "from": {"conds": [], "table_units": []}, "groupBy": [], "having": [],
         "intersect": None, "limit": None, "orderBy": [], "select": [False, []], "union": None, "where": []}
verdicts = []
for pred, (gold, db_id) in zip(preds, golds):
    schema = schemas[db_id]
    try:
        g_sql = ev.get_sql(schema, gold)
    except Exception:
        verdicts.append(None)
        continue
    try:
        p_sql = ev.get_sql(schema, pred)
    except Exception:
        p_sql = json.loads(json.dumps(empty))
    kmap = kmaps[db_id]
    g_sql = ev.rebuild_sql_col(ev.build_valid_col_units(g_sql["from"]["table_units"], schema),
                               ev.rebuild_sql_val(g_sql), kmap)
    p_sql = ev.rebuild_sql_col(ev.build_valid_col_units(p_sql["from"]["table_units"], schema),
                               ev.rebuild_sql_val(p_sql), kmap)
    verdicts.append(bool(ev.Evaluator().eval_exact_match(p_sql, g_sql)))
print(json.dumps(verdicts))
"""


def spider_verdicts(spider_dir: Path, python: str) -> list[bool | None]:
    """Spider's exact-match verdict of every pair, computed by Spider's code in ``python``."""
    done = subprocess.run([python, "-c", _SPIDER_DRIVER, str(spider_dir)], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if "No module named 'nltk'" in done.stderr:
            raise SystemExit(f"--spider-python {python}: Spider's code needs nltk; "
                             f"`{python} -m pip install nltk` or name another interpreter")
        raise SystemExit(f"Spider's evaluation in {spider_dir} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def em_schemas(tables_json: Path) -> dict[str, EMSchema]:
    """heron's EM schema (columns per table, foreign keys) of every Spider database."""
    schemas = {}
    for entry in json.loads(tables_json.read_text()):
        names = [t.lower() for t in entry["table_names_original"]]
        columns = [(names[t], c.lower()) if t >= 0 else None for t, c in entry["column_names_original"]]
        tables: dict[str, list[str]] = {}
        for column in columns:
            if column is not None:
                tables.setdefault(column[0], []).append(column[1])
        keys = [(columns[a], columns[b]) for a, b in entry["foreign_keys"]]
        schemas[entry["db_id"]] = EMSchema.build(tables, keys)
    return schemas


def double_quoted_strings(sql: str, schema: EMSchema) -> bool:
    """Whether ``sql`` has a double-quoted token that names no table or column: a SQLite string."""
    import sqlglot
    from sqlglot.tokens import TokenType

    try:
        tokens = sqlglot.tokenize(sql, read="postgres")
    except Exception:  # noqa: BLE001 — an untokenizable query is not valid PostgreSQL either
        return True
    names = schema.names()
    return any(t.token_type == TokenType.IDENTIFIER and t.text.lower() not in names for t in tokens)


def parses(sql: str) -> bool:
    import sqlglot

    try:
        return sqlglot.parse_one(sql, read="postgres") is not None
    except Exception:  # noqa: BLE001
        return False


def disagreement_class(gold: str, pred: str, spider: bool, heron: bool) -> str:
    """One label per disagreement, for the report (first rule that applies)."""
    text = f"{gold} {pred}".lower()
    if "distinct" in text:
        return "distinct"
    if " join " in text and (spider and not heron):
        return "join / foreign-key columns"
    if any(op in text for op in (" like ", " in (", " not in ")):
        return "condition form"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spider-dir", type=Path, required=True, help="folder holding Spider's evaluation.py")
    parser.add_argument("--spider-python", default=sys.executable, help="interpreter with nltk for Spider's code")
    parser.add_argument("--show", type=int, default=0, help="print this many disagreements of each class")
    args = parser.parse_args()
    examples = args.spider_dir / "evaluation_examples"
    for needed in (args.spider_dir / "evaluation.py", examples / "gold_example.txt", examples / "pred_example.txt",
                   examples / "examples" / "tables.json"):
        if not needed.is_file():
            raise SystemExit(f"--spider-dir {args.spider_dir}: {needed} is missing; point it at a copy of "
                             "github.com/taoyds/spider")
    golds = [line.rstrip("\n").split("\t") for line in (examples / "gold_example.txt").open() if line.strip()]
    preds = [line.rstrip("\n").split("\t")[0] for line in (examples / "pred_example.txt").open() if line.strip()]
    schemas = em_schemas(examples / "examples" / "tables.json")
    spider = spider_verdicts(args.spider_dir, args.spider_python)

    agree_all = 0
    valid = agree = 0
    classes: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    for (gold, db_id), pred, theirs in zip(golds, preds, spider):
        schema = schemas[db_id]
        ours = exact_set_match(gold, pred, schema=schema)
        agree_all += theirs is not None and ours == theirs
        if theirs is None or not (parses(gold) and parses(pred)) or any(
                double_quoted_strings(q, schema) for q in (gold, pred)):
            continue
        valid += 1
        if ours == theirs:
            agree += 1
            continue
        label = disagreement_class(gold, pred, theirs, ours)
        classes[label] += 1
        shown.setdefault(label, []).append(f"  spider={theirs} heron={ours}\n    gold: {gold}\n    pred: {pred}")
    print(f"pairs: {len(golds)}; agreement on all pairs: {agree_all} ({100 * agree_all / len(golds):.1f} %)")
    print(f"valid PostgreSQL pairs: {valid}; agreement: {agree} ({100 * agree / valid:.1f} %)")
    for label, count in classes.most_common():
        print(f"  disagreements, {label}: {count}")
        for line in shown[label][:args.show]:
            print(line)


if __name__ == "__main__":
    main()
