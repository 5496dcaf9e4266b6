"""A class tally on a static page: the groups' counts typed in the browser, pooled there, saved as CSV.

A class activity that pools results (deal hands, count the successes) needs somewhere to type each
group's tally and see the class's figure at once, on the book's static page, with no kernel. This module
writes that block (:func:`tally_html`): a table of groups, a form to add one, the pooled share with its
Wilson 95% interval (computed in JavaScript by the same formula as :func:`rumino.stats.wilson_interval`),
the exact value beside it, a small chart of the estimate after each group, and CSV export and import.
The tallies stay in the browser (``localStorage``) until the teacher clears them.

The CSV is the same for the page and for the live widget (:class:`rumino_widgets.ClassExperiment`),
so a class can move between the two::

    activity,group,successes,trials
    first_out,A,14,30

>>> a = Activity("first_out", "A 7 or an 8 within five cards", "Does a 7 or an 8 come?", "tries",
...              Fraction(27017, 46410))
>>> text = tally_csv("first_out", [Group("A", 14, 30), Group("B", 17, 30)])
>>> [(g.name, g.successes, g.trials) for g in read_tally_csv(text, "first_out")]
[('A', 14, 30), ('B', 17, 30)]
>>> read_tally_csv("activity,group,successes,trials\\nfirst_out,C,31,30\\n", "first_out")
Traceback (most recent call last):
...
rumino.classroom.experiment.TallyError: line 2: successes is 31 but trials is 30: a group cannot count more successes than trials.
"""

from __future__ import annotations

import csv
import html
import io
import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from rumino.classroom.experiment import MAX_TRIALS, Experiment, Group, TallyError, parse_tally
from rumino.stats import Z95

__all__ = ["Activity", "tally_html", "tally_csv", "read_tally_csv", "CSV_COLUMNS", "TALLY_JS"]

CSV_COLUMNS = ("activity", "group", "successes", "trials")


@dataclass(frozen=True)
class Activity:
    """One pooled activity: its key (in the CSV), its title, the yes/no question a trial answers, what a
    trial is called (``hands``, ``tries``) and the exact chance of a success, computed by the engine."""

    key: str
    title: str
    question: str
    unit: str
    exact: Fraction
    success: str = "successes"  # what the tally sheet calls a success ("hands with a joker")

    @classmethod
    def from_experiment(cls, e: Experiment) -> Activity:
        return cls(e.key, e.title, e.question, e.unit, e.exact)

    def as_json(self) -> dict:
        p = Fraction(self.exact)
        return {"key": self.key, "title": self.title, "question": self.question, "unit": self.unit,
                "success": self.success, "exact": float(p), "exact_text": f"{p.numerator:,} / {p.denominator:,}"}


def tally_csv(key: str, groups: Iterable) -> str:
    """The groups as CSV (``activity,group,successes,trials``), what the page and the widget save."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for g in groups:
        w.writerow([key, g.name, g.successes, g.trials])
    return out.getvalue()


def read_tally_csv(text: str, key: str) -> list[Group]:
    """The groups of a tally CSV for the activity ``key``; a bad line raises a one-line :class:`TallyError`
    naming the line and the reason (and nothing is read)."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows or [h.strip().lower() for h in rows[0]] != list(CSV_COLUMNS):
        got = ",".join(rows[0]) if rows else "nothing"
        raise TallyError(f"line 1: a tally file starts with the columns {','.join(CSV_COLUMNS)} (this one: {got}).")
    groups = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CSV_COLUMNS):
            raise TallyError(f"line {line}: {len(row)} fields where a tally has {len(CSV_COLUMNS)}.")
        activity, name, successes, trials = (cell.strip() for cell in row)
        if activity != key:
            raise TallyError(f"line {line}: the tally is for the activity {activity!r}, not {key!r}.")
        try:
            g = parse_tally(successes, trials, name)
        except TallyError as err:
            raise TallyError(f"line {line}: {err}") from None
        groups.append(Group(g.name or f"group {len(groups) + 1}", g.successes, g.trials))
    return groups


def _rows(groups, exact) -> tuple[str, str]:
    """The table rows and the summary of ``groups``, as the page's script draws them (for a page read without
    script, and for a saved notebook's view of the live widget's groups)."""
    from rumino.classroom.experiment import pool

    rows = []
    for i, g in enumerate(groups):
        e = pool(groups[: i + 1])
        cells = [f"{g.successes:,}", f"{g.trials:,}", f"{g.successes / g.trials:.1%}",
                 f"{int(e.successes):,} / {e.n:,} = {e.value:.1%}", f"{e.lo:.1%} – {e.hi:.1%}"]
        rows.append(f'<tr><th scope="row">{html.escape(g.name)}</th>' + "".join(f"<td>{c}</td>" for c in cells)
                    + "<td></td></tr>")
    summary = ""
    if groups:
        e, p = pool(groups), float(exact)
        where = "inside" if e.contains(exact) else ("below" if p < e.lo else "above")
        summary = (f"pooled: {int(e.successes):,} of {e.n:,} = {e.value:.1%} (95% interval {e.lo:.1%} – "
                   f"{e.hi:.1%}); exact {p:.1%}: {where} the interval")
    return "".join(rows), summary


def tally_html(activities: Sequence, *, heading: str = "Your class's tally", groups: Iterable = (),
               instructions: dict[str, str] | None = None, menu_label: str = "Activity") -> str:
    """The static tally for ``activities`` (a menu when there are several): see the module's docstring.
    ``groups`` are the first activity's groups so far (the live widget's), shown until the browser has
    counts of its own. ``instructions``: HTML a page shows for each activity (by key) under the menu, the
    chosen activity's only, so that one menu chooses both what the class does and what it tallies."""
    acts = [a if isinstance(a, Activity) else Activity.from_experiment(a) for a in activities]
    if not acts:
        raise ValueError("tally_html needs at least one activity")
    if len({a.key for a in acts}) != len(acts):
        raise ValueError("two activities share a key")
    payload = json.dumps([a.as_json() for a in acts])
    initial = json.dumps([{"name": g.name, "successes": g.successes, "trials": g.trials} for g in groups])
    # the same blocks give the same ids: a page or a notebook rebuilt is the same HTML
    uid = "rumino-tally-" + hashlib.sha256((payload + initial + heading).encode()).hexdigest()[:10]
    data = html.escape(payload, quote=True)
    body, summary = _rows(list(groups), acts[0].exact)
    told = ""
    for i, a in enumerate(acts):
        if instructions and a.key in instructions:
            hidden = " hidden" if i else ""
            told += (f'<div class="rumino-tally-instructions" data-key="{html.escape(a.key)}"{hidden}>'
                     f'{instructions[a.key]}</div>\n')
    menu = ""
    if len(acts) > 1:
        options = "".join(f'<option value="{html.escape(a.key)}">{html.escape(a.title)}</option>' for a in acts)
        menu = (f'<p class="rumino-tally-row"><label for="{uid}-act">{html.escape(menu_label)} </label>'
                f'<select id="{uid}-act" class="rumino-tally-activity">{options}</select></p>')
    return f"""<div class="rumino-tally" id="{uid}" data-activities="{data}" data-initial="{html.escape(initial, quote=True)}">
<p class="rumino-tally-title"><b>{html.escape(heading)}</b>: type each group's counts; the class's figure is
worked out here, in the page (nothing is sent anywhere; the counts stay in this browser until you clear them).</p>
{menu}{told}<p class="rumino-tally-question"></p>
<table class="rumino-table rumino-tally-groups"><caption>The groups, and the class's estimate after each one</caption>
<thead><tr><th scope="col">group</th><th scope="col">successes</th><th scope="col">trials</th><th scope="col">share</th>
<th scope="col">pooled so far</th><th scope="col">95% interval</th><th scope="col"><span class="rumino-sr">remove</span></th></tr></thead>
<tbody>{body}</tbody></table>
<form class="rumino-tally-add" novalidate>
<span class="rumino-tally-field"><label for="{uid}-name">group</label> <input id="{uid}-name" name="group" size="10" autocomplete="off" placeholder="(optional)"></span>
<span class="rumino-tally-field"><label for="{uid}-s">successes</label> <input id="{uid}-s" name="successes" size="6" inputmode="numeric" autocomplete="off"></span>
<span class="rumino-tally-field"><label for="{uid}-n">trials</label> <input id="{uid}-n" name="trials" size="6" inputmode="numeric" autocomplete="off"></span>
<button type="submit" class="rumino-tally-addbtn">Add group</button>
</form>
<p class="rumino-tally-error" role="alert"></p>
<p class="rumino-tally-result" role="status" aria-live="polite">{html.escape(summary)}</p>
<div class="rumino-tally-plot"></div>
<p class="rumino-tally-row">
<button type="button" class="rumino-tally-download">Download CSV</button>
<label class="rumino-tally-load">Load CSV <input type="file" accept=".csv,text/csv"></label>
<button type="button" class="rumino-tally-clear">Clear the groups</button></p>
</div>
<style>{TALLY_CSS}</style>
<script>{TALLY_JS}</script>"""


TALLY_CSS = """
.rumino-tally { font-size: 0.95em; border: 1px solid #c9d6e3; border-radius: 6px; padding: 0.6em 0.9em; margin: 0.8em 0; }
.rumino-tally p { margin: 0.35em 0; }
.rumino-tally input, .rumino-tally select { border: 1px solid #555; padding: 0.15em 0.3em; color: #1a1a1a; background: #fff; }
.rumino-tally button, .rumino-tally .rumino-tally-load { border: 1px solid #0b4a9e; background: #f5f7fa; color: #0b4a9e;
  border-radius: 4px; padding: 0.2em 0.7em; margin: 0.2em 0.5em 0.2em 0; cursor: pointer; display: inline-block; }
.rumino-tally .rumino-tally-load input { width: 14em; border: none; }
.rumino-tally button:focus-visible, .rumino-tally input:focus-visible, .rumino-tally select:focus-visible { outline: 3px solid #ffb300; }
.rumino-tally .rumino-tally-field { display: inline-block; margin: 0.2em 0.8em 0.2em 0; }
.rumino-tally .rumino-tally-error { color: #b00020; font-weight: 600; }
.rumino-tally .rumino-tally-error:empty, .rumino-tally .rumino-tally-result:empty { display: none; }
.rumino-tally .rumino-tally-result { font-weight: 600; }
.rumino-tally table td button { margin: 0; padding: 0 0.4em; }
.rumino-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media print { .rumino-tally-add, .rumino-tally button, .rumino-tally-load { display: none !important; } }
"""

# The page's arithmetic, line for line the Python of rumino.stats and rumino.classroom.experiment (the
# tests run both on the same numbers): wilson() is wilson_interval(), whole() is _whole(), summary() is
# ClassTally.summary(), fixed() formats as Python's f"{x:.1f}" does (ties to even).
TALLY_JS = """
window.ruminoTally = window.ruminoTally || (function () {
  var Z95 = %(z)r, MAX = %(max)d, COLUMNS = %(columns)s;
  function wilson(s, n, z) {
    if (z === undefined) z = Z95;
    if (n === 0) return [0, 1];
    var p = s / n, z2 = z * z;
    var centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    var half = z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    var lo = s === 0 ? 0 : Math.max(0, centre - half);
    var hi = s === n ? 1 : Math.min(1, centre + half);
    return [lo, hi];
  }
  function fixed(x, d) {  /* x.toFixed(d), but a tie rounds to even as Python does */
    var s = x.toFixed(d), full = Math.abs(x).toFixed(Math.min(100, d + 30));
    var dot = full.indexOf('.'), tail = full.slice(dot + 1 + d);
    if (/^50*$/.test(tail)) {
      var cut = full.slice(0, d ? dot + 1 + d : dot), last = Number(cut.charAt(cut.length - 1));
      if (last %% 2 === 0) s = (x < 0 ? '-' : '') + cut;
    }
    return s;
  }
  function pct(x) { return fixed(100 * x, 1) + '%%'; }
  function grouped(n) { return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }
  function whole(name, value, low) {
    var text = value === null || value === undefined ? '' : String(value).trim();
    if (!text) throw new Error(name + ' is empty: type a whole number such as 12.');
    var ok = /^(\\d{1,3}(,\\d{3})+|\\d+)$/;
    if (text.charAt(0) === '-' && ok.test(text.slice(1).trim())) throw new Error(name + ' is ' + text + ': a count cannot be negative.');
    if (!ok.test(text)) throw new Error(name + " is '" + text.replace(/\\\\/g, '\\\\\\\\').replace(/'/g, "\\\\'") + "': not a whole number (type digits only, such as 12).");
    var n = Number(text.replace(/,/g, ''));
    if (n < low) throw new Error(name + ' is ' + n + ': a group needs at least ' + low + '.');
    if (n > MAX) throw new Error(name + ' is ' + grouped(n) + ': more than ' + grouped(MAX) + ' in one group, surely a typo.');
    return n;
  }
  function parseTally(successes, trials, name) {
    var t = whole('trials', trials, 1), s = whole('successes', successes, 0);
    if (s > t) throw new Error('successes is ' + s + ' but trials is ' + t + ': a group cannot count more successes than trials.');
    return {name: String(name || '').trim(), successes: s, trials: t};
  }
  function pool(groups) {
    var s = 0, n = 0;
    groups.forEach(function (g) { s += g.successes; n += g.trials; });
    var ci = wilson(s, n);
    return {successes: s, n: n, value: n ? s / n : 0, lo: ci[0], hi: ci[1]};
  }
  function summary(groups, exact) {
    if (!groups.length) return 'no groups yet: type a tally or deal virtual hands';
    var e = pool(groups), inside = e.lo <= exact && exact <= e.hi;
    var where = inside ? 'inside' : (exact < e.lo ? 'below' : 'above');
    return 'pooled: ' + grouped(e.successes) + ' of ' + grouped(e.n) + ' = ' + pct(e.value) + ' (95%% interval ' +
      pct(e.lo) + ' \\u2013 ' + pct(e.hi) + '); exact ' + pct(exact) + ': ' + where + ' the interval';
  }
  function csvField(x) { x = String(x); return /[",\\n\\r]/.test(x) ? '"' + x.replace(/"/g, '""') + '"' : x; }
  function toCsv(key, groups) {
    return [COLUMNS.join(',')].concat(groups.map(function (g) {
      return [key, g.name, g.successes, g.trials].map(csvField).join(','); })).join('\\n') + '\\n';
  }
  function csvRows(text) {  /* RFC 4180: quoted fields, doubled quotes */
    var rows = [], row = [], field = '', q = false, i = 0;
    text = text.replace(/^\\ufeff/, '');
    for (; i < text.length; i++) {
      var c = text.charAt(i);
      if (q) { if (c === '"') { if (text.charAt(i + 1) === '"') { field += '"'; i++; } else q = false; } else field += c; }
      else if (c === '"') q = true;
      else if (c === ',') { row.push(field); field = ''; }
      else if (c === '\\n' || c === '\\r') { if (c === '\\r' && text.charAt(i + 1) === '\\n') i++; row.push(field); rows.push(row); row = []; field = ''; }
      else field += c;
    }
    if (field !== '' || row.length) { row.push(field); rows.push(row); }
    return rows;
  }
  function parseCsv(text, key) {
    var rows = csvRows(text);
    var head = rows.length ? rows[0].map(function (h) { return h.trim().toLowerCase(); }).join(',') : '';
    if (head !== COLUMNS.join(',')) throw new Error('line 1: a tally file starts with the columns ' + COLUMNS.join(',') +
      ' (this one: ' + (rows.length ? rows[0].join(',') : 'nothing') + ').');
    var groups = [];
    for (var k = 1; k < rows.length; k++) {
      var r = rows[k], line = k + 1;
      if (!r.some(function (c) { return c.trim(); })) continue;
      if (r.length !== COLUMNS.length) throw new Error('line ' + line + ': ' + r.length + ' fields where a tally has ' + COLUMNS.length + '.');
      var act = r[0].trim();
      if (act !== key) throw new Error('line ' + line + ": the tally is for the activity '" + act + "', not '" + key + "'.");
      var g;
      try { g = parseTally(r[2], r[3], r[1]); } catch (err) { throw new Error('line ' + line + ': ' + err.message); }
      if (!g.name) g.name = 'group ' + (groups.length + 1);
      groups.push(g);
    }
    return groups;
  }
  function plot(box, groups, exact) {  /* the running estimate, its band and the exact line, as SVG */
    if (!groups.length) { box.innerHTML = ''; return; }
    var W = 520, H = 226, L = 46, R = 12, T = 12, B = 40, k = Math.max(groups.length, 6);
    var x = function (i) { return L + (i + 0.5) * (W - L - R) / k; };
    var y = function (v) { return T + (1 - v) * (H - T - B); };
    var pts = [], band = [], lows = [];
    for (var i = 0; i < groups.length; i++) {
      var e = pool(groups.slice(0, i + 1));
      pts.push(x(i).toFixed(1) + ',' + y(e.value).toFixed(1));
      band.push(x(i).toFixed(1) + ',' + y(e.hi).toFixed(1));
      lows.unshift(x(i).toFixed(1) + ',' + y(e.lo).toFixed(1));
    }
    var ticks = '';
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      ticks += '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#e3e8ee"/>' +
        '<text x="' + (L - 6) + '" y="' + (y(v) + 4) + '" text-anchor="end" font-size="12" fill="#333">' + (100 * v) + '%%</text>';
    });
    for (var j = 0; j < groups.length; j++)
      ticks += '<text x="' + x(j) + '" y="' + (H - B + 14) + '" text-anchor="middle" font-size="12" fill="#333">' + (j + 1) + '</text>';
    box.innerHTML = '<svg role="img" viewBox="0 0 ' + W + ' ' + H + '" width="100%%" style="max-width:' + W + 'px" ' +
      'aria-label="The class\\'s estimate after each group, with its 95%% band, and the exact value as a dashed line">' + ticks +
      '<polygon points="' + band.concat(lows).join(' ') + '" fill="rgba(31,119,180,0.18)"/>' +
      '<polyline points="' + pts.join(' ') + '" fill="none" stroke="#1f77b4" stroke-width="2"/>' +
      pts.map(function (p) { var c = p.split(','); return '<circle cx="' + c[0] + '" cy="' + c[1] + '" r="3.5" fill="#1f77b4"/>'; }).join('') +
      '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + y(exact) + '" y2="' + y(exact) + '" stroke="#c0392b" stroke-dasharray="6 4" stroke-width="2"/>' +
      '<text x="' + ((L + W - R) / 2) + '" y="' + (H - 1) + '" text-anchor="middle" font-size="12" fill="#333">groups pooled</text></svg>';
  }
  function mount(root) {
    if (root.dataset.ready) return;
    var acts = JSON.parse(root.dataset.activities), menu = root.querySelector('.rumino-tally-activity');
    var form = root.querySelector('.rumino-tally-add'), err = root.querySelector('.rumino-tally-error');
    var out = root.querySelector('.rumino-tally-result'), body = root.querySelector('tbody');
    var act = acts[0], groups = [];
    function store() { return 'rumino-tally:' + act.key; }
    function save() { try { localStorage.setItem(store(), JSON.stringify(groups)); } catch (e) {} }
    var initial = JSON.parse(root.dataset.initial || '[]');
    function restore() {  /* the browser's own counts; else the groups the page was written with */
      var kept = null;
      try { kept = localStorage.getItem(store()); } catch (e) {}
      try { groups = kept !== null ? JSON.parse(kept) : (act === acts[0] ? initial.slice() : []); } catch (e) { groups = []; }
    }
    function draw() {
      root.querySelectorAll('.rumino-tally-instructions').forEach(function (d) { d.hidden = d.dataset.key !== act.key; });
      root.querySelector('.rumino-tally-question').textContent = act.question + ' Exact chance (the engine): ' +
        act.exact_text + ' = ' + fixed(100 * act.exact, 2) + '%%.';
      body.innerHTML = '';
      groups.forEach(function (g, i) {
        var e = pool(groups.slice(0, i + 1)), tr = document.createElement('tr');
        [g.name, grouped(g.successes), grouped(g.trials), pct(g.successes / g.trials),
         grouped(e.successes) + ' / ' + grouped(e.n) + ' = ' + pct(e.value), pct(e.lo) + ' \\u2013 ' + pct(e.hi)]
          .forEach(function (v, c) { var td = document.createElement(c ? 'td' : 'th'); if (!c) td.scope = 'row'; td.textContent = v; tr.appendChild(td); });
        var td = document.createElement('td'), b = document.createElement('button');
        b.type = 'button'; b.textContent = '\\u00d7'; b.setAttribute('aria-label', 'remove ' + g.name);
        b.addEventListener('click', function () { groups.splice(i, 1); save(); draw(); });
        td.appendChild(b); tr.appendChild(td); body.appendChild(tr);
      });
      out.textContent = groups.length ? summary(groups, act.exact) : '';
      plot(root.querySelector('.rumino-tally-plot'), groups, act.exact);
    }
    if (menu) menu.addEventListener('change', function () {
      act = acts.filter(function (a) { return a.key === menu.value; })[0]; restore(); err.textContent = ''; draw(); });
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      try {
        var g = parseTally(form.successes.value, form.trials.value, form.group.value);
        if (!g.name) g.name = 'group ' + (groups.length + 1);
        groups.push(g); save(); err.textContent = '';
        form.successes.value = form.trials.value = form.group.value = '';
        form.group.focus();
      } catch (e) { err.textContent = e.message; }
      draw();
    });
    root.querySelector('.rumino-tally-download').addEventListener('click', function () {
      var blob = new Blob([toCsv(act.key, groups)], {type: 'text/csv'}), a = document.createElement('a');
      a.href = URL.createObjectURL(blob); a.download = 'class-tally-' + act.key + '.csv';
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    });
    root.querySelector('.rumino-tally-load input').addEventListener('change', function (ev) {
      var file = ev.target.files[0];
      if (!file) return;
      file.text().then(function (text) {
        var first = csvRows(text)[1], key = first ? first[0].trim() : act.key;
        var other = acts.filter(function (a) { return a.key === key; })[0];
        if (other && other !== act && menu) { menu.value = key; act = other; }
        try { groups = parseCsv(text, act.key); save(); err.textContent = ''; }
        catch (e) { err.textContent = file.name + ', ' + e.message; }
        ev.target.value = ''; draw();
      });
    });
    root.querySelector('.rumino-tally-clear').addEventListener('click', function () { groups = []; save(); err.textContent = ''; draw(); });
    restore(); draw();
    root.dataset.ready = 'true';
  }
  return {wilson: wilson, fixed: fixed, whole: whole, parseTally: parseTally, pool: pool, summary: summary,
          toCsv: toCsv, parseCsv: parseCsv, mount: mount};
})();
document.querySelectorAll('.rumino-tally').forEach(function (root) { window.ruminoTally.mount(root); });
""" % {"z": Z95, "max": MAX_TRIALS, "columns": json.dumps(list(CSV_COLUMNS))}
