"""How the boards of one leaderboard are ordered and named: natural mode is the headline.

A board is one (scale, question mode, seeds). METHODOLOGY §10 makes the natural texts the headline —
what a user would type — and the full texts, which state every convention a question relies on, the
told-everything upper bound. Every rendering (json, csv, md, html, svg, the local results folder)
orders and titles boards through these functions, so a reader finds the headline first everywhere.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

#: Question mode -> its role on the board.
MODE_ROLES = {"natural": "headline", "full": "upper bound"}
#: One line a reader sees under each role.
ROLE_TEXT = {"headline": "the headline: natural questions, as a user would ask them",
             "upper bound": "the told-everything upper bound: full questions, every convention stated"}


def board_role(question_mode: str) -> str:
    """``headline`` for natural mode, ``upper bound`` for full (other modes: the mode's own name)."""
    return MODE_ROLES.get(question_mode, question_mode)


def board_order(scale: str, question_mode: str, seeds: Iterable[int] = ()) -> tuple:
    """Sort key: by scale, then the headline before the upper bound, then seeds."""
    roles = list(MODE_ROLES)
    rank = roles.index(question_mode) if question_mode in roles else len(roles)
    return scale, rank, question_mode, tuple(seeds)


def board_title(board: Mapping[str, Any]) -> str:
    """A board's heading: its role, scale, seeds and question mode."""
    mode = board.get("question_mode", "full")
    role = board_role(mode)
    seeds = ", ".join(str(s) for s in board["seeds"])
    label = "Headline" if role == "headline" else "Upper bound" if role == "upper bound" else mode
    return f"{label} — scale `{board['scale']}`, seeds {seeds} ({board['mode']}), question mode `{mode}`"


def models_on_board(standings: Iterable[Mapping[str, Any]]) -> list[str]:
    """The models named by any row of these boards (reference and retrieval rows have none)."""
    return sorted({row.get("conditions", {}).get("model") for board in standings for row in board["tools"]}
                  - {None, ""})
