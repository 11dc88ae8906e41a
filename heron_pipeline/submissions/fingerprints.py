"""The expected fingerprints of the public states, committed as ``submissions/expected_fingerprints.json``.

Verification checks every public state it builds against this file, so a submission is always
judged on exactly the data everyone else was judged on; a generator change that alters a state
shows up as heron's failure (exit 4), not as a silently different board. The file is written
from finished states by ``make submissions`` (``python -m heron_pipeline.submissions.fingerprints``)
and never by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from heron_pipeline.submissions.verify import EXPECTED_FINGERPRINTS


def expected_document(server: Any, artifacts: Path, states: dict[str, list[int]]) -> dict[str, Any]:
    """{"generator_version", "states": {scale: {seed: fingerprint}}} of the finished states."""
    from heron_pipeline.bench.states import existing_state

    out: dict[str, dict[str, str]] = {}
    versions = set()
    for scale, seeds in sorted(states.items()):
        for seed in sorted(seeds):
            state = existing_state(server, artifacts, scale, seed)
            out.setdefault(scale, {})[str(seed)] = state.fingerprint
            versions.add(state.generator_version)
    return {"comment": "fingerprints of the public states; regenerate with `make submissions`",
            "generator_version": sorted(versions), "states": out}


def write_expected(server: Any, artifacts: Path, states: dict[str, list[int]],
                   path: Path = EXPECTED_FINGERPRINTS) -> Path:
    """Merge the given states' fingerprints into ``path`` (other scales kept)."""
    try:
        current = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        current = {"states": {}}
    new = expected_document(server, artifacts, states)
    merged = {**current.get("states", {}), **new["states"]}
    doc = {"comment": new["comment"], "generator_version": sorted(set(current.get("generator_version", []))
                                                                  | set(new["generator_version"])),
           "states": {s: merged[s] for s in sorted(merged)}}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return Path(path)


def main(argv: list[str] | None = None) -> int:
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.server import Server

    parser = argparse.ArgumentParser(prog="python -m heron_pipeline.submissions.fingerprints")
    parser.add_argument("--state", action="append", required=True, metavar="SCALE:SEEDS",
                        help="e.g. small:42,43,44 (repeatable)")
    args = parser.parse_args(argv)
    states: dict[str, list[int]] = {}
    for item in args.state:
        scale, _, seeds = item.partition(":")
        states[scale] = [int(s) for s in seeds.split(",") if s.strip()]
    settings = load_settings()
    server = Server(settings)
    server.up()
    try:
        path = write_expected(server, settings.artifacts, states)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
