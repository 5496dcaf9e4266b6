"""AnswerChecker: mark a numeric answer to an exercise, in JupyterLab or on a static page.

The checker holds only a one-way fingerprint of each answer (FNV-1a, 32 bits, of the
answer written with 4 decimals), so the student copy does not print the answers. The same
fingerprint is computed by a few lines of inline JavaScript in the static fallback, so
the checker also works on the built HTML book, with no kernel. (Four decimals leave
few possible answers: this keeps an honest student from peeking, not a determined one.)

>>> fingerprint(80), fingerprint(80.0) == fingerprint("80"), fingerprint(0.61412)
('3ebe4dd1', True, '7ffc3731')
>>> c = AnswerCheckerController({"bad night (dollars)": fingerprint(80)})
>>> c.check("bad night (dollars)", 80.00001), c.check("bad night (dollars)", 40)
(True, False)
"""

from __future__ import annotations

import itertools
import json
from html import escape

import ipywidgets as W

from rumino_widgets._base import StaticFallback

FNV_OFFSET, FNV_PRIME = 0x811C9DC5, 0x01000193
_ids = itertools.count(1)


def fingerprint(answer) -> str:
    """FNV-1a (32-bit) of ``f"{float(answer):.4f}"`` as 8 hex digits; the JavaScript below does the same."""
    h = FNV_OFFSET
    for byte in f"{float(answer):.4f}".encode():
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return f"{h:08x}"


class AnswerCheckerController:
    """Exercise labels mapped to the fingerprints of their answers."""

    def __init__(self, key: dict[str, str]):
        if not key:
            raise ValueError("AnswerChecker(key): give at least one exercise and its answer's fingerprint.")
        self.key = dict(key)

    def check(self, label: str, answer) -> bool:
        try:
            return fingerprint(answer) == self.key[label]
        except (TypeError, ValueError):
            return False

    def html(self) -> str:
        """A form that marks answers in the browser (inline JavaScript, no kernel)."""
        n = next(_ids)
        uid = f"rumino-checker-{n}"
        options = "".join(f'<option value="{escape(fp)}">{escape(label)}</option>' for label, fp in self.key.items())
        field = "display:inline-block;margin:4px 12px 4px 0"
        return f"""<form class="rumino-checker" id="{uid}" style="font:14px sans-serif" onsubmit="return false">
<span style="{field}"><label for="{uid}-ex">exercise </label><select id="{uid}-ex">{options}</select></span>
<span style="{field}"><label for="{uid}-answer">your answer </label><input id="{uid}-answer" type="text"
 inputmode="decimal" size="12" autocomplete="off"></span>
<button type="submit" style="margin:4px 12px 4px 0">Check</button>
<output id="{uid}-verdict" role="status" aria-live="polite" style="font-weight:bold"></output>
</form>
<script>(function () {{
  const form = document.getElementById({json.dumps(uid)});
  if (!form) return;
  const fnv = s => {{ let h = 0x811c9dc5;
    for (const b of new TextEncoder().encode(s)) {{ h = Math.imul(h ^ b, 0x01000193) >>> 0; }}
    return h.toString(16).padStart(8, "0"); }};
  const mark = () => {{
    const text = form.querySelector("input").value.replace(/[,\\s]/g, "");
    const out = form.querySelector("output");
    const value = Number(text);
    if (text === "" || !isFinite(value)) {{ out.textContent = "type a number"; return; }}
    out.textContent = fnv(value.toFixed(4)) === form.querySelector("select").value ? "right" : "not yet";
  }};
  form.addEventListener("submit", e => {{ e.preventDefault(); mark(); }});
}})();</script>"""


class AnswerChecker(StaticFallback, W.VBox):
    """The live checker: a choice of exercise, an answer box and the verdict (right / not yet)."""

    def __init__(self, key: dict[str, str]):
        self.controller = AnswerCheckerController(key)
        self.choice = W.Dropdown(options=list(self.controller.key), description="exercise",
                                 layout=W.Layout(width="560px"))
        self.answer = W.FloatText(description="answer")
        self.verdict = W.HTML()
        self.choice.observe(self._mark, names="value")
        self.answer.observe(self._mark, names="value")
        super().__init__([self.choice, self.answer, self.verdict])
        self.add_class("rumino-answer-checker")

    def _mark(self, change=None) -> None:
        right = self.controller.check(self.choice.value, self.answer.value)
        self.verdict.value = "<b>right</b>" if right else "not yet"

    def static_html(self) -> str:
        return self.controller.html()
