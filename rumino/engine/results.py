"""How a game ended, in one shape: the :class:`GameResult` every game's result extends.

Every caller reads the same fields of every game's result — who won (``winners``), how (``how``), who deals
the next game (``next_dealer``), what each seat won or lost in the game's unit (``returns``), the pot paid
out (``pool_cents``, ``payouts_cents``: the names records use) — and asks it for the end of the game in a
player's words (:meth:`GameResult.summary`), which the terminal and the tables print alike. A game's result
adds its own fields (Gin's totals and boxes, Robber's penalties, Rummoli's chips and final sweep) and says
its verdict and its final numbers (:meth:`GameResult.verdict`, :meth:`GameResult.numbers`).

>>> from rumino.variants import find_variant
>>> from rumino.playing.seeding import new_table
>>> from rumino.engine import play
>>> game, bots = new_table(find_variant("gin"), ["greedy", "greedy"], seed=3, index=0)
>>> r = play(game, bots).result
>>> isinstance(r, GameResult), r.winners, r.returns
(True, (1,), (-146, 146))
>>> print("\\n".join(r.summary(game, lambda s: f"P{s}")))
Game over after 15 hands: P1 wins the game, first to 100 points.
final points: P0 85 · P1 106
final totals with the game bonus (100) and 25 a box (rules §6): P0 260 · P1 406
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from rumino.engine.words import plural


@dataclass(frozen=True, kw_only=True)
class GameResult:
    """How a game ended: the fields every game's result has, and the end in a player's words.

    ``winners`` (seats, in order from the dealer's left; several on a tie), ``how`` (the game's own code
    for how it ended: ``"rumino"``, ``"game_to"``, ``"out"`` …), ``next_dealer`` (who deals the next game
    at this table), ``returns`` (per seat, what the seat won (+) or lost (−) by the game, in :attr:`UNIT`),
    ``pool_cents`` and ``payouts_cents`` (what the winners took from the pot and each seat's share, in the
    ledger's unit: cents in Rumino, chips elsewhere; 0 and nothing, or zeros, where no pot is played for).
    """

    winners: tuple[int, ...]
    how: str
    next_dealer: int
    returns: tuple[int, ...] = ()
    pool_cents: int = 0
    payouts_cents: tuple[int, ...] = ()

    UNIT: ClassVar[str] = "points"
    """The unit of :attr:`returns`, in a player's words."""
    ZERO_SUM: ClassVar[bool] = False
    """True for a game played for stakes: what some seats win the others lose (the returns add up to 0)."""
    PERIOD: ClassVar[str] = "hand"
    """What the game is played in (``hand``, Rummoli's ``deal``), for "Game over after 3 hands"."""

    def final_points(self, game: Any) -> tuple[int, ...]:
        """Each seat's points as the game settles them (Gin: the totals with the game and box bonuses);
        default the game's scores at the end."""
        return tuple(game.scores)

    def share(self, seat: int) -> float:
        """The fraction of the win that ``seat`` holds (1/k in a k-way tie, 0 for a seat that did not win)."""
        return 1 / len(self.winners) if seat in self.winners else 0.0

    # ------------------------------------------------------------------ the end in a player's words

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        """The final numbers, each ``(name, label, values in seat order)``: the name a caller keys them by
        (``"points"``, ``"totals"``, ``"penalties"``, ``"scores"``, ``"chips"``) and the words that show them
        (``"final points"``); a seat without a number holds None. Default: the game's scores."""
        return [("scores", "final scores", list(game.scores))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        """What the winners did, after their names: ``"wins the game, first to 100 points."``; ``win`` and
        ``take`` are the verbs as they agree with the winners (``"wins"``/``"win"``, ``"takes"``/``"take"``),
        ``name(seat)`` names a seat (a tie's shares)."""
        return f"{win}."

    def afterword(self, game: Any, name: Callable[[int], str], you: int | None = None) -> list[str]:
        """Lines after the final numbers (Rummoli's final sweep), their verbs agreeing with ``you``; none by
        default."""
        return []

    def summary(self, game: Any, name: Callable[[int], str], *, you: int | None = None) -> list[str]:
        """The end of the game in a player's words, as the terminal (``rumino play``) and the tables show it:
        who won and how, then the final numbers in seat order (``name(seat)`` names each seat), then any
        afterword. ``you``: the seat addressed as "you" (its verbs agree: "you win").
        """
        several = len(self.winners) > 1 or self.winners == (you,)
        who = " and ".join(name(w) for w in self.winners)
        head = (f"Game over after {plural(len(game.results), self.PERIOD)}: {who} "
                + self.verdict(game, name, "win" if several else "wins", "take" if several else "takes"))
        lines = [head]
        for _key, label, values in self.numbers(game):
            lines.append(f"{label}: " + " · ".join(f"{name(s)} {v}" for s, v in enumerate(values) if v is not None))
        return lines + self.afterword(game, name, you)


__all__ = ["GameResult"]
