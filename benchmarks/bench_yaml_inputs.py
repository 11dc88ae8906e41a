"""Reading heron's YAML inputs with libyaml (``heron_pipeline.yaml_text``) against PyYAML's pure-Python loader.

Every YAML input heron reads (``questions/``: questions, slots, training pairs, conventions;
``schema_ddl/``: the data profiles) is read with both loaders, alternating, best of ``--repeats``; the documents must be equal. Nearly
every heron process reads the question and profile files, so the difference is paid once per CLI call,
Dagster run and step.

Run: .venv/bin/python benchmarks/bench_yaml_inputs.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heron_pipeline.yaml_text import SAFE_LOADER  # noqa: E402


def yaml_files() -> list[Path]:
    return sorted(p for folder in ("questions", "schema_ddl") for p in (ROOT / folder).rglob("*.y*ml"))


def read_all(texts: list[str], loader) -> tuple[float, list]:
    started = time.perf_counter()
    docs = [yaml.load(t, Loader=loader) for t in texts]  # noqa: S506 - both loaders are safe loaders
    return time.perf_counter() - started, docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in yaml_files()]
    pure, fast = [], []
    for _ in range(args.repeats):
        seconds, pure_docs = read_all(texts, yaml.SafeLoader)
        pure.append(seconds)
        seconds, fast_docs = read_all(texts, SAFE_LOADER)
        fast.append(seconds)
        assert fast_docs == pure_docs, "the two loaders read a file differently"
    print(f"{len(texts)} YAML files, {sum(map(len, texts)) // 1024} KB; loader {SAFE_LOADER.__name__}")
    print(f"pure-Python SafeLoader  best {min(pure):.3f} s")
    print(f"heron's loader          best {min(fast):.3f} s   ratio {min(fast) / min(pure):.2f}")


if __name__ == "__main__":
    main()
