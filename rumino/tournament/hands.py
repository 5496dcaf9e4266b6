"""One hand of a tournament: a seeded deal played by given players, and what each seat made of it.

A tournament compares players hand by hand. Every game keeps ``scores`` (one
number a seat: points, penalty points or chips), so a seat's *gain* from a hand
is the change of its score, signed so that more is better
(``TurnGame.HIGHER_SCORE_WINS``). The seats are then *ranked* by gain; when
gains tie, the player who ended the hand (knocked, went out) ranks first
(Robber Rummy played without scoring, where only going out counts). A hand
nobody ended with all gains equal (Gin's void hand) is a tie.

>>> out = play_hand("gin", ["greedy", "random"], seed=1, index=0)
>>> out.gains, out.ranking
((56, 0), ((0,), (1,)))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rumino.engine.protocol import play
from rumino.engine.scoring import hand_ender, rank_seats
from rumino.playing.seeding import new_table
from rumino.variants import Variant, find_variant

MAX_HAND_ACTIONS = 200_000  # a hand of random bots at Gin can last thousands of actions; none lasts this long


@dataclass(frozen=True)
class HandOutcome:
    """What each seat made of one hand: ``gains`` (more is better, in the game's units) and the
    ``ranking``, best first, as groups of tied seats."""

    gains: tuple
    ranking: tuple
    ended_by: int | None

    def rank_of(self, seat: int) -> int:
        """0 for the best group, 1 for the next, …"""
        return next(i for i, group in enumerate(self.ranking) if seat in group)


def play_hand(variant: str | Variant, specs: Sequence[str], seed: int, index: int, *,
              rules: Any = None) -> HandOutcome:
    """Deal hand ``index`` of a run seeded ``seed`` (the one seeding scheme) to ``specs``, seat 0
    first to play (the last seat deals), play it to its end and return each seat's outcome.

    The deal depends only on ``(seed, index)``, not on who sits where: a deal played again with
    the players in other seats gives every player the cards another had (duplicate play).
    """
    v = find_variant(variant)
    game, players = new_table(v, list(specs), seed, index, rules=rules, dealer=len(specs) - 1)
    before = list(game.scores)
    play(game, players, checked=False, until=lambda g: g.hand_over, max_actions=MAX_HAND_ACTIONS)
    sense = 1 if v.game.HIGHER_SCORE_WINS else -1
    gains = tuple(sense * (a - b) for a, b in zip(game.scores, before))
    ended_by = hand_ender(game.results[-1])
    return HandOutcome(gains, rank_seats(gains, ended_by), ended_by)


__all__ = ["HandOutcome", "play_hand", "rank_seats"]
