"""``index.html``: the published leaderboard as one self-contained page (no external asset, no network).

The page is rendered from the same document as every other published file. It holds a sortable
standings table per board (a few lines of inline JavaScript; each cell carries its sort key), the
headline and breakdown charts inlined as SVG, the retrieval board, the rejected submissions with
their reason codes, and beside every number the conditions it was measured under (scale, seeds,
model, temperature, n, EX@1 vs EX@k, single- vs multi-state, hidden-state count) plus the
provenance (generator version, public state fingerprints, questions digest).
"""

from __future__ import annotations

from html import escape
from typing import Any

from heron_pipeline.leaderboard.boards import ROLE_TEXT, board_role, board_title, models_on_board
from heron_pipeline.metrics import html_cells
from heron_pipeline.metrics.cells import html_cell as _cell
from heron_pipeline.metrics.cells import html_text as _num

STYLE = """
td.flagged{background:#fde8e8;color:#a01010} svg.trend{display:block}
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{margin-bottom:4px} h2{margin-top:32px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top}
th{background:#f0f3f7;cursor:pointer;user-select:none} th.text,td.text{text-align:left}
th[aria-sort=ascending]::after{content:" ▲"} th[aria-sort=descending]::after{content:" ▼"}
.cond{color:#666;font-size:11px} .code{font-family:monospace;background:#fde8e8;padding:0 3px}
.prov{font-family:monospace;font-size:11px;color:#444} .note{color:#555;font-size:13px}
.causes{display:flex;width:160px;height:10px;background:#eee} .causes span{display:block;height:10px}
"""

SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, index) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var ascending = th.getAttribute('aria-sort') !== 'ascending';
      table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      function key(row) {
        var raw = row.cells[index].getAttribute('data-sort');
        var num = parseFloat(raw);
        return isNaN(num) ? (raw || '') : num;
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = (typeof x === 'number' && typeof y === 'number') ? x - y : String(x).localeCompare(String(y));
        return ascending ? c : -c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def _standings_table(board: dict[str, Any], hidden_states: int) -> str:
    seeds = ",".join(map(str, board["seeds"]))
    metric_cells = html_cells()
    headers = [("tool", "text"), ("class", "text"), ("model · T · n", "text"),
               *((cell.title(board), cell.klass) for cell in metric_cells)]
    if hidden_states:
        headers.append((f"multi-state EX@1, public + {hidden_states} hidden", ""))
    out = [f'<table class="sortable standings" data-scale="{escape(board["scale"])}">', "<thead><tr>"]
    out += [f'<th class="{k}">{escape(h)}</th>' for h, k in headers]
    out.append("</tr></thead><tbody>")
    for row in board["tools"]:
        c = row["conditions"]
        n = c["n"]
        model = c.get("model") or "no model"
        temperature = "—" if c.get("temperature") is None else c["temperature"]
        cond = f'<div class="cond">{escape(board["scale"])} seeds {seeds} · {escape(c["mode"])} · {escape(board["question_mode"])}</div>'
        cells = [
            _cell(row["tool"], f'<b>{escape(row["tool"])}</b>{cond}', klass="text"),
            _cell(row["class"], escape(row["class"]), klass="text"),
            _cell(model, escape(f"{model} · T={temperature} · n={n}"), klass="text"),
            *(cell.render(row, board) for cell in metric_cells),
        ]
        if hidden_states:
            h = row.get("hidden") or {}
            value = h.get("multi_state_ex1_public_hidden")
            cells.append(_cell(value, f'{_num(value)}<div class="cond">{h.get("hidden_states", 0)} hidden '
                                      f'state(s)</div>' if h else "—"))
        out.append(f'<tr class="standing" data-tool="{escape(row["tool"])}">' + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    prov = board["provenance"]
    states = "".join(f"<li>{escape(board['scale'])} seed {s['seed']}: {escape(s['fingerprint'])}</li>"
                     for s in prov["states"])
    out.append(f'<div class="prov">generator version {escape(", ".join(prov["generator_version"]))} · questions digest '
               f'{escape(prov["questions_digest"] or "")}<br>public state fingerprints:<ul>{states}</ul></div>')
    return "\n".join(out)


def _retrieval_table(doc: dict[str, Any]) -> str:
    if not doc["retrieval"]:
        return '<p class="note" id="retrieval-empty">No retrieving tool has an accepted submission yet.</p>'
    out = ['<table class="sortable" id="retrieval-board"><thead><tr>',
           *(f'<th class="{k}">{escape(h)}</th>' for h, k in (("tool", "text"), ("class", "text"), ("model", "text"),
                                                             ("conditions", "text"), ("Set-Recall@5", ""),
                                                             ("Set-Recall@10", ""), ("Set-Recall@20", ""),
                                                             ("Set-Recall@all", ""))),
           "</tr></thead><tbody>"]
    for e in doc["retrieval"]:
        cond = f"{e['scale']} seeds {','.join(map(str, e['seeds']))} · {e['question_mode']} · sample 0"
        out.append(f'<tr class="retriever" data-tool="{escape(e["tool"])}">'
                   + _cell(e["tool"], f"<b>{escape(e['tool'])}</b>", klass="text")
                   + _cell(e["class"], escape(e["class"]), klass="text")
                   + _cell(e["model"] or "no model", escape(e["model"] or "no model"), klass="text")
                   + _cell(cond, escape(cond), klass="text")
                   + "".join(_cell(e[k]) for k in ("set_recall@5", "set_recall@10", "set_recall@20", "set_recall@all"))
                   + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _rejected_list(doc: dict[str, Any]) -> str:
    if not doc["rejected"]:
        return '<p class="note" id="rejected-list">No submission has been rejected.</p>'
    out = ['<ul id="rejected-list">']
    for r in doc["rejected"]:
        codes = " ".join(f'<span class="code">{escape(c)}</span>' for c in r["reason_codes"])
        claimed = ", ".join(f"{escape(k)} {_num(v)}" for k, v in sorted(r["claimed"].items())) or "—"
        reproduced = ", ".join(f"{escape(k)} {_num(v)}" for k, v in sorted(r["reproduced"].items())) or "not recomputed"
        details = "".join(f"<li>{escape(x['code'])}: {escape(x['detail'])}"
                          + (f" ({escape(x['file'])}" + (f":{x['line']}" if x.get("line") else "")
                             + (f", {escape(str(x['field']))}" if x.get("field") else "") + ")" if x.get("file") else "")
                          + "</li>" for x in r["reasons"][:8])
        more = f"<li>… {len(r['reasons']) - 8} more</li>" if len(r["reasons"]) > 8 else ""
        out.append(f'<li class="rejected" data-folder="{escape(r["folder"])}"><b>{escape(str(r["tool"]))}</b> '
                   f'(folder {escape(r["folder"])}) {codes}<br>claimed: {claimed}; reproduced: {reproduced}'
                   f'<ul>{details}{more}</ul></li>')
    out.append("</ul>")
    return "\n".join(out)


def _models_sentence(doc: dict[str, Any], board: dict[str, Any]) -> str:
    """Which model the rows use, naming only a model some row uses."""
    models = models_on_board(doc["standings"])
    if not models:
        return ("No model-based tool has been submitted yet: every row is a reference or retrieval tool, "
                "with no model.")
    return f"Model {', '.join(models)}, temperature {board['temperature']}."


def render_index(doc: dict[str, Any], headline_svg: str, breakdown_svg: str) -> str:
    """The page's HTML text."""
    board = doc["board"]
    hidden = doc["hidden_states"]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>heron leaderboard</title>", f"<style>{STYLE}</style></head><body>",
             "<h1>heron leaderboard</h1>",
             f'<p class="note">Every number below was recomputed by <code>heron leaderboard</code> from the folders '
             f'under <code>submissions/</code>: the SQL re-executed in the sandbox on every public state. Board rule: '
             f'{escape(board["rule"])}. {escape(_models_sentence(doc, board))} '
             f'Headline: multi-state EX@1 (sample 0 correct on every state) on the natural questions; the full '
             f'questions\' board beside it is the told-everything upper bound. EX@k is pass@k over n samples, a '
             f'ceiling. Hidden states used: {hidden}.</p>']
    for b in doc["standings"]:
        role = board_role(b["question_mode"])
        parts.append(f'<h2 id="{escape(role.replace(" ", "-"))}-{escape(b["scale"])}">'
                     f'{escape(board_title(b).replace("`", ""))}</h2>')
        if role in ROLE_TEXT:
            parts.append(f'<p class="note">This board is {escape(ROLE_TEXT[role])}.</p>')
        parts.append(_standings_table(b, hidden))
    if not doc["standings"]:
        parts.append('<p class="note">No accepted submission yet.</p>')
    from heron_pipeline.leaderboard.hidden_board import hidden_html

    parts.append(hidden_html(doc))
    parts += ["<h2>Headline chart</h2>", f'<div id="headline-chart">{headline_svg}</div>',
              "<h2>Breakdown</h2>", f'<div id="breakdown">{breakdown_svg}</div>',
              "<h2>Retrieval board</h2>", _retrieval_table(doc),
              "<h2>Rejected submissions</h2>", _rejected_list(doc),
              f"<script>{SCRIPT}</script>", "</body></html>", ""]
    return "\n".join(parts)
