"""Games with melds on the table: the draw-and-discard template plus the table every player lays to.

:class:`MeldedGame` owns what German Rommé (rules §3) and Robber Rummy (§4) share about
melds on the table: the ``table`` (a tuple of :class:`~rumino.melds.Meld` readings, every
joker named), who has ``opened``, the table's cards in the invariants' count of the pack
(:meth:`table_cards`), the table checked meld by meld (:meth:`check_table_invariants`), the
table in the views (:class:`MeldedView`) and snapshots, and one :meth:`set_position` that
lays melds on the table too. The pack follows the rules' ``n_jokers`` through the template.

A game standing on it sets what the template asks, says how a table meld is written
(:meth:`read_table_meld`), and may answer :meth:`position_refusal` (when a position may not
be set) and :meth:`after_layout` (its own bookkeeping once a deal or a set position has laid
out the hands and the table). It adds its own fields to :meth:`view_fields` and
:meth:`snapshot_extra` through ``super()``.

>>> from rumino.cards import format_hand
>>> from rumino.melds import ROMME_MELDS, check_meld
>>> table = (check_meld(parse_hand("5h 6h JK"), ROMME_MELDS), check_meld(parse_hand("9s 9c 9d"), ROMME_MELDS))
>>> format_hand(cards_on(table))
'5h 6h JK 9s 9c 9d'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from rumino.cards import format_card, parse_hand
from rumino.engine.actions import Deal
from rumino.engine.drawdiscard import DrawDiscardGame, TableView, expect
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.melds import Meld
from rumino.table.melds import canonical, check_table, is_valid_reading


def cards_on(table: Iterable[Meld]) -> list[int]:
    """Every card of the melds of ``table`` (jokers as jokers), meld by meld."""
    return [c for m in table for c in m.cards]


@dataclass(eq=False, kw_only=True, slots=True)
class MeldedView(TableView):
    """What a player of a game with melds on the table sees: the table plus who has opened."""

    table: tuple = ()
    opened: tuple = ()

    @property
    def table_cards(self) -> tuple[int, ...]:
        return tuple(cards_on(self.table))


class _CardsOffTable:
    """The pack as :meth:`DrawDiscardGame.set_position` sees it while a melded position is set:
    the cards that are not on the table (it only asks a pack for its ``cards()``)."""

    __slots__ = ("_cards",)

    def __init__(self, cards):
        self._cards = tuple(cards)

    def cards(self) -> tuple[int, ...]:
        return self._cards


class MeldedGame(DrawDiscardGame):
    """The template of a draw-and-discard game with melds on the table (see the module docstring)."""

    VIEW = MeldedView
    KNOCK_GAME = False  # melds laid and penalties left decide, not a knock
    CANONICAL_TABLE = False  # True: every table meld must be in its canonical reading (Robber's placements)
    HOOKS = DrawDiscardGame.HOOKS | {"read_table_meld", "after_layout"}
    """The template's hooks and this kind's: how a table meld is written, the bookkeeping after a layout."""

    # ----------------------------------------------------------------- the table's state

    def setup(self) -> None:
        self.table: tuple[Meld, ...] = ()
        self.opened = [False] * self.initial_players
        self._table_checked: tuple | None = None  # the last table the invariants found valid (melds are frozen)

    def clear_table(self) -> None:
        """A new deal: nothing on the table, nobody opened."""
        self.table = ()
        self.opened = [False] * self.n_seats

    def after_layout(self) -> None:
        """The game's own bookkeeping once a deal or a set position has laid out the hands and the table
        (cards each seat holds, the turn's state)."""

    def after_deal(self, order: Sequence[int]) -> None:
        self.clear_table()
        self.after_layout()
        super().after_deal(order)

    def table_cards(self) -> list[int]:
        """The cards in the melds on the table (they count in the invariants' conservation of the pack)."""
        return cards_on(self.table)

    def view_fields(self, seat: int) -> dict:
        return dict(table=self.table, opened=tuple(self.opened))

    def snapshot_extra(self) -> tuple:
        return (self.table, tuple(self.opened))

    # ----------------------------------------------------------------- invariants

    def check_table_invariants(self) -> None:
        """Every table meld a valid reading with its jokers named (in its canonical reading under
        ``CANONICAL_TABLE``), and the table as a whole within the pack; checked once per new table."""
        if self._table_checked is self.table:
            return
        mr = self.rules.meld_rules
        for m in self.table:
            expect(is_valid_reading(m, mr) and (not self.CANONICAL_TABLE or canonical(m) == m),
                   f"the table meld {m} is not a valid reading (cards misplaced)")
        try:
            check_table(self.table, mr)
        except IllegalActionError as err:
            raise AssertionError(f"the table is not valid: {err}") from None
        self._table_checked = self.table

    def check_game_invariants(self, deep: bool) -> None:
        """The table's invariants (:meth:`check_table_invariants`); a game adds its own through ``super()``."""
        self.check_table_invariants()

    # ----------------------------------------------------------------- set positions

    def read_table_meld(self, text: str) -> Meld:
        """A table meld from its text in the game's notation (``"5h 6h JK(7h)"``); raise
        :class:`IllegalActionError` if it is not one."""
        raise NotImplementedError(f"{type(self).__name__} must say how a table meld is written.")

    def position_refusal(self, discard: str | Iterable | None) -> str | None:
        """Why a position may not be set now, or None: only at the start of a turn, which is also the
        dealer's opening discard right after the deal (Rommé's ``dealer14``), before he lays anything."""
        opening = self.phase == "discard" and self.drawn is None and (
            not self.history or type(self.history[-1][1]) is Deal)
        if self.phase != "turn" and not opening:
            return f"a position can be set only at the start of a turn; the phase is {self.phase!r}."
        return None

    def set_position(self, *, hands: dict | None = None, table: Iterable[str] = (), opened: dict | None = None,
                     discard: str | Iterable | None = None, stock_top: str | Iterable | None = None,
                     scores: dict | None = None) -> None:
        """Arrange a position at the start of a turn with ``table`` melds laid, every card in one place.

        ``hands`` maps seats to their cards (any number: hands change size in these games; the
        other seats keep their sizes), ``table`` lists melds in the game's notation
        (``"5h 6h JK(7h)"``), ``opened`` maps seats to whether they have opened (a seat not named
        has not); ``discard``, ``stock_top`` and ``scores`` are the template's
        (:meth:`DrawDiscardGame.set_position`), which arranges every card off the table: the wanted
        hands go to it as the top of the stock and are dealt from there, so the template's
        conservation of the pack holds them too. The game can then not be recorded.
        """
        why = self.position_refusal(discard)
        if why is not None:
            raise IllegalActionError(why)
        mr = self.rules.meld_rules
        melds = tuple(self.read_table_meld(t) for t in table)
        check_table(melds, mr)
        hands = {p: list(parse_hand(h)) for p, h in (hands or {}).items()}
        for p in hands:
            if not (isinstance(p, int) and 0 <= p < self.n_seats and self.in_hand[p]):
                raise IllegalActionError(f"seat {p!r} is not in this hand.")
        top = [] if stock_top is None else list(parse_hand(stock_top))
        need = Counter(c for h in hands.values() for c in h) + Counter(cards_on(melds)) + Counter(top)
        need += Counter(() if discard is None else parse_hand(discard))
        pack = Counter(self.PACK.cards())
        for c, k in need.items():
            if k > pack[c]:
                raise InvalidCardError(f"the position uses {k} copies of {format_card(c)}; the pack has {pack[c]}.")
        sizes = [len(hands[p]) if p in hands else len(self.hands[p]) for p in range(self.n_seats)]
        empty_pile = discard is None and not self.discard  # none now (no pile, or before the first discard)
        wanted = sorted(hands)
        old_hands, old_phase, old_in_hand = [list(h) for h in self.hands], self.phase, self.in_hand
        own_pack = vars(self).get("PACK")  # a pack of the rules' n_jokers, set on the game by the template
        try:
            # the template fills every hand to one size; here nobody is "dealt in" for it, so it keeps each
            # hand's free cards and fills none, and the wanted hands come off the top of its stock
            for p in wanted:
                self.hands[p] = []
            self.PACK = _CardsOffTable((pack - Counter(cards_on(melds))).elements())
            self.phase, self.in_hand = "turn", [False] * self.n_seats
            super().set_position(discard=discard, stock_top=[c for p in wanted for c in hands[p]] + top,
                                 scores=scores)
        except BaseException:
            self.hands = old_hands  # the template refused before changing anything else
            raise
        finally:
            vars(self).pop("PACK", None)
            if own_pack is not None:
                self.PACK = own_pack
            self.phase, self.in_hand = old_phase, old_in_hand
        for p in wanted:
            self.hands[p] = [self.stock.pop() for _ in hands[p]]
        for p in range(self.n_seats):  # the others keep their sizes, topped up from the bottom of the stock
            while len(self.hands[p]) < sizes[p]:
                self.hands[p].append(self.stock.pop(0))
        if empty_pile:  # the template always leaves a pile; this position has none
            self.stock[:0] = self.discard
            self.discard = []
        self.table = melds
        self.opened = [bool((opened or {}).get(p, False)) for p in range(self.n_seats)]
        self._dw.clear()
        self.after_layout()


__all__ = ["MeldedGame", "MeldedView", "cards_on"]
