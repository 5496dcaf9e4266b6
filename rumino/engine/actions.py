"""The actions most draw-and-discard games share; a game lists the ones it uses in its ActionSet.

>>> str(Draw("stock")), str(Discard(45)), str(Knock()), str(KnockWith(45)), str(Gin(52))
('draw stock', 'discard 7h', 'knock', 'knock 7h', 'gin JK')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rumino.cards import format_card
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.engine.protocol import Action, one_card


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top card of the stock or of the discard pile."""

    source: str = "stock"
    word: ClassVar[str] = "draw"
    verb: ClassVar[str] = "draw"

    def __post_init__(self):
        if self.source not in ("stock", "discard"):
            raise IllegalActionError(f"Draw source is {self.source!r}: it must be 'stock' or 'discard'.")

    def notation(self) -> str:
        return f"draw {self.source}"

    def choice_text(self) -> str:
        return "draw from the stock" if self.source == "stock" else "take the discard"

    @classmethod
    def parse_args(cls, args: list[str]) -> Draw:
        if len(args) != 1 or args[0].lower() not in ("stock", "discard"):
            raise InvalidCardError("'draw' takes 'stock' or 'discard'.")
        return cls(args[0].lower())


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Put one card from the hand face up on the discard pile, ending the turn."""

    card: int
    word: ClassVar[str] = "discard"
    verb: ClassVar[str] = "discard"
    discards_card: ClassVar[bool] = True

    def notation(self) -> str:
        return f"discard {format_card(self.card)}"

    def choice_text(self) -> str:
        return "discard a card"

    @classmethod
    def parse_args(cls, args: list[str]) -> Discard:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class Knock(Action):
    """End the hand by knocking (where and how is the game's rule)."""

    word: ClassVar[str] = "knock"
    verb: ClassVar[str] = "knock"


@dataclass(frozen=True, slots=True)
class Gin(Action):
    """Discard ``card`` and go gin with the cards kept."""

    card: int
    word: ClassVar[str] = "gin"
    verb: ClassVar[str] = "go gin"
    discards_card: ClassVar[bool] = True

    def notation(self) -> str:
        return f"gin {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args: list[str]) -> Gin:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class KnockWith(Action):
    """Knock after drawing, putting ``card`` on the pile face down (Gin §6, Wiener §5.4).

    A game uses either :class:`Knock` (in lieu of drawing, as in Rumino) or this one,
    never both, since both read as ``knock``.
    """

    card: int
    word: ClassVar[str] = "knock"
    verb: ClassVar[str] = "knock"
    discards_card: ClassVar[bool] = True

    def notation(self) -> str:
        return f"knock {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args: list[str]) -> KnockWith:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class Rebuy(Action):
    """Pay the rebuy price and re-enter the game."""

    word: ClassVar[str] = "rebuy"
    verb: ClassVar[str] = "rebuy"


@dataclass(frozen=True, slots=True)
class DeclineRebuy(Action):
    """Stay out of the game rather than rebuy."""

    word: ClassVar[str] = "decline"
    verb: ClassVar[str] = "decline a rebuy"


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The dealer shuffles and deals the next hand."""

    word: ClassVar[str] = "deal"
    verb: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class Join(Action):
    """A table action: a new player sits down between hands and pays the stake."""

    word: ClassVar[str] = "join"
    verb: ClassVar[str] = "join"


DRAW_STOCK, DRAW_DISCARD, KNOCK, DEAL = Draw("stock"), Draw("discard"), Knock(), Deal()
REBUY, DECLINE, JOIN = Rebuy(), DeclineRebuy(), Join()

__all__ = ["Draw", "Discard", "Knock", "KnockWith", "Gin", "Rebuy", "DeclineRebuy", "Deal", "Join", "DRAW_STOCK",
           "DRAW_DISCARD", "KNOCK", "DEAL", "REBUY", "DECLINE", "JOIN"]
