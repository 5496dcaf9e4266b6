"""Oklahoma Gin: Gin Rummy whose first upcard sets the hand's knock limit and may double it (rules §6.1).

Everything is Gin's (rules §6) but three points, each decided where the sources differ:

* O1 the upcard turned at the deal sets the knock limit of the whole hand, whoever takes it: its pip value,
  a picture card 10, an ace 0, so an ace means gin only (Bicycle's Oklahoma Gin and OpenSpiel's
  ``gin_rummy`` with ``oklahoma``; some home rules let an ace knock with 1). ``knock_max_deadwood`` caps it.
* O2 ``spades_double``: a spade upcard doubles the hand's points, the gin or undercut bonus included
  (Bicycle: "all scores accruing from that deal"); rulebooks differ on the boxes (rummy-games.com), so a hand
  won is still one box here, and the game bonus is not doubled. OpenSpiel never doubles.
* O3 the game goes to 150 points, not 100 (rummyrulebook.com: "generally set at 150").

>>> [(format_card(g.upcard), g.view(g.to_act).knock_limit, g.doubled)
...  for g in (OklahomaGame.new(OKLAHOMA, 2, seed=s) for s in (2, 3, 10))]
[('Ac', 0, False), ('8h', 8, False), ('3s', 3, True)]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from rumino.cards import format_card, rank_of, suit_of
from rumino.engine.drawdiscard import expect
from rumino.engine.knobs import knob
from rumino.melds import GIN_MELDS
from rumino.variants.gin.game import GinGame, GinRules, GinView, HandResult

SPADES = 0  # the suit of card ids 0-12 (rumino.cards.SUITS)


@dataclass(frozen=True, kw_only=True)
class OklahomaRules(GinRules):
    """Gin's rules (§6) with the knock limit read from the upcard, spades doubling and a game to 150 (§6.1)."""

    knock_max_deadwood: int = knob(10, section="§6.1", low=0, high=10, label="Highest knock limit",
                                   doc="the upcard sets each hand's knock limit (its value, a picture card 10, an "
                                       "ace gin only), never above this")
    game_to: int = knob(150, section="§6.1", low=1, high=10_000, label="Game to", doc="the points that win the game")
    spades_double: bool = knob(True, section="§6.1", choices=(True, False), label="Spades double",
                               doc="a spade upcard doubles the points of the hand, bonuses included")


OKLAHOMA = OklahomaRules()


def upcard_limit(card: int, highest: int = 10) -> int:
    """The knock limit an upcard sets (O1): its pip value, a picture card 10, an ace 0 (gin only).

    >>> from rumino.cards import parse_card
    >>> [upcard_limit(parse_card(c)) for c in ("As", "2h", "7d", "10c", "Ks")], upcard_limit(parse_card("9h"), 5)
    ([0, 2, 7, 10, 10], 5)
    """
    return min(0 if rank_of(card) == 0 else int(GIN_MELDS.values[card]), highest)


@dataclass(frozen=True, kw_only=True)
class OklahomaHandResult(HandResult):
    """A Gin hand's result with the upcard that set its ``knock_limit`` and whether its points were ``doubled``."""

    upcard: int | None = None
    knock_limit: int = 10
    doubled: bool = False


@dataclass(eq=False, kw_only=True, slots=True)
class OklahomaView(GinView):
    """Gin's view, plus the hand's first upcard (even once taken) and whether a spade doubles the hand."""

    upcard: int | None = None
    doubled: bool = False


class OklahomaGame(GinGame):
    """One game of Oklahoma Gin (rules §6.1): Gin's phases and actions, the hand's limit from its upcard.

    >>> g = OklahomaGame.new(OKLAHOMA, 2, seed=1, dealer=1)
    >>> g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="3s")
    >>> g.apply(g.legal_actions()[0]); [str(a) for a in g.legal_actions()][:2]  # takes 3s: 3 left, limit 3
    ['knock 2c', 'discard 8s']
    >>> g.doubled, g.view(0).knock_limit
    (True, 3)
    """

    NAME = "Oklahoma Gin"
    RULES_CLASS = OklahomaRules
    VIEW = OklahomaView
    SECTIONS = {"deal": "§6.1", "turn": "§6", "end": "§6.1", "knock": "§6.1"}

    def setup(self) -> None:
        super().setup()
        self.upcard: int | None = None  # the hand's first upcard, kept when it is taken
        self.doubled = False
        self.hand_limit = self.rules.knock_max_deadwood

    def hand_knock_limit(self) -> int:
        """O1: the upcard just turned sets the limit; O2: a spade doubles the hand."""
        self.upcard = self.discard[-1]
        self.doubled = self.rules.spades_double and suit_of(self.upcard) == SPADES
        self.hand_limit = upcard_limit(self.upcard, self.rules.knock_max_deadwood)
        return self.hand_limit

    def after_set_position(self) -> None:
        """A position set during the upcard offer turns a new upcard: it sets the hand's limit (O1)."""
        super().after_set_position()
        if self.phase == "offer" and self.passed == 0:
            self._set_knock_limit(self.hand_knock_limit())

    def view_fields(self, seat: int) -> dict:
        return {**super().view_fields(seat), "upcard": self.upcard, "doubled": self.doubled}

    def snapshot_extra(self) -> tuple:
        return (*super().snapshot_extra(), self.upcard, self.doubled)

    def score_hand(self, ending: str, by: int | None, detail: str) -> OklahomaHandResult:
        """Gin's score (§6), doubled under a spade upcard (O2): points, deltas and the winner's score."""
        r = super().score_hand(ending, by, detail)
        k = 2 if self.doubled and r.winner is not None else 1
        if k == 2:
            self.scores[r.winner] += r.points
            detail = f"{r.detail}; doubled by the spade upcard {format_card(self.upcard)}"
        else:
            detail = r.detail
        fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
        fields.update(detail=detail, points=k * r.points, deltas=tuple(k * d for d in r.deltas),
                      scores=tuple(self.scores), upcard=self.upcard, knock_limit=self.hand_limit, doubled=k == 2)
        return OklahomaHandResult(**fields)

    def check_result(self, r: OklahomaHandResult, before: list, deep: bool) -> None:
        """Gin's checks of the hand undoubled, then the limit the upcard set and the doubling (O1, O2)."""
        k = 2 if r.doubled else 1
        expect(r.doubled == (r.winner is not None and self.rules.spades_double and suit_of(r.upcard) == SPADES),
               f"hand {r.number}: doubled with the upcard {format_card(r.upcard)}")
        expect(r.knock_limit == upcard_limit(r.upcard, self.rules.knock_max_deadwood),
               f"hand {r.number}: the knock limit is not the upcard's")
        if r.ending == "knock":
            expect(r.deadwood[r.by] <= r.knock_limit, f"hand {r.number}: a knock above the upcard's limit")
        expect(r.points % k == 0 and all(d % k == 0 for d in r.deltas), f"hand {r.number}: odd doubled points")
        super().check_result(dataclasses.replace(r, points=r.points // k, deltas=tuple(d // k for d in r.deltas)),
                             before, deep)

    def check_game_invariants(self, deep: bool = True) -> None:
        """Gin's invariants, and the limit shown is the one the hand's upcard set."""
        super().check_game_invariants(deep)
        if self.phase in self.IN_HAND_PHASES:
            expect(self._limit == self.hand_limit == upcard_limit(self.upcard, self.rules.knock_max_deadwood),
                   "the knock limit is not the upcard's")


__all__ = ["OKLAHOMA", "OklahomaGame", "OklahomaHandResult", "OklahomaRules", "OklahomaView", "upcard_limit"]
