"""How a graded assignment marks an answer: the checks its test cells call.

``rumino book assignments`` writes, for every part of an exercise's answer, a visible test (is the
answer there, is it the right kind of thing) and a hidden test (is it right). Both call this module,
so a course marks every answer the same way and says in words what is wrong.

A hidden test compares with a *spec*, a small tuple written into the cell when the course is made:

* ``("exact", want)``: whole numbers, ``Fraction``\\ s, text, and containers of them. A right value
  typed as a decimal earns the marks too: a float within half a unit of the fourth significant
  figure of an exact fraction (``0.3497`` for 378/1081), and a whole number written ``2398.0``.
  Text is compared without case, accents or extra spaces.
* ``("near", want, tol)``: within ``tol`` either side (a float answer, a "roughly" answer, a
  simulated answer graded against the exact value with the spread its sample size allows).
* ``("interval", centre, width, rel)``: a pair ``(lo, hi)`` around the student's own estimate
  ``centre`` whose width is within ``rel`` of ``width``, the width a 95% interval of that sample has.

>>> from fractions import Fraction
>>> check(Fraction(378, 1081), ("exact", Fraction(378, 1081))), check(0.3497, ("exact", Fraction(378, 1081)))
(True, True)
>>> check(0.35, ("exact", Fraction(378, 1081))), check(2400, ("near", 2398, 48))
(False, True)
>>> check((0.48, 0.52), ("interval", 0.5, 0.0392, 0.25))
True
"""

from __future__ import annotations

import math
import numbers
import unicodedata
from fractions import Fraction

__all__ = ["check", "exact", "near", "kind_problem", "SIGNIFICANT"]

SIGNIFICANT = 4  # a decimal is right when it agrees with the exact value to this many significant figures


def _number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _as_exact(x):
    """``x`` as an int or a Fraction when it is one (numpy integers included), else ``None``."""
    if isinstance(x, bool):
        return None
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    return None


def _decimal_matches(got: float, want: Fraction) -> bool:
    """``got`` is ``want`` written as a decimal: to full precision, or rounded to SIGNIFICANT figures.

    >>> _decimal_matches(0.3497, Fraction(378, 1081)), _decimal_matches(0.3496, Fraction(378, 1081))
    (True, False)
    """
    if not math.isfinite(got):
        return False
    w = float(want)
    if math.isclose(got, w, rel_tol=1e-9, abs_tol=1e-15):
        return True
    if want == 0:
        return False
    step = 10.0 ** (math.floor(math.log10(abs(w))) - (SIGNIFICANT - 1))  # one unit of the last figure kept
    return abs(got - w) <= step / 2 * (1 + 1e-9)


def _text(s: str) -> str:
    plain = unicodedata.normalize("NFKD", s)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def exact(got: object, want: object) -> bool:
    """``got`` is ``want``: exactly, or as a decimal (see the module's docstring), part by part.

    >>> exact((0.3333, 2.0), [Fraction(1, 3), 2]), exact({"a": "Wiener Rummy"}, {"a": " wiener  rummy"})
    (True, True)
    >>> exact(True, 1), exact("German Romme", "German Rommé")
    (False, True)
    """
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(got, bool) and isinstance(want, bool) and got is want
    if isinstance(want, str):
        return isinstance(got, str) and _text(got) == _text(want)
    w = _as_exact(want)
    if w is not None:
        g = _as_exact(got)
        if g is not None:
            return g == w
        if isinstance(w, int):  # a count typed as a float: the same whole number (2398.0), nothing rounded
            return _number(got) and math.isfinite(float(got)) and float(got) == int(float(got)) \
                and math.isclose(float(got), w, rel_tol=1e-12)
        return _number(got) and _decimal_matches(float(got), w)
    if _number(want):  # a float the engine computed: compared to full precision
        return _number(got) and math.isclose(float(got), float(want), rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(want, (set, frozenset)):
        if not isinstance(got, (set, frozenset, list, tuple)):
            return False
        g = list(got)
        return len(g) == len(set(map(_key, g))) == len(want) and {_key(x) for x in g} == {_key(x) for x in want}
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(exact(g, w) for g, w in zip(got, want)))
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return False
        keys = {_key(k): k for k in got}
        return (len(keys) == len(got) == len(want)
                and all(_key(k) in keys and exact(got[keys[_key(k)]], v) for k, v in want.items()))
    return got == want


def _key(x):
    """What makes two members of a set (or two keys) the same: text without case or accents, numbers exactly."""
    if isinstance(x, str):
        return _text(x)
    e = _as_exact(x)
    return e if e is not None else x


def near(got: object, want: object, tol: float) -> bool:
    """``got`` within ``tol`` of ``want`` (a number, or lists, tuples and dicts of numbers).

    >>> near(2400, 2398, 48), near([0.5, 0.25], (0.51, 0.24), 0.02), near("0.5", 0.5, 1)
    (True, True, False)
    """
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(near(g, w, tol) for g, w in zip(got, want)))
    if isinstance(want, dict):
        return (isinstance(got, dict) and set(map(_key, got)) == set(map(_key, want))
                and all(near(got[k], want[k], tol) for k in want if k in got))
    if not _number(got) or not math.isfinite(float(got)):
        return False
    return abs(float(got) - float(want)) <= tol * (1 + 1e-9) + 1e-12


def _interval(got, centre, width: float, rel: float) -> bool:
    if not (isinstance(got, (list, tuple)) and len(got) == 2 and all(map(_number, got))):
        return False
    lo, hi = map(float, got)
    if not (math.isfinite(lo) and math.isfinite(hi)) or not lo <= hi:
        return False
    if _number(centre) and not lo <= float(centre) <= hi:
        return False
    return abs((hi - lo) - width) <= rel * width


def check(got: object, spec: tuple, centre: float | None = None) -> bool:
    """Mark ``got`` against a spec (see the module's docstring); ``False`` for anything else, never an error.
    An ``interval`` spec whose centre is ``None`` takes ``centre``: the student's own estimate."""
    try:
        how = spec[0]
        if how == "exact":
            return exact(got, spec[1])
        if how == "near":
            return near(got, spec[1], spec[2])
        if how == "interval":
            return _interval(got, spec[1] if spec[1] is not None else centre, spec[2], spec[3])
    except (TypeError, ValueError, ArithmeticError, KeyError, IndexError):
        return False
    raise ValueError(f"unknown kind of check {spec[0]!r}: exact, near or interval")


# ---------------------------------------------------------------------------- what the visible tests say


def _shown(x) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "…"


def _kind_name(x) -> str:
    if isinstance(x, bool):
        return "True or False"
    if isinstance(x, str):
        return "text"
    if _as_exact(x) is not None:
        return "a whole number" if isinstance(_as_exact(x), int) else "a Fraction"
    if _number(x):
        return "a decimal number"
    return {list: "a list", tuple: "a tuple", dict: "a dict", set: "a set", frozenset: "a set"}.get(
        type(x), f"a {type(x).__name__}")


def kind_problem(got: object, want: object, *, chance: bool = False, keys_given: bool = False) -> str | None:
    """What is wrong with the *kind* of ``got``, given the kind of the right answer ``want``; ``None`` when
    the kind is right. It never says whether the value is right, and never gives away a list's length or a
    dict's keys unless the exercise states them (``keys_given``). With ``chance``, a number must lie between
    0 and 1.

    >>> kind_problem("0.35", Fraction(378, 1081))
    "should be a number (a Fraction or a decimal); it is text: '0.35'"
    >>> kind_problem(35, Fraction(378, 1081), chance=True)
    'is 35, but a chance lies between 0 and 1 (35% is written 0.35)'
    >>> kind_problem(2398.5, 2398)
    'should be a whole number; it is 2398.5'
    >>> kind_problem([1, 2], (1, 2, 3))
    'should be a tuple of 3 values, such as (a, b, c); it is a list of 2'
    """
    if isinstance(want, bool):
        return None if isinstance(got, bool) else f"should be True or False; it is {_kind_name(got)}: {_shown(got)}"
    if isinstance(want, str):
        return None if isinstance(got, str) else f"should be text in quotes; it is {_kind_name(got)}: {_shown(got)}"
    if _number(want):
        if not _number(got):
            what = "a whole number" if isinstance(_as_exact(want), int) else (
                "a number (a Fraction or a decimal)" if _as_exact(want) is not None else "a decimal number")
            if got is None:
                return f"should be {what}; it is None (did the cell assign it?)"
            return f"should be {what}; it is {_kind_name(got)}: {_shown(got)}"
        g = float(got)
        if not math.isfinite(g):
            return f"is {got!r}, not a finite number"
        if isinstance(_as_exact(want), int) and _as_exact(got) is None and g != int(g):
            return f"should be a whole number; it is {got!r}"
        if chance and not 0 <= g <= 1:
            pct = f" ({g:g}% is written {g / 100:g})" if 1 < g <= 100 else ""
            return f"is {got!r}, but a chance lies between 0 and 1{pct}"
        return None
    if isinstance(want, tuple):
        n = len(want)
        if not isinstance(got, (tuple, list)) or len(got) != n:
            example = "(" + ", ".join("abcdefgh"[:n]) + ")"
            have = f"{_kind_name(got)} of {len(got)}" if isinstance(got, (tuple, list)) else _kind_name(got)
            return f"should be a tuple of {n} values, such as {example}; it is {have}"
        return None
    if isinstance(want, list):
        return None if isinstance(got, (list, tuple)) else f"should be a list; it is {_kind_name(got)}: {_shown(got)}"
    if isinstance(want, (set, frozenset)):
        return None if isinstance(got, (set, frozenset, list, tuple)) else (
            f"should be a set such as {{'a', 'b'}}; it is {_kind_name(got)}: {_shown(got)}")
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"should be a dict such as {{key: value}}; it is {_kind_name(got)}: {_shown(got)}"
        if keys_given:
            missing = [k for k in want if _key(k) not in {_key(g) for g in got}]
            if missing:
                return f"should have the keys {', '.join(map(repr, want))}; {missing[0]!r} is missing"
        return None
    return None
