"""Every artifact kind, its pattern, and the paths heron has always used (committed keys must not move)."""

from __future__ import annotations

import hashlib
import inspect
import re
from pathlib import Path

import pytest

from heron_pipeline.artifacts import KINDS, ArtifactLayout, write_content_addressed, write_jsonl_artifact
from heron_pipeline.artifacts.layout import label_key, llm_cache_entry

ROOT = Path("/data/artifacts")
DIGEST = hashlib.sha256(b"x").hexdigest()
KEY = hashlib.sha256(b"k").hexdigest()

#: An example value for every field a pattern may hold.
EXAMPLE = {"scale": "small", "seed": 43, "tool": "raw-llm", "mode": "natural", "digest": DIGEST, "key": KEY,
           "suffix": "csv", "label": "gen v7 ddl 1a2b", "label_key": label_key("gen v7 ddl 1a2b"),
           "prefix": KEY[:2], "build_oid": 16384}

#: Hex fields are checked by shape; the others must equal the example.
SHAPES = {"digest": "[0-9a-f]{64}", "key": "[0-9a-f]{64}", "label_key": "[0-9a-f]{32}", "prefix": "[0-9a-f]{2}",
          "build_oid": "[0-9]+"}


def pattern_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"({\w+})", pattern)
    out = []
    for part in parts:
        name = part[1:-1] if part.startswith("{") else None
        out.append(f"(?P<{name}>{SHAPES.get(name, '[^/]+')})" if name else re.escape(part))
    return re.compile("".join(out))


def matches(kind_pattern: str, relative: str) -> bool:
    found = pattern_regex(kind_pattern).fullmatch(relative)
    return found is not None and all(value == str(EXAMPLE[name]) for name, value in found.groupdict().items()
                                     if name not in SHAPES)


def test_kind_names_are_unique_and_every_field_has_an_example() -> None:
    assert len({k.name for k in KINDS}) == len(KINDS)
    assert {f for k in KINDS for f in k.fields} <= set(EXAMPLE)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_every_kind_has_its_method_and_the_method_follows_the_pattern(kind) -> None:
    layout = ArtifactLayout(ROOT)
    full = layout.path(kind.name, **{f: EXAMPLE[f] for f in kind.fields})
    assert matches(kind.pattern, full.relative_to(ROOT).as_posix()), full
    method = getattr(layout, kind.name)
    given = method(**{name: EXAMPLE[name] for name in inspect.signature(method).parameters})
    # a file of the kind, or the folder its writer names the file in
    assert given == full or given in full.parents, (given, full)
    assert ROOT in given.parents


#: The paths the steps wrote before the layout existed, spelled out by hand: none may move (verdict
#: keys, committed manifests and every earlier run's refs name them).
OLD_PATHS = [
    (lambda l: l.state_fingerprint("small", 43, "gen v7 ddl 1a2b"),
     f"states/small_43/{hashlib.sha256(b'gen v7 ddl 1a2b').hexdigest()[:32]}.json"),
    (lambda l: l.gold("small", 43), "gold/small_43"),
    (lambda l: l.audits("small"), "audits/small"),
    (lambda l: l.audit_pointer("small", KEY), f"audits/small/{KEY}.ref.json"),
    (lambda l: l.predictions("raw-llm", "small", "natural"), "predictions/raw-llm/small/natural"),
    (lambda l: l.submission_predictions("small", "full"), "submissions/predictions/small/full"),
    (lambda l: l.scores("gold", "tiny", 42, "full"), "scores/gold/tiny_42/full"),
    (lambda l: l.standings("tiny", "natural"), "standings/tiny/natural"),
    (lambda l: l.results(), "results"),
    (lambda l: l.leaderboard("json"), "results/leaderboard.json"),
    (lambda l: l.boards_index(), "results/boards.json"),
    (lambda l: l.runs(), "runs"),
    (lambda l: l.verdict(KEY), f"verdicts/{KEY}.json"),
    (lambda l: l.dumps(), "dumps"),
    (lambda l: l.llm_cache(), "llm_cache"),
]


@pytest.mark.parametrize("path, expected", OLD_PATHS, ids=[e for _f, e in OLD_PATHS])
def test_no_existing_path_moves(path, expected: str) -> None:
    assert path(ArtifactLayout(ROOT)) == ROOT / expected


def test_what_the_writers_name_follows_the_patterns(tmp_path: Path) -> None:
    """The file names chosen by the writers themselves (content hash, dump name, cache key, the
    leaderboard's base name) land where the patterns say."""
    from heron_pipeline.database.dump import dump_name
    from heron_pipeline.leaderboard.write import write_leaderboard

    layout = ArtifactLayout(tmp_path)
    by_kind = {k.name: k.pattern for k in KINDS}

    def rel(path: Path) -> str:
        return path.relative_to(tmp_path).as_posix()

    scores, digest = write_jsonl_artifact(layout.scores("raw-llm", "small", 43, "natural"), [{"a": 1}])
    assert pattern_regex(by_kind["scores"]).fullmatch(rel(scores)) and scores.stem == digest
    copy, _ = write_content_addressed(layout.leaderboard_copy(), b"x", suffix=".csv")
    assert rel(copy) == f"results/by_digest/{DIGEST}.csv"
    assert matches(by_kind["dumps"], rel(layout.dumps() / dump_name("small", 43)))
    assert matches(by_kind["llm_cache"], rel(llm_cache_entry(layout.llm_cache(), KEY)))
    board = {"scale": "small", "seeds": [43], "mode": "single-state", "ci": {"resamples": 1000, "seed": 0},
             "tools": []}
    files = write_leaderboard([board], layout.results())
    assert files == {s: layout.leaderboard(s) for s in ("json", "csv", "md", "svg")}


def test_of_keeps_a_layout_and_wraps_a_folder(tmp_path: Path) -> None:
    layout = ArtifactLayout(tmp_path)
    assert ArtifactLayout.of(layout) is layout
    assert ArtifactLayout.of(str(tmp_path)).root == tmp_path


def test_run_manifests_lists_the_runs_folder_only(tmp_path: Path) -> None:
    layout = ArtifactLayout(tmp_path)
    assert layout.run_manifests() == []
    for name in ("b.json", "a.json", "notes.txt"):
        (layout.runs().mkdir(parents=True, exist_ok=True), (layout.runs() / name).write_text("{}"))
    (tmp_path / "c.json").write_text("{}")
    assert [p.name for p in layout.run_manifests()] == ["a.json", "b.json"]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_kind_of_names_each_kind_back_with_its_fields(kind) -> None:
    """What the object store uses to tell content-addressed files (checked against their names) from
    the rest: every kind's example path is recognised as that kind, with the example's fields."""
    from heron_pipeline.artifacts.layout import kind_of

    relative = kind.pattern.format(**EXAMPLE)
    found = kind_of(relative)
    assert found is not None and found[0] == kind
    assert found[1] == {name: str(EXAMPLE[name]) for name in kind.fields}


@pytest.mark.parametrize("relative", [
    "dumps/heron_tiny_42.sql.gz.sha256",  # beside a dump, named by nobody's pattern
    f"gold/tiny_42/{DIGEST[:63]}.json",  # one hex short: not a digest, so not content-addressed
    f"runs/{DIGEST.upper()}.json",
    f"runs/sub/{DIGEST}.json",
])
def test_kind_of_leaves_other_files_unnamed(relative) -> None:
    from heron_pipeline.artifacts.layout import kind_of

    assert kind_of(relative) is None
