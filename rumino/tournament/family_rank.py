"""The family ranked from the strength matches: each game's luck read from 1,000-deal matches, and which
differences between games the tests show.

Every game has three deciding matches in ``book/data/family_strength.json`` (:mod:`rumino.tournament.strength`):
the random player against the game's *baseline* (greedy; Rummoli's default bot), the baseline against the
game's best player, and the random player against the best. From them, for each game:

* the *top* player: the best player where its match shows it ahead of the baseline (the share's 95%
  interval above one half), else the baseline (a best player not shown stronger is not trusted as the top;
  before the best has met the baseline, the top is not known);
* **random's chance of a hand against the top** (a tie half), with its Wilson interval: the luck a
  newcomer meets, and the measure the games are ranked by;
* **the baseline's chance of a hand against the top** (none where the baseline is the top);
* **the deal's share** of a hand's variance between the top and the baseline (or random, where the baseline is
  the top), from the duplicate margins, with a bootstrap interval (none in a game without points).

Games are compared pair by pair, never by whether two intervals overlap: Fisher's exact test on random's hands
won and lost against the top (ties left out), Holm-adjusted over every pair of games, with Newcombe's interval
on the difference (:func:`luck_tests`); the same for the baseline's chance; and the deal's shares by the
bootstrap interval of their difference (:func:`deal_share_tests`). :func:`luck_tiers` cuts the
games, the most luck first, wherever every game before the cut is shown to give more than every game after it.

>>> from rumino.tournament.strength import Match
>>> def m(game, a, b, scores):  # a match read from its hands (the file's figures are not used)
...     return Match(game, a, b, len(scores), 2 * len(scores), [0, 0, 0], [0, 0, 0], 0.0, 1, "",
...                  margins=[[2 * s1 - 1, 2 * s2 - 1] for s1, s2 in scores], scores=scores)
>>> rows = family_luck([m("gin", "greedy", "random", [[1, 1]] * 29 + [[1, 0]]),
...                     m("gin", "best", "greedy", [[1, 1]] * 22 + [[0, 1]] * 8),
...                     m("gin", "best", "random", [[1, 1]] * 30)])
>>> r = rows[0]
>>> r.game, r.top, r.random_hands, r.baseline_hands, r.missing
('gin', 'best', (0, 0, 60), (8, 0, 52), [])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from rumino.stats import Comparison, pairwise_fisher, wilson_interval
from rumino.tournament.duplicate import deal_share_of, deal_share_resamples
from rumino.tournament.strength import Match, find_match

BASELINES = {"rummoli": "default"}
"""A game's baseline where it is not greedy: Rummoli's own default bot plays greedy's part."""

BOOTSTRAP = 2000  # resamples of the deals for a deal's-share interval


def baseline_of(game: str) -> str:
    """The player a game's best is measured against: greedy, or the game's own default bot.

    >>> baseline_of("gin"), baseline_of("rummoli")
    ('greedy', 'default')
    """
    return BASELINES.get(game, "greedy")


@dataclass(frozen=True)
class GameLuck:
    """One game's luck from its strength matches (see the module docstring). Figures are
    ``(estimate, low, high)``; ``random_hands`` is random's ``(won, tied, lost)`` against the top;
    ``missing`` names the matches not yet played (then the figures that need them are None)."""

    game: str
    top: str
    baseline: str
    best_vs_baseline: tuple | None
    random_hands: tuple | None
    random_wins: tuple | None
    baseline_hands: tuple | None
    baseline_wins: tuple | None
    deal_share: tuple | None
    deal_share_pair: tuple[str, str] | None
    deals: dict = field(default_factory=dict)
    missing: list = field(default_factory=list)
    # the deal's share in each bootstrap resample of the deals: two games' shares are compared through them
    share_resamples: np.ndarray | None = field(default=None, compare=False, repr=False)


def _hands_of_b(match: Match) -> tuple[int, int, int]:
    """``b``'s hands ``(won, tied, lost)`` in a match (its scores are ``a``'s)."""
    flat = [float(s) for pair in match.scores for s in pair]
    won = sum(1 for s in flat if s == 0.0)
    tied = sum(1 for s in flat if s == 0.5)
    return won, tied, len(flat) - won - tied


def _share(hands: tuple[int, int, int]) -> tuple[float, float, float]:
    """The share of hands won, a tie half, with its Wilson 95% interval."""
    won, tied, lost = hands
    n = won + tied + lost
    lo, hi = wilson_interval(won + tied / 2, n)
    return ((won + tied / 2) / n, lo, hi)


def _deal_share_resamples(margins: Sequence[Sequence[float]], game: str) -> tuple[float, np.ndarray]:
    """The deal's share of duplicate margins, and its bootstrap resamples (none when nothing varies)."""
    m = np.asarray(margins, dtype=float)
    whole = deal_share_of(m)
    if math.isnan(whole):
        return whole, np.array([])
    rng = np.random.default_rng([36, len(m), *game.encode()])  # a game's resamples never depend on the others
    return whole, deal_share_resamples(m, rng, BOOTSTRAP)


def _game_luck(game: str, matches: Sequence[Match]) -> GameLuck:
    base = baseline_of(game)
    deals = {}
    missing = []

    def get(a, b):
        got = find_match(matches, game, a, b)
        if got is None:
            missing.append(f"{a} against {b}")
        else:
            deals[f"{a} against {b}"] = got.deals
        return got

    base_random, best_base, best_random = get(base, "random"), get("best", base), get("best", "random")
    # shown ahead: the baseline's share of hands against it (read from the hands) lies wholly below one half
    best_shown = best_base is not None and _share(_hands_of_b(best_base))[2] < 0.5
    # until the best has met the baseline, the top is not known (""), and neither is random's chance against it
    top = "best" if best_shown else base if best_base is not None else ""
    top_random = best_random if best_shown else base_random if best_base is not None else None
    random_hands = _hands_of_b(top_random) if top_random is not None else None
    baseline_hands = _hands_of_b(best_base) if best_shown else None
    # the deal's share between the top and the next player down: the baseline, or random where the
    # baseline is the top
    pair_match = best_base if best_shown else base_random if best_base is not None else None
    deal_share = pair = boots = None
    if pair_match is not None:
        v, resamples = _deal_share_resamples(pair_match.margins, game)
        if not math.isnan(v):  # no margin varies (Robber scores no points): nothing to split
            boots = resamples
            lo, hi = (float(x) for x in np.nanpercentile(boots, [2.5, 97.5]))
            deal_share, pair = (float(v), lo, hi), (pair_match.a, pair_match.b)
    return GameLuck(game=game, top=top, baseline=base,
                    best_vs_baseline=_share(_hands_of_b(best_base)[::-1]) if best_base is not None else None,
                    random_hands=random_hands, random_wins=_share(random_hands) if random_hands else None,
                    baseline_hands=baseline_hands,
                    baseline_wins=_share(baseline_hands) if baseline_hands else None,
                    deal_share=deal_share, deal_share_pair=pair, deals=deals, missing=missing,
                    share_resamples=boots)


def family_luck(matches: Sequence[Match], games: Sequence[str] | None = None) -> list[GameLuck]:
    """Each game's luck from the strength matches (``games``: default every game with a match of its
    baseline against random), the most luck first (random's largest chance against the top; a game whose
    random-against-top match is missing goes last).

    >>> family_luck([])
    []
    """
    if games is None:
        games = sorted({m.game for m in matches if m.a == baseline_of(m.game) and m.b == "random"})
    rows = [_game_luck(g, matches) for g in games]
    return sorted(rows, key=lambda r: (r.random_wins is None, -(r.random_wins or (0,))[0], r.game))


def luck_tests(rows: Sequence[GameLuck], player: str = "random") -> list[dict]:
    """Every pair of games compared on ``player``'s chance of a hand against the top (``"random"`` or
    ``"baseline"``): Fisher's exact test on the hands won and lost (ties left out), Newcombe's interval on
    the difference, the p-values Holm-adjusted over all the pairs (a ranking makes every comparison at once).
    A deal's two hands are not independent, but their results pull opposite ways (the cards change seats),
    so counting them as independent hands errs towards caution.

    Each entry: ``{"a", "b", "comparison" (a − b), "p_holm", "shown", "more_luck"}`` (the game where the
    weaker player wins more; None when not shown).

    >>> luck_tests([])
    []
    """
    if player not in ("random", "baseline"):
        raise ValueError(f"the player is {player!r}: the chance of a hand is measured for random or the baseline.")
    counts = {}
    for r in rows:
        hands = r.random_hands if player == "random" else r.baseline_hands
        if hands is not None:
            won, _tied, lost = hands
            counts[r.game] = (won, won + lost)
    return pairwise_fisher(counts)


def deal_share_tests(rows: Sequence[GameLuck]) -> list[dict]:
    """Every pair of games with a deal's share compared by the bootstrap percentile interval of the
    difference (each game's deals resampled apart: the games are independent); shown when it leaves out 0.
    The larger share is the game where the deal decides more (``more_luck``).

    >>> deal_share_tests([])
    []
    """
    with_share = [r for r in rows if r.deal_share is not None]
    out = []
    for n, x in enumerate(with_share):
        for y in with_share[n + 1:]:
            diff = x.share_resamples - y.share_resamples
            lo, hi = (float(v) for v in np.nanpercentile(diff, [2.5, 97.5]))
            c = Comparison(x.deal_share[0] - y.deal_share[0], lo, hi, (len(x.share_resamples), len(y.share_resamples)),
                           "bootstrap percentile interval of the difference (the deals of each game resampled apart)",
                           kind="proportion")
            out.append({"a": x.game, "b": y.game, "comparison": c, "shown": c.shown,
                        "more_luck": (x.game if c.estimate > 0 else y.game) if c.shown else None})
    return out



def luck_tiers(tests: Sequence[dict], order: Sequence[str]) -> list[list[str]]:
    """The games of ``order`` (the most luck first) cut into tiers wherever the tests show every game before
    the cut giving the weaker player more hands than every game after it. Inside a tier some pairs may still
    be shown (:func:`shown_within`); a ranking says no more than the cuts and those pairs.

    >>> t = [{"a": "x", "b": "y", "shown": False, "more_luck": None},
    ...      {"a": "x", "b": "z", "shown": True, "more_luck": "x"},
    ...      {"a": "y", "b": "z", "shown": True, "more_luck": "y"}]
    >>> luck_tiers(t, ["x", "y", "z"])
    [['x', 'y'], ['z']]
    """
    by_pair = {frozenset((t["a"], t["b"])): t for t in tests}

    def ahead(x: str, y: str) -> bool:
        t = by_pair.get(frozenset((x, y)))
        return t is not None and t["shown"] and t["more_luck"] == x

    order = list(order)
    tiers, start = [], 0
    for cut in range(1, len(order)):
        if all(ahead(x, y) for x in order[start:cut] for y in order[cut:]):
            tiers.append(order[start:cut])
            start = cut
    if order:
        tiers.append(order[start:])
    return tiers


def shown_within(tests: Sequence[dict], tiers: Sequence[Sequence[str]]) -> list[dict]:
    """The tests that show a difference between two games of the same tier.

    >>> shown_within([{"a": "x", "b": "y", "shown": True, "more_luck": "x"}], [["x", "y"]])[0]["more_luck"]
    'x'
    """
    tier_of = {g: i for i, tier in enumerate(tiers) for g in tier}
    return [t for t in tests if t["shown"] and t["a"] in tier_of and tier_of[t["a"]] == tier_of.get(t["b"])]


__all__ = ["BASELINES", "GameLuck", "baseline_of", "deal_share_tests", "family_luck", "luck_tests", "luck_tiers",
           "shown_within"]
