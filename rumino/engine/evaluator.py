"""The one hand evaluator: minimum deadwood and the best discards after a draw, cached per hand.

Every game, bot, widget and CLI command asks its deadwood questions here, so a
question costs one search. The work is done by the compiled kernels of
:mod:`rumino.hand.kernels`; they are checked against the reference search
(:mod:`rumino.hand.arrange`) on a few hands when first loaded. A kernel that does
not import or disagrees **raises** :class:`~rumino.errors.KernelError` — it
never falls back silently to the slow search. Setting the environment variable
``RUMINO_NO_KERNELS=1`` selects the reference search on purpose (tests of the
fallback, machines without numba).

>>> from rumino.cards import parse_hand
>>> from rumino.melds import RUMINO_MELDS
>>> ev = evaluator_for(RUMINO_MELDS)
>>> ev.deadwood(parse_hand("2c 3c 4c 9d 9h 9s 7d")), ev.after_draw(parse_hand("2c 3c 4c 9d 9h 9s 7d 7c"))
(7, (7, (19, 32)))
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any, Iterable

from rumino.cards import parse_hand
from rumino.errors import KernelError
from rumino.hand.arrange import after_draw, min_deadwood
from rumino.melds import RUMINO_MELDS, MeldRules

_KERNELS: list = []  # [module or None], filled on first use


def _load_kernels():
    if os.environ.get("RUMINO_NO_KERNELS"):
        return None  # the reference search, chosen on purpose
    try:
        from rumino.hand import kernels  # numba: heavy, and a failure to load is reported, so imported here
    except Exception as err:  # noqa: BLE001 - reported, not swallowed
        raise KernelError(f"the compiled evaluator (rumino.hand.kernels) does not load: {type(err).__name__}: {err}. "
                          f"Set RUMINO_NO_KERNELS=1 to use the slow reference search instead.") from err
    try:
        for text in ("7h 8h 9h 10h 5c 5d 5s", "JK JK 5h 9c 9d 9s 2c", "Qs Ks As 2d 3d 4d 7c"):
            h = parse_hand(text)
            got, want = kernels.min_deadwood_fast(h, RUMINO_MELDS), min_deadwood(h, RUMINO_MELDS)
            if got != want:
                raise KernelError(f"the compiled evaluator gives deadwood {got} for {text}, the reference "
                                  f"search {want}.")
        h = parse_hand("2c 3c 4c 9d 9h 9s 8d 7d")
        dv = after_draw(h, RUMINO_MELDS, forbidden=[h[0]])
        got = kernels.best_discards_fast(h, RUMINO_MELDS, (h[0],))
        if got != (dv.deadwood, tuple(sorted(dv.discards))):
            raise KernelError(f"the compiled evaluator's best discards {got} differ from the reference search.")
    except KernelError:
        raise
    except Exception as err:  # noqa: BLE001 - a numba compilation error, reported
        raise KernelError(f"the compiled evaluator (rumino.hand.kernels) fails: {type(err).__name__}: {err}. "
                          f"Set RUMINO_NO_KERNELS=1 to use the slow reference search instead.") from err
    return kernels


def kernels_module() -> ModuleType | None:
    """The compiled :mod:`rumino.hand.kernels`, or ``None`` when ``RUMINO_NO_KERNELS`` is set.

    Raises :class:`KernelError` if the kernels are wanted but broken.
    """
    if not _KERNELS:
        _KERNELS.append(_load_kernels())
    return _KERNELS[0]


class Evaluator:
    """Deadwood and value after a draw under one set of meld rules, cached per hand.

    ``rules`` is a :class:`~rumino.melds.MeldRules` or any game rules object with a
    ``meld_rules`` attribute. Games subclass it to cache their own questions (Rumino:
    the cards that complete a rumino).
    """

    _LIMIT = 60_000  # entries per cache before it is cleared (bounds memory to some tens of MB)

    def __init__(self, rules: MeldRules | Any) -> None:
        self.rules: Any = rules
        self.meld_rules: MeldRules = rules if isinstance(rules, MeldRules) else rules.meld_rules
        self.values = [int(v) for v in self.meld_rules.values]  # deadwood value by card id
        self._dw: dict = {}
        self._ad: dict = {}
        k = kernels_module()
        self.kernels = k
        if k is not None:
            k.rule_tables(self.meld_rules)

    def clear(self) -> None:
        """Forget every cached value (benchmarks time a cold start with it)."""
        self._dw.clear()
        self._ad.clear()

    def deadwood(self, cards: Iterable[int]) -> int:
        """Minimum deadwood of ``cards`` (rules §0.3)."""
        key = tuple(sorted(cards))
        v = self._dw.get(key)
        if v is None:
            if self.kernels is not None:
                v = self.kernels.min_deadwood_fast(key, self.meld_rules)
            else:
                v = min_deadwood(key, self.meld_rules)
            if len(self._dw) > self._LIMIT:
                self._dw.clear()
            self._dw[key] = v
        return v

    def after_draw(self, cards: Iterable[int], forbidden: int | None = None) -> tuple[int, tuple[int, ...]]:
        """``(value, best discards)`` of a hand one card over, never discarding ``forbidden``."""
        key = (tuple(sorted(cards)), forbidden)
        hit = self._ad.get(key)
        if hit is None:
            ban = () if forbidden is None else (forbidden,)
            if self.kernels is not None:
                hit = self.kernels.best_discards_fast(key[0], self.meld_rules, ban)
            else:
                dv = after_draw(key[0], self.meld_rules, forbidden=ban)
                hit = (dv.deadwood, tuple(sorted(dv.discards)))
            if len(self._ad) > self._LIMIT:
                self._ad.clear()
            self._ad[key] = hit
        return hit


_EVALUATORS: dict = {}
_LAST: list = [None, None, None]


def evaluator_for(rules: MeldRules | Any, cls: type[Evaluator] = Evaluator) -> Evaluator:
    """The shared evaluator of ``rules`` (one per distinct rules value and evaluator class)."""
    if _LAST[0] is rules and _LAST[1] is cls:
        return _LAST[2]
    key = (cls, rules)
    ev = _EVALUATORS.get(key)
    if ev is None:
        if len(_EVALUATORS) > 64:
            _EVALUATORS.clear()
        ev = _EVALUATORS[key] = cls(rules)
    _LAST[0], _LAST[1], _LAST[2] = rules, cls, ev
    return ev


__all__ = ["Evaluator", "evaluator_for", "kernels_module"]
