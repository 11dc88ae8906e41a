"""Natural mode is the headline on every rendering: boards ordered and titled by one rule."""

from __future__ import annotations

import json
from pathlib import Path

from heron_pipeline.leaderboard.boards import board_order, board_role, board_title, models_on_board
from heron_pipeline.leaderboard.publish import render_published


def board(mode: str, scale: str = "small", model: str | None = None) -> dict:
    return {"scale": scale, "question_mode": mode, "seeds": [42, 43, 44], "mode": "multi-state",
            "tools": [{"tool": "gold", "conditions": {"model": model}}]}


def test_natural_comes_before_full_within_a_scale_and_scales_stay_apart():
    keys = sorted([("tiny", "full"), ("small", "full"), ("small", "natural"), ("tiny", "natural")],
                  key=lambda k: board_order(*k))
    assert keys == [("small", "natural"), ("small", "full"), ("tiny", "natural"), ("tiny", "full")]


def test_roles_and_titles():
    assert board_role("natural") == "headline" and board_role("full") == "upper bound"
    assert board_title(board("natural")).startswith("Headline — scale `small`")
    assert board_title(board("full")).startswith("Upper bound — scale `small`")


def test_models_named_are_only_those_a_row_uses():
    assert models_on_board([board("natural"), board("full")]) == []
    assert models_on_board([board("natural", model="gpt-4o"), board("full")]) == ["gpt-4o"]


def test_published_page_opens_on_the_headline_and_names_no_unused_model():
    """The committed published document (``make submissions``): natural board first, then full,
    whatever order the document's boards are handed over in."""
    doc = json.loads((Path(__file__).resolve().parents[2] / "docs" / "leaderboard" / "leaderboard.json").read_text())
    assert [(b["question_mode"], b["role"]) for b in doc["standings"]] == [("natural", "headline"),
                                                                            ("full", "upper bound")]
    files = render_published(doc)
    html, markdown = files["index.html"], files["LEADERBOARD.md"]
    assert html.index("Headline — scale small") < html.index("Upper bound — scale small")
    assert markdown.index("## Headline") < markdown.index("## Upper bound")
    # the committed copycat (the public-gold attack of issue 29) claims the board's model; the page
    # names exactly the models some row uses, and says so when none does
    assert models_on_board(doc["standings"]) == ["gpt-4o"]
    assert "Model gpt-4o, temperature 0.0." in html.split("<table")[0]
    assert "No model-based tool" not in html
    without = {**doc, "standings": [{**b, "tools": [r for r in b["tools"] if r["tool"] != "copycat"]}
                                    for b in doc["standings"]]}
    head = render_published(without)["index.html"].split("<table")[0]
    assert "No model-based tool has been submitted yet" in head and "gpt-4o" not in head
