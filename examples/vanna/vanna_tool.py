#!/usr/bin/env python3
"""The real ``vanna`` package (2.0.2, its classic ``VannaBase`` API) as a heron ``cli`` tool, offline.

Vanna is a RAG text-to-SQL library: it stores DDL, documentation and question → SQL pairs in a
vector store, retrieves the related ones for a question and prompts an LLM. Two parts are swapped
so that it runs with no network beyond an OpenAI-compatible endpoint:

- the LLM: Vanna's own ``OpenAI_Chat``, given an ``openai.OpenAI`` client pointed at
  ``VANNA_BASE_URL`` (any OpenAI-compatible server: vLLM, llama.cpp, Ollama, a proxy);
- the vector store: ``KeywordStore`` below, a Vanna store subclass ranking by word overlap, because
  Vanna's bundled stores either call a hosted service or embed with a model downloaded at run time
  (ChromaDB's default ONNX model), which an offline machine cannot fetch.

Each call trains a fresh store from heron's request (the schema file's tables as DDL, the
conventions note, pinned to every prompt, and the table comments as documentation) and asks ``generate_sql``. Vanna prints its
prompt and logs on stdout; they go to stderr here, so stdout carries only the JSON answer.

    python -m venv .vanna && .vanna/bin/pip install -r examples/vanna/requirements.txt
    HERON_CLI_COMMAND=".vanna/bin/python examples/vanna/vanna_tool.py" HERON_CLI_NAME=vanna \\
    HERON_CLI_PASS_ENV=VANNA_BASE_URL,VANNA_MODEL,VANNA_API_KEY heron bench --tools cli
"""

import contextlib
import json
import os
import re
import sys

from openai import OpenAI
from vanna.legacy.base import VannaBase
from vanna.legacy.openai import OpenAI_Chat


def _words(text):
    return {w for w in re.split(r"[^a-z0-9]+", (text or "").lower()) if len(w) > 2}


class KeywordStore(VannaBase):
    """An in-memory Vanna store: entries ranked by the words they share with the question."""

    def __init__(self, config=None):
        self.entries = {"ddl": [], "documentation": [], "sql": []}
        self.pinned = []  # documentation every prompt carries (heron's conventions note)

    def _top(self, kind, question, k):
        asked = _words(question)
        scored = sorted(((-len(asked & _words(text)), i) for i, (text, _) in enumerate(self.entries[kind])))
        return [self.entries[kind][i][1] for score, i in scored[:k] if score < 0]

    def generate_embedding(self, data, **kwargs):
        return []  # no embeddings: ranking is lexical

    def add_ddl(self, ddl, **kwargs):
        self.entries["ddl"].append((ddl, ddl))
        return str(len(self.entries["ddl"]))

    def add_documentation(self, documentation, **kwargs):
        self.entries["documentation"].append((documentation, documentation))
        return str(len(self.entries["documentation"]))

    def add_question_sql(self, question, sql, **kwargs):
        self.entries["sql"].append((question, {"question": question, "sql": sql}))
        return str(len(self.entries["sql"]))

    def get_related_ddl(self, question, **kwargs):
        return self._top("ddl", question, 10)

    def get_related_documentation(self, question, **kwargs):
        return [*self.pinned, *self._top("documentation", question, 10)]

    def get_similar_question_sql(self, question, **kwargs):
        return self._top("sql", question, 5)

    def get_training_data(self, **kwargs):
        raise NotImplementedError

    def remove_training_data(self, id, **kwargs):
        return False


class HeronVanna(KeywordStore, OpenAI_Chat):
    def __init__(self, client, config):
        KeywordStore.__init__(self, config=config)
        OpenAI_Chat.__init__(self, client=client, config=config)


def ddl_of(table):
    columns = [f"  {c['name']} {c['type']}{'' if c['nullable'] else ' NOT NULL'}"
               + (f" -- {' '.join(c['comment'].split())}" if c.get("comment") else "") for c in table["columns"]]
    return f"CREATE TABLE {table['name']} (\n" + ",\n".join(columns) + "\n);"


def main():
    request = json.load(sys.stdin)
    with open(request["schema"], encoding="utf-8") as handle:
        schema = json.load(handle)
    client = OpenAI(base_url=os.environ["VANNA_BASE_URL"], api_key=os.environ.get("VANNA_API_KEY", "not-needed"),
                    max_retries=2)
    vn = HeronVanna(client, {"model": os.environ["VANNA_MODEL"], "temperature": 0, "dialect": "PostgreSQL"})
    with contextlib.redirect_stdout(sys.stderr):
        vn.pinned.append(request["conventions"])
        for table in schema["tables"]:
            vn.add_ddl(ddl_of(table))
            if table.get("comment"):
                vn.add_documentation(f"{table['name']}: {' '.join(table['comment'].split())}")
        related = vn.get_related_ddl(request["question"])
        sql = vn.generate_sql(request["question"])
    tables = [re.match(r"CREATE TABLE (\S+)", ddl).group(1) for ddl in related]
    print(json.dumps({"sql": sql, "retrieved_tables": tables}))


if __name__ == "__main__":
    main()
