"""The on-disk cache of pure functions of heron's inputs (input_cache): keys and read-back rules."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from heron_pipeline.input_cache import PACKAGE, code_digest, pickled


class Made:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, int]:
        self.calls += 1
        return {"tables": 211}


def test_a_value_is_made_once_and_read_back_by_key(tmp_path: Path) -> None:
    make = Made()
    assert pickled("thing", "a" * 64, make, dict, cache_dir=tmp_path) == {"tables": 211}
    assert pickled("thing", "a" * 64, make, dict, cache_dir=tmp_path) == {"tables": 211}
    assert make.calls == 1
    assert [p.name for p in tmp_path.iterdir()] == [f"thing-{'a' * 32}.pickle"]
    pickled("thing", "b" * 64, make, dict, cache_dir=tmp_path)  # another key: made again
    assert make.calls == 2


@pytest.mark.parametrize("content", [b"", b"\x80\x05garbage", b"not a pickle at all"])
def test_a_file_that_does_not_read_back_is_made_again(tmp_path: Path, content: bytes) -> None:
    (tmp_path / f"thing-{'c' * 32}.pickle").write_bytes(content)
    make = Made()
    assert pickled("thing", "c" * 64, make, dict, cache_dir=tmp_path) == {"tables": 211}
    assert make.calls == 1
    assert pickled("thing", "c" * 64, make, dict, cache_dir=tmp_path) == {"tables": 211}
    assert make.calls == 1  # the remade value replaced the bad file


def test_a_value_of_another_kind_is_not_served(tmp_path: Path) -> None:
    pickled("thing", "d" * 64, lambda: ["a", "list"], list, cache_dir=tmp_path)
    make = Made()
    assert pickled("thing", "d" * 64, make, dict, cache_dir=tmp_path) == {"tables": 211}
    assert make.calls == 1


def test_an_unwritable_cache_location_only_costs_time(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    make = Made()
    assert pickled("thing", "e" * 64, make, dict, cache_dir=blocker / "cache") == {"tables": 211}
    assert pickled("thing", "e" * 64, make, dict, cache_dir=blocker / "cache") == {"tables": 211}
    assert make.calls == 2


def test_the_code_digest_names_and_reads_every_file_of_an_entry() -> None:
    by_hand = hashlib.sha256()
    for file in sorted((PACKAGE / "catalog").rglob("*.py")):
        by_hand.update(str(file.relative_to(PACKAGE)).encode() + b"\0" + file.read_bytes() + b"\0")
    assert code_digest(["catalog"]).hexdigest() == by_hand.hexdigest()
    assert code_digest(["catalog"]).hexdigest() != code_digest(["catalog", "input_cache.py"]).hexdigest()
    seeded = code_digest(["input_cache.py"], hashlib.sha256(b"prefix"))
    assert seeded.hexdigest() != code_digest(["input_cache.py"]).hexdigest()
