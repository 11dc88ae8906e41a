#!/usr/bin/env python3
"""A worked example of an external tool for heron's ``cli`` adapter (standard library only).

It reads the one JSON request heron writes on stdin, ranks the schema file's tables by the question's
words found in their names (weight 5) and in their columns and comments (weight 1), and answers with a JSON object:
a (naive) count over the best table, the ranked tables, and zero tokens (it calls no model).
Replace the ranking and the SQL with your tool; keep the protocol (examples/cli/README.md).

    HERON_CLI_COMMAND="python examples/cli/keyword_tool.py" HERON_CLI_NAME=keyword heron bench --tools cli
"""

import json
import re
import sys


def words(text):
    return {w for w in re.split(r"[^a-z0-9]+", (text or "").lower()) if len(w) > 2}


def main():
    request = json.load(sys.stdin)
    with open(request["schema"], encoding="utf-8") as handle:
        schema = json.load(handle)
    asked = words(request["question"])
    scored = []
    for table in schema["tables"]:
        name = words(table["name"].replace("_", " ").replace(".", " "))
        text = " ".join([table.get("comment") or "",
                         *(c["name"].replace("_", " ") + " " + (c.get("comment") or "") for c in table["columns"])])
        scored.append((-(5 * len(asked & name) + len(asked & words(text))), table["name"]))
    ranked = [name for _, name in sorted(scored)[:10]]
    print(json.dumps({"sql": f"SELECT count(*) AS n FROM {ranked[0]}", "retrieved_tables": ranked,
                      "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}))


if __name__ == "__main__":
    main()
