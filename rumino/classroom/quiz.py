"""Self-check quizzes whose answers the engine computes, drawn by jupyterquiz on a static page.

A chapter builds its questions from values it has just computed and shows them::

    from rumino.classroom.quiz import choice, numeric, show_quiz
    show_quiz([
        choice("Which is likelier in a 7-card hand?", "a pair", ["three of a kind"]),
        numeric("How many 7-card hands does a 52-card pack deal?", math.comb(52, 7)),
    ])

* :func:`numeric` asks for a number. It accepts every answer that rounds to the engine's value at
  ``digits`` decimal places (the tolerance is that rounding: half a unit of the last place either
  side), and a fraction such as ``4/52`` typed as it stands.
* :func:`choice` asks to pick one option; numbers among the options (the right one and the wrong
  ones) are formatted here, so a chapter passes computed values, never typed ones.
* :func:`show_quiz` displays them with `jupyterquiz <https://pypi.org/project/jupyterquiz/>`_ (the
  question dicts are jupyterquiz's own format). :func:`quiz_html` is what it displays: one HTML
  block (container, style, script) that works without a kernel and without the network — jupyterquiz's
  fallback that would fetch MathJax from a CDN is taken out (the questions carry no formulas: a ``$``
  is shown as a dollar sign), its style sheet is confined to the quiz, and labels and live regions are
  added so a screen reader and a keyboard can use it.

>>> q = numeric("What is 1/3 to 3 places?", 1 / 3, digits=3)
>>> q["type"], q["answers"][0]["range"]
('numeric', [0.3325, 0.3335])
>>> choice("Pick", 3, [2, 4])["answers"][0]
{'answer': '3', 'correct': True, 'feedback': 'Right.'}
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["choice", "numeric", "quiz_html", "seal", "seal_outputs", "show_quiz"]

Number = numbers.Real
_ids = itertools.count(1)


def restart_numbering() -> None:
    """Number the next quizzes from 1 again: a page starts its own numbering, even in a kernel that ran
    another page before (the book's build keeps one kernel for chapter after chapter).

    >>> restart_numbering(); a = quiz_html([numeric("x?", 1)]); restart_numbering()
    >>> a == quiz_html([numeric("x?", 1)])
    True
    """
    global _ids
    _ids = itertools.count(1)

#: colours of the book (the link blue of book/_ext's CSS and two darker signal colours): white text
#: reads at over 6:1 on each, and each reads at over 6:1 as text on the white page (WCAG AA wants 4.5)
COLORS = {
    "--jq-multiple-choice-bg": "#0b4a9e",
    "--jq-many-choice-bg": "#0b4a9e",
    "--jq-numeric-bg": "#0b4a9e",
    "--jq-string-bg": "#0b4a9e",
    "--jq-mc-button-bg": "#f5f7fa",
    "--jq-mc-button-border": "#8a97a8",
    "--jq-mc-button-inset-shadow": "#555555",
    "--jq-numeric-input-bg": "#ffffff",
    "--jq-numeric-input-label": "#1a1a1a",
    "--jq-numeric-input-shadow": "#999999",
    "--jq-incorrect-color": "#b00020",
    "--jq-correct-color": "#1b6e20",
    "--jq-text-color": "#ffffff",
    "--jq-link-color": "#ffffff",
}

#: sizes of the book's body text rather than jupyterquiz's 16-20 pt; the typed answer dark on white
#: until it is marked; a visible ring where the keyboard is; the feedback on a white ground (it stays
#: readable in the theme's dark mode)
_BOOK_CSS = """
#{id} {{ margin: 1em 0 1.5em 0; }}
#{id} .Quiz {{ font-size: 1rem; line-height: 1.45; margin-left: 0; }}
#{id} .MCButton {{ font-size: 0.95rem; color: #1a1a1a; }}
#{id} .MCButton:focus-within {{ outline: 3px solid #ffb300; outline-offset: 2px; }}
#{id} .MCButton.correctButton, #{id} .MCButton.incorrectButton {{ color: #ffffff; }}
#{id} .InpLabel {{ font-size: 0.95rem; line-height: 2.2rem; float: none; display: block; margin: 0; }}
#{id} .Input-text {{ font-size: 1rem; line-height: 1.4; margin: 0 0 0.4em 0; color: #1a1a1a;
  border: 2px solid #0b4a9e; }}
#{id} .Input-text:focus {{ outline: 3px solid #ffb300; outline-offset: 1px; }}
#{id} .Input-text.correctButton, #{id} .Input-text.incorrectButton {{ color: #ffffff; }}
#{id} .Feedback {{ font-size: 1rem; font-weight: 600; text-align: left; background: #ffffff;
  padding: 0.2em 0.5em; border-radius: 4px; }}
#{id} .Feedback:empty {{ display: none; }}
#{id} .rumino-quiz-hint {{ font-size: 0.9em; opacity: 0.92; }}
@media (prefers-reduced-motion: reduce) {{
  #{id} .correctButton, #{id} .incorrectButton {{ animation-duration: 1ms; }}
}}
"""

#: run once the questions are drawn: tie each typed answer to its label, make every feedback a live
#: region (read out when it changes) and each set of options a labelled radio group
_A11Y_JS = """
(function rumino_quiz_a11y() {
  var root = document.getElementById("%(id)s");
  if (!root || !root.querySelector(".Quiz")) { setTimeout(rumino_quiz_a11y, 100); return; }
  root.querySelectorAll(".Quiz").forEach(function (wrap) {
    var q = wrap.querySelector("[id^=quizQn]");
    var input = wrap.querySelector("input.Input-text");
    var label = wrap.querySelector("label.InpLabel");
    if (input && label) {
      label.htmlFor = input.id;
      label.textContent = "Your answer (then press Enter):";
      input.setAttribute("inputmode", "decimal");
      input.setAttribute("autocomplete", "off");
      if (q) { input.setAttribute("aria-describedby", q.id); }
    }
    var answers = wrap.querySelector(".Answer");
    if (answers && !input) {
      answers.setAttribute("role", "radiogroup");
      if (q) { answers.setAttribute("aria-labelledby", q.id); }
    }
    var fb = wrap.querySelector(".Feedback");
    if (fb) { fb.setAttribute("role", "status"); fb.setAttribute("aria-live", "polite"); }
  });
  root.dataset.ready = "true";
})();
"""


def _text(s: str, what: str) -> str:
    """``s`` checked (a non-empty string) and made safe for jupyterquiz, which sets it as HTML after
    turning ``$…$`` into formulas and ``[a](b)`` into links: both are shown as typed here."""
    if not isinstance(s, str) or not s.strip():
        raise ValueError(f"{what} must be a non-empty string, not {s!r}")
    return html.escape(s.strip(), quote=False).replace("$", "&#36;").replace("[", "&#91;")


def _number(x: Any, what: str) -> Fraction | float:
    """``x`` as an exact Fraction (int, Fraction, numpy integer) or a finite float."""
    if isinstance(x, bool) or not isinstance(x, Number):
        raise TypeError(f"{what} must be a number, not {x!r}")
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{what} must be finite, not {x!r}")
    return x


def _digits(digits: Any) -> int:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise ValueError(f"digits must be an int from 0 to 12, not {digits!r}")
    return digits


def fmt(x: Any, digits: int | None = None) -> str:
    """A number as the quiz shows it: integers with thousands commas, a Fraction as ``a/b`` (or as a
    decimal with ``digits`` places), a float with ``digits`` places (required).

    >>> fmt(133784560), fmt(Fraction(4, 52)), fmt(Fraction(1, 3), 3), fmt(0.25, 2)
    ('133,784,560', '1/13', '0.333', '0.25')
    """
    v = _number(x, "the number")
    if isinstance(v, Fraction) and v.denominator == 1:
        return f"{v.numerator:,}"
    if digits is not None:
        return f"{float(v):,.{_digits(digits)}f}"
    if isinstance(v, Fraction):
        return f"{v.numerator:,}/{v.denominator:,}"
    raise ValueError(f"a float ({x!r}) needs digits= to be shown")


def numeric(question: str, value: Any, *, digits: int = 0, explain: str = "",
            hint: str = "", near: Mapping[Any, str] | None = None) -> dict:
    """A question answered by typing a number: right when it rounds to ``value`` at ``digits`` places.

    ``value`` is the engine's (an int, a Fraction or a float); ``explain`` follows "Right: …" and
    ``hint`` follows "Not yet" on a wrong answer. ``near`` maps likely wrong values (computed, e.g.
    the count with replacement) to what to say when a reader types one; none may round like ``value``.
    The question says how many places to give.

    >>> q = numeric("How many 2-card hands?", 1326, near={2652: "Order does not matter."})
    >>> q["answers"][0]["range"], q["answers"][1]["range"], q["question"]
    ([1325.5, 1326.5], [2651.5, 2652.5], 'How many 2-card hands? <span class="rumino-quiz-hint">(a whole number)</span>')
    >>> numeric("Chance?", Fraction(1, 13), digits=3)["answers"][0]["feedback"]
    'Right: 0.077 (exactly 1/13).'
    >>> numeric("Chance?", Fraction(1, 13))
    Traceback (most recent call last):
    ...
    ValueError: 1/13 rounds to 0 at 0 places: give digits= so the answer means something
    """
    v, d = _number(value, "value"), _digits(digits)
    r = round(Fraction(v), d)
    if r == 0 and v != 0:
        raise ValueError(f"{fmt(v) if isinstance(v, Fraction) else v} rounds to 0 at {d} places: "
                         "give digits= so the answer means something")

    def interval(x: Fraction | float) -> list[float]:
        c, half = round(Fraction(x), d), Fraction(1, 2 * 10 ** d)
        return [float(c - half), float(c + half)]  # jupyterquiz's range is [low, high)

    shown = fmt(v, d if d or not (isinstance(v, Fraction) and v.denominator == 1) else None)
    # the exact fraction too, when it is short enough to read
    exact = (f" (exactly {fmt(v)})" if isinstance(v, Fraction) and 1 < v.denominator < 100_000 else "")
    right = f"Right: {shown}{exact}." + (f" {explain.strip()}" if explain else "")
    places = ("a whole number" if d == 0
              else f"to {d} decimal place{'s' * (d > 1)}; a fraction such as 4/52 is fine too")
    answers = [{"type": "range", "range": interval(v), "correct": True,
                "feedback": _text(right, "explain")}]
    for x, say in (near or {}).items():
        w = _number(x, "a near value")
        if round(Fraction(w), d) == r:
            raise ValueError(f"the near value {x!r} rounds like the answer {value!r} at {d} places")
        answers.append({"type": "range", "range": interval(w), "correct": False,
                        "feedback": _text(f"Not yet. {say}", "a near value's feedback")})
    wrong = "Not yet: try again." + (f" Hint: {hint.strip()}" if hint else "")
    answers.append({"type": "default", "feedback": _text(wrong, "hint")})
    return {"question": f'{_text(question, "question")} <span class="rumino-quiz-hint">({places})</span>',
            "type": "numeric", "digits": d, "answers": answers}


def choice(question: str, correct: Any, wrong: Sequence[Any] | Mapping[Any, str], *,
           digits: int | None = None, explain: str = "") -> dict:
    """A question with one right option among wrong ones (shown in a random order).

    Options are strings or numbers (formatted by :func:`fmt` with ``digits``). ``wrong`` is a list, or
    a mapping of each wrong option to what to say when it is picked. Two options that read the same
    are refused, so a computed wrong value that happens to equal the right one is caught.

    >>> q = choice("Likelier?", "a pair", {"three of a kind": "Rarer: fewer ways."})
    >>> [(a["answer"], a["correct"]) for a in q["answers"]]
    [('a pair', True), ('three of a kind', False)]
    >>> choice("Which is 1/3?", Fraction(1, 3), [0.3334], digits=3)
    Traceback (most recent call last):
    ...
    ValueError: two options read the same: '0.333'
    """
    if isinstance(wrong, (str, bytes)) or not isinstance(wrong, (Sequence, Mapping)):
        raise TypeError(f"wrong must be a list or a mapping of options, not {wrong!r}")
    says = dict(wrong) if isinstance(wrong, Mapping) else {w: "" for w in wrong}
    if not 1 <= len(says) <= 7 or len(says) != len(wrong):
        raise ValueError(f"give 1 to 7 distinct wrong options, not {len(wrong)}")

    def label(x: Any) -> str:
        return x.strip() if isinstance(x, str) else fmt(x, digits)

    options = [(label(correct), True, f"Right. {explain.strip()}".strip())]
    options += [(label(w), False, f"Not yet. {say.strip()}".strip() if say else "Not yet: try again.")
                for w, say in says.items()]
    labels = [o[0] for o in options]
    for lab in labels:
        if labels.count(lab) > 1:
            raise ValueError(f"two options read the same: {lab!r}")
    return {"question": _text(question, "question"), "type": "multiple_choice",
            "answers": [{"answer": _text(lab, "an option"), "correct": ok, "feedback": _text(say, "feedback")}
                        for lab, ok, say in options]}


_CDN_BRANCH = re.compile(r"console\.log\('WARNING: Trying to force load MathJax 3'\);.*?\}\)\(\);", re.DOTALL)


def _script_offline(script: str) -> str:
    """jupyterquiz's script without its MathJax code: the fallback that loads MathJax from a CDN when a
    page's MathJax is not ready yet (twice), and the typesetting calls (our questions hold no formulas)."""
    script, n = _CDN_BRANCH.subn("", script)
    script = script.replace("typeof MathJax != 'undefined'", "false").replace(
        "typeof MathJax !== 'undefined'", "false")
    if n != 2 or "cdn." in script or "typeof MathJax" in script:
        raise RuntimeError("jupyterquiz's script changed: check rumino.classroom.quiz._script_offline")
    return script


def quiz_html(questions: Sequence[dict], *, shuffle: bool = True, sealed: bool = False) -> str:
    """The HTML block of a quiz: jupyterquiz's container, its style and its script, offline.

    ``sealed=True`` is the student edition's quiz: no answer and no feedback can be read in the page's
    source (see :func:`seal`); the page marks a typed or picked answer as the plain quiz does.

    >>> page = quiz_html([numeric("Two plus two?", 4)])
    >>> "<script>" in page and "cdn." not in page and "https://" not in page
    True
    >>> "Right" in page, "Right" in quiz_html([numeric("Two plus two?", 4)], sealed=True)
    (True, False)
    """
    from jupyterquiz.dynamic.loader import load_questions_script
    from jupyterquiz.dynamic.renderer import build_script, build_styles, render_div

    if not questions or not all(isinstance(q, dict) and q.get("type") in ("numeric", "multiple_choice")
                                for q in questions):
        raise ValueError("give a non-empty list of questions made by numeric() or choice()")
    body = json.dumps(list(questions), sort_keys=True)
    # a stable id (the same page twice is the same HTML) that is a JavaScript name: jupyterquiz's script
    # refers to its container by it
    digest = hashlib.sha256(body.encode()).hexdigest()[:10]
    div_id = "RuminoQuiz" + "".join(chr(ord("a") + int(c, 16)) for c in digest) + str(next(_ids))
    shown, sealed_js = list(questions), ""
    if sealed:
        shown, data = seal(questions, salt=digest)
        sealed_js = _SEAL_JS % {"id": div_id, "seal": json.dumps(data, sort_keys=True), "sha256": _SHA256_JS}
    prefix, static, _ = load_questions_script(shown, div_id)
    div = render_div(div_id, False, shuffle, False, 1_000_000, 760, 6, "left")
    div = div.replace("<div ", '<div class="rumino-quiz" ', 1)
    css = build_styles(div_id, COLORS)[len("<style>"):-len("</style>")]
    variables, sheet = css.split("}\n\n", 1)
    styles = ("<style>" + variables + "}\n" + _scope(sheet, f"#{div_id}")
              + _BOOK_CSS.format(id=div_id) + "</style>")
    script = _script_offline(build_script(prefix, static, "", div_id, True))
    return (f"{div}</div>{styles}<script>{script}\n{_A11Y_JS % {'id': div_id}}{sealed_js}</script>")


#: the student edition's marking (see :func:`seal`): clicks and Enter are caught before jupyterquiz's own
#: handlers, the answer is hashed as the engine hashed the right one, and its feedback is decrypted only
#: by the answer it belongs to
_SEAL_JS = r"""
(function rumino_quiz_seal() {
  var root = document.getElementById("%(id)s");
  if (!root || !root.querySelector(".Quiz")) { setTimeout(rumino_quiz_seal, 100); return; }
  var seal = %(seal)s;
  %(sha256)s
  var utf8 = function (s) { return new TextEncoder().encode(s); };
  var hex = function (b) { return Array.from(b, function (x) { return (x + 256).toString(16).slice(1); }).join(""); };
  function open(ident, box) {
    var raw = atob(box), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 32) {
      var k = sha256(utf8(seal.salt + "|k|" + ident + "|" + (i / 32)));
      for (var j = 0; j < 32 && i + j < raw.length; j++) { out[i + j] = raw.charCodeAt(i + j) ^ k[j]; }
    }
    return JSON.parse(new TextDecoder().decode(out));
  }
  function decimal(s) {   /* "-1.25e2" as an exact fraction [numerator, denominator] of BigInts */
    var m = /^([+-]?)([0-9]*)(?:[.]([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(s.trim());
    if (!m || (m[2] + (m[3] || "")) === "") { return null; }
    var scale = (m[3] || "").length - parseInt(m[4] || "0", 10);
    if (Math.abs(scale) > 400) { return null; }
    var num = BigInt(m[2] + (m[3] || "")) * (m[1] === "-" ? -1n : 1n);
    return scale > 0 ? [num, 10n ** BigInt(scale)] : [num * 10n ** BigInt(-scale), 1n];
  }
  function rounded(typed, digits) {   /* the whole number of units of the last place nearest to it */
    var parts = typed.split("/"), x = decimal(parts[0]);
    if (!x || parts.length > 2) { return null; }
    if (parts.length === 2) {
      var y = decimal(parts[1]);
      if (!y || y[0] === 0n) { return null; }
      x = [x[0] * y[1], x[1] * y[0]];
      if (x[1] < 0n) { x = [-x[0], -x[1]]; }
    }
    var n = 2n * x[0] * 10n ** BigInt(digits) + x[1], d = 2n * x[1], q = n / d;
    if (n %% d !== 0n && n < 0n) { q -= 1n; }
    return digits + ":" + q.toString();
  }
  function mark(wrap, control, ok, feedback) {
    var fb = wrap.querySelector(".Feedback");
    fb.innerHTML = feedback;
    fb.className = "Feedback " + (ok ? "correct" : "incorrect");
    fb.style.display = "block";
    control.classList.remove("correctButton", "incorrectButton");
    control.classList.add(ok ? "correctButton" : "incorrectButton");
  }
  root.addEventListener("click", function (event) {
    var label = event.target.closest && event.target.closest("label.MCButton");
    if (!label || !root.contains(label)) { return; }
    event.stopPropagation();   /* jupyterquiz's own check would find no answer marked right */
    var wrap = label.closest(".Quiz");
    var text = label.querySelector("span").textContent.replace(/\s+/g, " ").trim();
    var got = open(wrap.dataset.qnum + "|c|" + text, label.dataset.feedback);
    wrap.querySelectorAll("label.MCButton").forEach(function (l) { l.className = "MCButton"; });
    mark(wrap, label, got.ok, got.fb);
  }, true);
  root.addEventListener("keypress", function (event) {
    var box = event.target;
    if (event.keyCode !== 13 || !box.matches || !box.matches("input.Input-text")) { return; }
    event.stopPropagation();
    event.preventDefault();
    box.blur();
    var wrap = box.closest(".Quiz"), q = seal.q[wrap.dataset.qnum];
    var ident = wrap.dataset.qnum + "|n|" + rounded(box.value, q.digits);
    var h = hex(sha256(utf8(seal.salt + "|h|" + ident)));
    var hit = q.answers.filter(function (a) { return a.h === h; })[0];
    var got = hit ? open(ident, hit.p) : {ok: false, fb: q.otherwise};
    box.className = "Input-text";
    mark(wrap, box, got.ok, got.fb);
  }, true);
  root.dataset.sealed = "true";
})();
"""


def _sha256_constants() -> tuple[list[int], list[int]]:
    """SHA-256's constants (FIPS 180-4, sections 4.2.2 and 5.3.3) from their definition, exactly: the first 32 bits
    of the fractional parts of the cube roots of the first 64 primes, and of the square roots of the
    first 8."""
    primes = [p for p in range(2, 312) if all(p % q for q in range(2, math.isqrt(p) + 1))]

    def icbrt(n: int) -> int:
        x = 1 << ((n.bit_length() + 2) // 3)
        while True:
            y = (2 * x + n // (x * x)) // 3
            if y >= x:
                return x
            x = y

    k = [icbrt(p << 96) & 0xFFFFFFFF for p in primes[:64]]
    h = [math.isqrt(p << 64) & 0xFFFFFFFF for p in primes[:8]]
    return k, h


_K, _H = _sha256_constants()

#: SHA-256 of a byte array, synchronous (``crypto.subtle`` exists only on https and local pages)
_SHA256_JS = """function sha256(bytes) {
    var K = %s, H = %s.slice();
    var l = bytes.length, n = ((l + 72) >> 6) << 6, m = new Uint8Array(n), v = new DataView(m.buffer);
    m.set(bytes); m[l] = 0x80;
    v.setUint32(n - 8, Math.floor(l / 536870912)); v.setUint32(n - 4, (l * 8) >>> 0);
    var w = new Int32Array(64), r = function (x, c) { return (x >>> c) | (x << (32 - c)); };
    for (var o = 0; o < n; o += 64) {
      for (var i = 0; i < 64; i++) {
        w[i] = i < 16 ? v.getUint32(o + 4 * i) : (w[i - 16] + (r(w[i - 15], 7) ^ r(w[i - 15], 18) ^ (w[i - 15] >>> 3))
               + w[i - 7] + (r(w[i - 2], 17) ^ r(w[i - 2], 19) ^ (w[i - 2] >>> 10))) | 0;
      }
      var a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
      for (i = 0; i < 64; i++) {
        var t1 = (h + (r(e, 6) ^ r(e, 11) ^ r(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
        var t2 = ((r(a, 2) ^ r(a, 13) ^ r(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      H = [H[0] + a, H[1] + b, H[2] + c, H[3] + d, H[4] + e, H[5] + f, H[6] + g, H[7] + h].map(function (x) { return x | 0; });
    }
    var out = new Uint8Array(32), ov = new DataView(out.buffer);
    H.forEach(function (x, i) { ov.setUint32(4 * i, x >>> 0); });
    return out;
  }""" % (json.dumps(_K), json.dumps(_H))


def _rounded(x: Fraction, digits: int) -> str:
    """The units of the last place nearest ``x`` (a half rounds up), as the sealed page computes it."""
    return f"{digits}:{math.floor(x * 10 ** digits + Fraction(1, 2))}"


def _box(salt: str, ident: str, payload: dict) -> str:
    """``payload`` as JSON, XORed with SHA-256 blocks of the salt and ``ident`` (the answer), base64."""
    raw = json.dumps(payload, sort_keys=True).encode()
    key = b"".join(hashlib.sha256(f"{salt}|k|{ident}|{i}".encode()).digest() for i in range(len(raw) // 32 + 1))
    return base64.b64encode(bytes(a ^ b for a, b in zip(raw, key))).decode()


def _unbox(salt: str, ident: str, box: str) -> dict:
    """The inverse of :func:`_box` (XOR is its own inverse); for tests."""
    raw = base64.b64decode(box)
    key = b"".join(hashlib.sha256(f"{salt}|k|{ident}|{i}".encode()).digest() for i in range(len(raw) // 32 + 1))
    return json.loads(bytes(a ^ b for a, b in zip(raw, key)))


def _option_text(answer_html: str) -> str:
    """An option as the page reads it back (the text of its label, spaces collapsed)."""
    return " ".join(html.unescape(answer_html).split())


def seal(questions: Sequence[dict], *, salt: str) -> tuple[list[dict], dict]:
    """The questions with no answer in them, and what the page needs to mark an answer without showing one.

    A typed number is rounded to the question's places (``digits``) and hashed with the salt; the page
    holds only the salted SHA-256 of each number it knows (the right one, and the likely wrong ones that
    get their own feedback), and each feedback encrypted by its own number (XOR with SHA-256 blocks).
    An option's feedback, and whether it is right, are encrypted by the option's text. Nothing readable
    says which option or number is right; a reader who types or picks it is told so.

    >>> shown, data = seal([numeric("Two plus two?", 4), choice("Pick", "a", ["b"])], salt="s")
    >>> shown[0]["answers"], [a["correct"] for a in shown[1]["answers"]]
    ([{'type': 'default', 'feedback': 'Not yet: try again.'}], [False, False])
    >>> ident = "0|n|" + _rounded(Fraction(4), 0)
    >>> data["q"][0]["answers"][0]["h"] == hashlib.sha256(("s|h|" + ident).encode()).hexdigest()
    True
    >>> _unbox("s", ident, data["q"][0]["answers"][0]["p"])
    {'fb': 'Right: 4.', 'ok': True}
    >>> _unbox("s", "1|c|b", shown[1]["answers"][1]["feedback"])
    {'fb': 'Not yet: try again.', 'ok': False}
    """
    shown, data = [], {"salt": salt, "q": []}
    for i, q in enumerate(questions):
        if q["type"] == "numeric":
            if "digits" not in q:
                raise ValueError(f"question {i + 1} was not made by numeric(): it has no digits")
            d, unit = q["digits"], Fraction(1, 10 ** q["digits"])
            answers, otherwise = [], "Not yet: try again."
            for a in q["answers"]:
                if "range" not in a:
                    otherwise = a.get("feedback", otherwise)
                    continue
                lo, hi = a["range"]
                n = round((lo + hi) / 2 * 10 ** d)  # the range is the centre ± half a unit of the last place
                if [float(n * unit - unit / 2), float(n * unit + unit / 2)] != [lo, hi]:
                    raise ValueError(f"question {i + 1}: the range {a['range']} is not a number ± half a unit")
                ident = f"{i}|n|{_rounded(n * unit, d)}"
                answers.append({"h": hashlib.sha256(f"{salt}|h|{ident}".encode()).hexdigest(),
                                "p": _box(salt, ident, {"ok": bool(a["correct"]), "fb": a["feedback"]})})
            data["q"].append({"digits": d, "answers": answers, "otherwise": otherwise})
            shown.append({**{k: v for k, v in q.items() if k != "answers"},
                          "answers": [{"type": "default", "feedback": otherwise}]})
        else:
            data["q"].append({})
            shown.append({**q, "answers": [
                {"answer": a["answer"], "correct": False,
                 "feedback": _box(salt, f"{i}|c|{_option_text(a['answer'])}",
                                  {"ok": bool(a["correct"]), "fb": a.get("feedback", "")})}
                for a in q["answers"]]})
    return shown, data


_QUIZ_START = re.compile(r'^<div class="rumino-quiz" id="\w+"')


def seal_outputs(nb: Any) -> int:
    """Seal every quiz shown in the executed notebook ``nb`` (in place), as the student edition does; the
    number sealed. The questions are read back from the quiz's own output.

    >>> nb = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data",
    ...       "data": {"text/html": quiz_html([numeric("Two plus two?", 4)]), "text/plain": "1."}}]}]}
    >>> seal_outputs(nb), "Right" in nb["cells"][0]["outputs"][0]["data"]["text/html"]
    (1, False)
    """
    count = 0
    for cell in nb.get("cells", ()):
        for out in cell.get("outputs", ()) if cell.get("cell_type") == "code" else ():
            page = out.get("data", {}).get("text/html")
            page = "".join(page) if isinstance(page, list) else page
            if not page or not _QUIZ_START.match(page):
                continue
            m = re.search(r"var questions\w+\s*=\s*", page)
            questions, _ = json.JSONDecoder().raw_decode(page[m.end():])
            out["data"]["text/html"] = quiz_html(questions, sealed=True)
            count += 1
    return count


def _scope(css: str, scope: str) -> str:
    """Every rule of ``css`` confined to ``scope``; rules inside ``@media`` too, ``@keyframes`` left whole.

    >>> _scope(".a, .b { x: 1; } @media (w) { .c { y: 2; } } @keyframes k { 100% { z: 3; } }", "#q")
    '#q .a, #q .b { x: 1; } @media (w) { #q .c { y: 2; } } @keyframes k { 100% { z: 3; } }'
    """
    out, stack, at = [], [], 0
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    while at < len(css):
        brace = re.compile(r"[{}]").search(css, at)
        if brace is None:
            out.append(css[at:])
            break
        head = css[at:brace.start()]
        if brace.group() == "{":
            sel = head.strip()
            inside_keyframes = any(s == "keyframes" for s in stack)
            if sel.startswith("@"):
                stack.append("keyframes" if "keyframes" in sel else "at")
                out.append(head)
            else:
                stack.append("rule")
                if inside_keyframes or not sel:
                    out.append(head)
                else:
                    lead = head[:len(head) - len(head.lstrip())]
                    out.append(lead + ", ".join(f"{scope} {s.strip()}" for s in sel.split(",")) + " ")
            out.append("{")
        else:
            out.append(head + "}")
            if stack:
                stack.pop()
        at = brace.end()
    return "".join(out)


class _Quiz:
    """What :func:`show_quiz` displays: the HTML for the book and JupyterLab, plain text elsewhere."""

    def __init__(self, questions: Sequence[dict]):
        self.questions = list(questions)
        self.html = quiz_html(self.questions)

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        lines = []
        for i, q in enumerate(self.questions, 1):
            text = html.unescape(re.sub(r"<[^>]+>", "", q["question"]))
            lines.append(f"{i}. {text}")
            for a in q["answers"] if q["type"] == "multiple_choice" else ():
                lines.append(f"   - {html.unescape(a['answer'])}")
        return "\n".join(lines)


def show_quiz(questions: Sequence[dict]) -> None:
    """Display a quiz in the notebook (the book's chapters call it in a cell whose input is hidden)."""
    from IPython.display import display

    display(_Quiz(questions))
