"""heron's YAML inputs (questions, slots, training pairs, vocabulary, data profiles) read with libyaml.

PyYAML's pure-Python scanner took 0.55 s for heron's YAML inputs, and nearly every heron process reads
them again: each CLI call, each Dagster run and step, each test that starts one. libyaml, which PyYAML's
wheels bundle, reads them in 0.064 s into the same documents (``benchmarks/bench_yaml_inputs.py`` checks
both on every input file). The rules are PyYAML's ``SafeLoader``'s either way (YAML 1.1, no Python objects); an
install without libyaml falls back on that loader. Its errors are ``yaml.YAMLError`` as before.
"""

from __future__ import annotations

from typing import Any

import yaml

#: libyaml's safe loader when PyYAML was built with it, else the pure-Python one (same rules).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """The document of ``text`` as ``yaml.safe_load`` reads it."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a safe loader, chosen above
