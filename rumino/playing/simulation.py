"""Many seeded games between bots, and what they add up to.

Game ``i`` is dealt from ``numpy.random.default_rng([seed, i])`` and its bots
draw from their own stream ``[seed, i, 1]``, so a run is reproducible and any
single game can be replayed on its own. Games are independent: each starts with
the first dealer drawn by high card (RULES §1.1). The CLI (``rumino simulate``)
and the widgets' HouseRuleLab both play through :func:`play_games`, so the same
seed gives the same figures in both.

>>> s = play_games(None, ["greedy", "greedy"], games=3, seed=1)
>>> s.games, len(s.hands_per_game), round(sum(s.wins), 6)
(3, 3, 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from rumino.engine.protocol import play
from rumino.playing.seeding import new_table
from rumino.errors import RuleConfigError
from rumino.players import make_players
from rumino.stats import Estimate, mean_estimate, proportion_estimate
from rumino.variants import find_variant, playable_variants


@dataclass
class GamesSummary:
    """Raw tallies of a run of games, and their estimates with 95% intervals."""

    players: list[str]
    games: int
    seed: int
    rules: object
    wins: list[float] = field(default_factory=list)  # a shared win counts 1/k to each winner
    hands_per_game: list[int] = field(default_factory=list)
    rebuys_per_game: list[int] = field(default_factory=list)
    pools: list[float] = field(default_factory=list)  # in the game's units (Rumino: currency; the engine keeps cents)
    endings: dict[str, int] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return sum(self.hands_per_game)

    def win_rate(self, seat: int) -> Estimate:
        return proportion_estimate(self.wins[seat], self.games, seed=self.seed)

    def ending_rate(self, ending: str) -> Estimate:
        return proportion_estimate(self.endings[ending], self.hands, seed=self.seed)

    def mean_hands(self) -> Estimate:
        return mean_estimate(self.hands_per_game, seed=self.seed)

    def mean_rebuys(self) -> Estimate:
        return mean_estimate(self.rebuys_per_game, seed=self.seed)

    def mean_pool(self) -> Estimate:
        return mean_estimate(self.pools, seed=self.seed)


def play_games(rules, players: Sequence[str], games: int, seed: int = 0, *, variant: str = "rumino",
               checked: bool = False, progress: Callable[[int, int], None] | None = None) -> GamesSummary:
    """Play ``games`` independent seeded games between the bots ``players`` and tally them.

    ``variant`` names the game (its engine comes from the registry); ``rules`` None
    means its defaults; ``checked=True`` sends every bot action through the checked
    ``apply``; ``progress(done, total)`` is called after each game. Game ``i`` is
    started by :func:`rumino.playing.seeding.new_table` (the one seeding scheme).
    """
    v = find_variant(variant)
    engine = v.game
    if engine is None:
        raise RuleConfigError(f"there is no playable engine for {v.title} yet; games can be played for: "
                              f"{', '.join(p.title for p in playable_variants().values())}.")
    rules = v.rules if rules is None else rules
    specs = list(players)
    make_players(specs, seed=0, game=engine)  # names, fit and count checked before any game is played
    out = GamesSummary(specs, games, seed, rules, wins=[0.0] * len(specs), endings=dict.fromkeys(engine.ENDINGS, 0))
    for i in range(games):
        game, bots = new_table(v, specs, seed, i, rules=rules)
        play(game, bots, checked=checked)
        res = game.result
        for w in res.winners:
            out.wins[w] += 1 / len(res.winners)
        out.hands_per_game.append(len(game.results))
        out.rebuys_per_game.append(game.score_events("rebuy", "buyback"))
        out.pools.append(game.pot_paid_out / engine.POT_SCALE)
        for r in game.results:
            out.endings[r.ending] += 1
        if progress is not None:
            progress(i + 1, games)
    return out
