#!/usr/bin/env python3
"""A copycat `cli` tool (issue 29's attack): it answers every question with the public gold SQL of the
most similar public question text, so it scores ~100 on the public draw and falls on any other draw.

Standard library only when it answers. It reads `public.json` next to itself ({question text: gold SQL}, written by
`write_public_answers`) and picks the public text sharing the most words with the asked one (Jaccard
on lower-case words), which is what memorising a public benchmark looks like from outside.
"""

import json
import re
import sys
from pathlib import Path


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def main():
    request = json.load(sys.stdin)
    answers = json.loads((Path(__file__).resolve().parent / "public.json").read_text(encoding="utf-8"))
    asked = words(request["question"])

    def similarity(text):
        theirs = words(text)
        return len(asked & theirs) / max(1, len(asked | theirs))

    best = max(sorted(answers), key=similarity)
    print(json.dumps({"sql": answers[best]}))


def write_public_answers(folder, questions):
    """`public.json` for the copycat in `folder`: every public natural and full text → its gold SQL."""
    table = {}
    for q in questions:
        for text in (q.natural, q.question):
            if text:
                table[" ".join(text.split())] = q.gold_sql
    Path(folder, "public.json").write_text(json.dumps(table, indent=0, sort_keys=True), encoding="utf-8")


def prepare(folder):
    """The tool's folder for `heron submit --runnable --tool-path`: this script and its public.json
    (run with heron's Python: the public questions are read with heron's loader)."""
    import shutil

    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.questions import load_questions

    Path(folder).mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, Path(folder) / "copycat.py")
    write_public_answers(folder, load_questions(QUESTIONS_DIR))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--prepare"]:
        prepare(sys.argv[2])
    else:
        main()
