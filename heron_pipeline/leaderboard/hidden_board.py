"""The board's hidden side: hidden EX, the contamination gap and its flag, each tool's nightly history,
and paired comparisons of neighbouring rows — all read from committed documents, nothing recomputed.

Inputs are the published standings (each row carries ``per_question``, sample 0 correct on every
public state) and the evaluation records under ``evaluations/`` (aggregates only). The page is a pure
function of both, so it regenerates byte for byte; a row without ``tool.toml`` says "public draw only
— not checked" instead of a hidden figure, because nothing checked it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from heron_pipeline.hidden.paired import FLAG_TEXT, paired_difference

NOT_CHECKED = "public draw only — not checked"


def _key(row: dict[str, Any]) -> tuple[str, str]:
    sub = row.get("submission") or {}
    return sub.get("folder", ""), sub.get("digest", "")


def attach_hidden(standings: list[dict[str, Any]], records: list[dict[str, Any]]) -> None:
    """Give every row ``hidden_eval`` (its latest evaluation, or None) and ``history`` (every evaluation of
    its folder, oldest first), and every board ``comparisons`` (each row against the one below it)."""
    entries: dict[tuple[str, str], list[tuple[dict, dict]]] = {}
    by_folder: dict[str, list[tuple[dict, dict]]] = {}
    for record in records:
        for tool in record["tools"]:
            entries.setdefault((tool["folder"], tool["submission_digest"]), []).append((record, tool))
            by_folder.setdefault(tool["folder"], []).append((record, tool))
    for board in standings:
        for row in board["tools"]:
            runnable = row["conditions"].get("runnable") or (row.get("submission") or {}).get("runnable")
            mine = [(r, t) for r, t in entries.get(_key(row), []) if r["scale"] == board["scale"]
                    and t["question_mode"] == board["question_mode"]]
            if mine:
                record, tool = mine[-1]
                row["hidden_eval"] = {"date": record["date"], "kind": record["kind"], "label": record["label"],
                                      "draw_digest": record["draw_digest"], "hidden_states": record["hidden_states"],
                                      **{k: tool[k] for k in ("public", "hidden", "gap", "flagged", "errors",
                                                              "errors_by_class", "status")}}
            else:
                row["hidden_eval"] = None
            row["hidden_status"] = ("flagged" if mine and row["hidden_eval"]["flagged"] else
                                    "checked" if mine else "not run yet" if runnable else NOT_CHECKED)
            row["history"] = [{"date": r["date"], "kind": r["kind"], "label": r["label"],
                               "draw_digest": r["draw_digest"], "submission_digest": t["submission_digest"],
                               "hidden": t["hidden"]["multi_state_ex1"],
                               "gap": (t["gap"] or {}).get("difference"), "flagged": t["flagged"]}
                              for r, t in by_folder.get(_key(row)[0], [])
                              if r["scale"] == board["scale"] and t["question_mode"] == board["question_mode"]]
        board["comparisons"] = comparisons(board["tools"])


def comparisons(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row against the next one down: paired bootstrap of the multi-state EX@1 difference."""
    out = []
    for a, b in zip(rows, rows[1:]):
        pa, pb = a.get("per_question") or {}, b.get("per_question") or {}
        if not pa or not pb:
            continue
        d = paired_difference(pa, pb)
        out.append({"a": a["tool"], "b": b["tool"], **d.to_json(),
                    "real": d.low > 0 or d.high < 0})
    return out


def evaluations_summary(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per evaluation record: when, what kind, which draw, its audit, and its seeds once retired."""
    return [{"date": r["date"], "kind": r["kind"], "label": r["label"], "scale": r["scale"],
             "draw_digest": r["draw_digest"], "hidden_states": r["hidden_states"], "audit_passed": r["audit"]["passed"],
             "withheld": list(r["audit"].get("withheld") or []), "tools": len(r["tools"]),
             "retired": r.get("retired")} for r in records]


def audit_text(summary: dict[str, Any]) -> str:
    """An evaluation's audit in words: passed, failed, or passed with the questions it withheld named."""
    if not summary["audit_passed"]:
        return "failed"
    withheld = summary.get("withheld") or []
    return f"passed, {len(withheld)} withheld ({', '.join(withheld)})" if withheld else "passed"


def _pm(value: float | None) -> str:
    return "—" if value is None else f"{value:+.1f}"


def _gap_text(gap: dict[str, Any] | None) -> str:
    return "—" if not gap else f"{gap['difference']:+.1f} [{gap['ci'][0]:.1f}, {gap['ci'][1]:.1f}]"


def hidden_markdown(doc: dict[str, Any]) -> list[str]:
    """The LEADERBOARD.md section: hidden, gap, flag, history and paired comparisons."""
    parts = ["## Hidden evaluation", "",
             "Runnable submissions (`tool.toml`) are run on a question draw and data states nobody has seen; "
             f"the gap is public − hidden multi-state EX@1 with a paired bootstrap CI over the questions, and a gap "
             f"whose whole CI lies above {doc['hidden_flag_points']:g} points is flagged: \"{FLAG_TEXT}\" "
             "(METHODOLOGY §16).", "",
             "| board | tool | public | hidden | gap [95 % CI] | status | draw | nights |", "|---|---|---|---|---|---|---|---|"]
    for board in doc["standings"]:
        for row in board["tools"]:
            h = row.get("hidden_eval")
            parts.append(f"| {board['scale']} {board['question_mode']} | {row['tool']} | {row['multi_state_ex1']:.1f} | "
                         + (f"{h['hidden']['multi_state_ex1']:.1f} | {_gap_text(h['gap'])} | {row['hidden_status']} | "
                            f"{h['draw_digest'][:12]} ({h['date']}) | {len(row['history'])} |" if h else
                            f"— | — | {row['hidden_status']} | — | 0 |"))
    parts += ["", "### Paired comparisons (multi-state EX@1, A − B, paired bootstrap over the questions)", ""]
    lines = [f"- {board['scale']} {board['question_mode']}: {c['a']} vs {c['b']}: {c['difference']:+.1f} "
             f"[{c['ci'][0]:.1f}, {c['ci'][1]:.1f}]" + (" — a real difference" if c["real"] else " — within noise")
             for board in doc["standings"] for c in board.get("comparisons", [])]
    parts += lines or ["No two rows to compare."]
    parts += ["", "### Evaluations", ""]
    if doc["evaluations"]:
        parts += ["| date | kind | scale | draw | hidden states | audit | tools | retired |", "|---|---|---|---|---|---|---|---|"]
        parts += [f"| {e['date']} | {e['kind']} | {e['scale']} | {e['draw_digest'][:12]} | {e['hidden_states']} | "
                  f"{audit_text(e)} | {e['tools']} | "
                  + (f"instance seed {e['retired']['instance_seed']}, seeds "
                     f"{','.join(map(str, e['retired']['seeds']))}" if e["retired"] else "not yet") + " |"
                  for e in doc["evaluations"]]
    else:
        parts.append("No hidden evaluation has run yet.")
    return parts + [""]


def trend_svg(history: list[dict[str, Any]], width: int = 160, height: int = 36) -> str:
    """A small line of hidden multi-state EX@1 per night (0–100), flagged nights in red."""
    if not history:
        return ""
    pad = 3
    step = (width - 2 * pad) / max(1, len(history) - 1)
    points = [(pad + i * step, height - pad - (h["hidden"] / 100) * (height - 2 * pad)) for i, h in enumerate(history)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="{"#c0392b" if h["flagged"] else "#2c6fbb"}">'
                   f'<title>{escape(h["date"])} {escape(h["kind"])}: hidden {h["hidden"]:.1f}, gap {_pm(h["gap"])}</title>'
                   f'</circle>' for (x, y), h in zip(points, history))
    return (f'<svg class="trend" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="#fafafa"/>'
            f'<polyline fill="none" stroke="#2c6fbb" stroke-width="1.5" points="{line}"/>{dots}</svg>')


def hidden_html(doc: dict[str, Any]) -> str:
    """The page's hidden-evaluation section (table with trend plots, paired comparisons, evaluations)."""
    out = ['<h2 id="hidden-evaluation">Hidden evaluation</h2>',
           f'<p class="note">Runnable submissions are run on a question draw and data states nobody has seen. Gap = '
           f'public − hidden multi-state EX@1, paired bootstrap 95 % CI over the questions; a gap whose whole CI lies '
           f'above {doc["hidden_flag_points"]:g} points is flagged "{escape(FLAG_TEXT)}".</p>',
           '<table class="sortable" id="hidden-board"><thead><tr>',
           *(f'<th class="{k}">{escape(h)}</th>' for h, k in (("board", "text"), ("tool", "text"), ("public", ""),
                                                             ("hidden", ""), ("gap [95 % CI]", ""), ("status", "text"),
                                                             ("draw", "text"), ("history", "text"))),
           "</tr></thead><tbody>"]
    for board in doc["standings"]:
        for row in board["tools"]:
            h = row.get("hidden_eval")
            status = row["hidden_status"]
            klass = "text flagged" if status == "flagged" else "text"
            nights = ", ".join(p["date"] for p in row["history"])
            out.append(
                f'<tr class="hidden-row" data-tool="{escape(row["tool"])}" data-status="{escape(status)}">'
                f'<td class="text" data-sort="{escape(board["scale"])}">{escape(board["scale"])} '
                f'{escape(board["question_mode"])}</td>'
                f'<td class="text" data-sort="{escape(row["tool"])}"><b>{escape(row["tool"])}</b></td>'
                f'<td data-sort="{row["multi_state_ex1"]}">{row["multi_state_ex1"]:.1f}</td>'
                + (f'<td data-sort="{h["hidden"]["multi_state_ex1"]}">{h["hidden"]["multi_state_ex1"]:.1f}</td>'
                   f'<td data-sort="{(h["gap"] or {}).get("difference", "")}">{escape(_gap_text(h["gap"]))}</td>'
                   if h else '<td data-sort="">—</td><td data-sort="">—</td>')
                + f'<td class="{klass}" data-sort="{escape(status)}">'
                + (f'<b>{escape(FLAG_TEXT)}</b>' if status == "flagged" else escape(status)) + "</td>"
                + (f'<td class="text prov" data-sort="{escape(h["date"])}">{escape(h["draw_digest"][:12])} '
                   f'({escape(h["date"])}, {h["hidden_states"]} states)</td>' if h else '<td class="text" data-sort="">—</td>')
                + f'<td class="text" data-sort="{len(row["history"])}">{trend_svg(row["history"])}'
                + (f'<div class="cond">{escape(nights)}</div>' if nights else "") + "</td></tr>")
    out.append("</tbody></table>")
    comps = [(board, c) for board in doc["standings"] for c in board.get("comparisons", [])]
    out.append('<h3>Paired comparisons</h3><ul id="paired-comparisons">')
    out += [f'<li class="comparison" data-real="{str(c["real"]).lower()}">{escape(board["scale"])} '
            f'{escape(board["question_mode"])}: <b>{escape(c["a"])} vs {escape(c["b"])}: {c["difference"]:+.1f} '
            f'[{c["ci"][0]:.1f}, {c["ci"][1]:.1f}]</b> — '
            f'{"a real difference" if c["real"] else "within noise"}</li>' for board, c in comps]
    if not comps:
        out.append("<li>No two rows to compare.</li>")
    out.append("</ul><h3>Evaluations</h3>")
    if doc["evaluations"]:
        out.append('<table id="evaluations"><thead><tr><th class="text">date</th><th class="text">kind</th>'
                   '<th class="text">scale</th><th class="text">draw digest</th><th>hidden states</th>'
                   '<th class="text">audit</th><th class="text">retired</th></tr></thead><tbody>')
        for e in doc["evaluations"]:
            retired = (f"instance seed {e['retired']['instance_seed']}, seeds "
                       f"{','.join(map(str, e['retired']['seeds']))}" if e["retired"] else "not yet")
            out.append(f'<tr><td class="text">{escape(e["date"])}</td><td class="text">{escape(e["kind"])}</td>'
                       f'<td class="text">{escape(e["scale"])}</td><td class="text prov">{escape(e["draw_digest"])}</td>'
                       f'<td>{e["hidden_states"]}</td><td class="text">{escape(audit_text(e))}</td>'
                       f'<td class="text">{escape(retired)}</td></tr>')
        out.append("</tbody></table>")
    else:
        out.append('<p class="note" id="evaluations-empty">No hidden evaluation has run yet.</p>')
    return "\n".join(out)
