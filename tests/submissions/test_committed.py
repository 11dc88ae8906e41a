"""The committed submissions and the published folder: they verify, and docs/leaderboard/ is exactly
what `heron leaderboard` generates from submissions/ (so nobody can edit it by hand).

The full check builds small 42/43/44 on the test server (several minutes each on 2 cores) and is
marked ``slow`` and ``submissions`` (select it with ``-m submissions``). The quick check needs no
database: every committed folder is well formed and agrees with the current questions — a change
to the questions digest means regenerating the committed submissions in the same change
(``make submissions``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from heron_pipeline.leaderboard.publish import PUBLISHED_FILES, SUBMISSIONS_DIR, publish_leaderboard, submission_folders
from heron_pipeline.leaderboard.write import PUBLISHED_DIR
from heron_pipeline.submissions import BoardRules, Verdict, load_expected_fingerprints, load_submission
from heron_pipeline.submissions.verify import static_checks

COMMITTED = submission_folders(SUBMISSIONS_DIR)


def test_the_reference_submissions_and_fingerprints_are_committed() -> None:
    assert {"gold", "alt", "gold-full", "alt-full"} <= {f.name for f in COMMITTED}
    # natural mode is the headline: <tool> holds the natural run, <tool>-full the upper bound
    modes = {f.name: load_submission(f).meta.question_mode for f in COMMITTED}
    assert {name: mode for name, mode in modes.items() if name in ("gold", "gold-full")} == {
        "gold": "natural", "gold-full": "full"}
    expected = load_expected_fingerprints()
    assert sorted(expected["tiny"]) == [42, 43, 44] and sorted(expected["small"]) == [42, 43, 44]
    assert sorted(p.name for p in PUBLISHED_DIR.iterdir()) == sorted(PUBLISHED_FILES)


@pytest.mark.parametrize("folder", COMMITTED, ids=lambda f: f.name)
def test_every_committed_submission_passes_the_static_checks(folder: Path) -> None:
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR

    sub = load_submission(folder)
    assert sub.well_formed, [str(p) for p in sub.problems]
    questions, digest = question_set(QUESTIONS_DIR)
    verdict = Verdict(folder.name, sub.meta.tool, sub.meta.class_)
    static_checks(sub, verdict, questions, digest, load_expected_fingerprints(), BoardRules())
    assert verdict.accepted, f"{verdict.reasons} — regenerate the committed submissions with `make submissions`"


@pytest.mark.slow
@pytest.mark.submissions
@pytest.mark.timeout(3600)
def test_committed_submissions_verify_and_the_published_folder_regenerates(server, tmp_path) -> None:
    out = tmp_path / "published"
    out.mkdir()
    shutil.copy(PUBLISHED_DIR / "leaderboard.json", out / "leaderboard.json")  # hidden figures carry over
    doc = publish_leaderboard(server, tmp_path / "artifacts", SUBMISSIONS_DIR, out)
    assert doc["rejected"] == [], doc["rejected"]
    assert sorted(s["folder"] for s in doc["submissions"]) == sorted(f.name for f in COMMITTED)
    differing = [name for name in PUBLISHED_FILES if (out / name).read_bytes() != (PUBLISHED_DIR / name).read_bytes()]
    # Soft-F1 pairs rows in one canonical order (scoring.canonical_pair), so it no longer follows the
    # server's row order: every published file must be byte-equal on any server.
    assert not differing, f"docs/leaderboard/{differing} differ from what `heron leaderboard` generates; run `make leaderboard`"
