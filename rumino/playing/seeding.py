"""The one seeding scheme: game ``i`` of a run with seed ``s`` is dealt from ``[s, i]``, its bots
draw from ``[s, i, 1]``.

Simulations (``rumino simulate``, the HouseRuleLab), the odds of play
(:mod:`rumino.playing.bot_odds`), the GameTable widget and the terminal
(``rumino play``) all start games through :func:`new_table`, so one seed
means the same deal and the same bot choices everywhere, and any single game
of a run can be replayed alone from ``(seed, i)``.

>>> game_seed(7, 3), bots_seed(7, 3)
([7, 3], [7, 3, 1])
>>> game, bots = new_table("rumino", ["greedy", "random"], seed=7, index=3)
>>> type(game).__name__, [b.name for b in bots], game.seed
('RuminoGame', ['greedy', 'random'], [7, 3])
"""

from __future__ import annotations

from typing import Any, Sequence

from rumino.engine.base import TurnGame
from rumino.errors import RuleConfigError
from rumino.players import Player, make_players
from rumino.variants import Variant, find_variant, playable_variants


def game_seed(seed: int, index: int = 0) -> list[int]:
    """The seed of the deck of game ``index`` of a run."""
    return [int(seed), int(index)]


def bots_seed(seed: int, index: int = 0) -> list[int]:
    """The seed of the bots' own chance in game ``index`` of a run."""
    return [int(seed), int(index), 1]


def new_table(variant: str | Variant, specs: Sequence[str], seed: int, index: int = 0, *, rules: Any = None,
              dealer: int | None = None) -> tuple[TurnGame, list[Player]]:
    """A new game of ``variant`` (a name or a :class:`~rumino.variants.Variant`) for the players
    ``specs`` and its players, both seeded by the one scheme; returns ``(game, players)``.

    The players are checked against the game first (a bot that does not fit it, or a
    player count it does not allow, raises an error naming what is allowed).
    """

    v = find_variant(variant)
    game_cls = v.game
    if game_cls is None:

        raise RuleConfigError(f"there is no playable engine for {v.title} yet; games can be played for: "
                              f"{', '.join(playable_variants())}.")
    players = make_players(list(specs), seed=bots_seed(seed, index), game=game_cls)
    game = game_cls.new(v.rules if rules is None else rules, len(players), seed=game_seed(seed, index),
                        dealer=dealer)
    return game, players


__all__ = ["game_seed", "bots_seed", "new_table"]
