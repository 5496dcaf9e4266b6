"""Tournaments: every pair heads-up (or the whole table), the same deals for everyone, seats swapped.

Deal ``i`` of a tournament seeded ``s`` is the same cards for every match (the one
seeding scheme, :func:`rumino.playing.seeding.new_table`). Heads-up, each pair plays
each deal twice, once in each seat (*duplicate* play: the cards' luck is dealt to
both players in turn); at the table, each deal is played once for every rotation
of the seats. A hand is the unit (:mod:`rumino.tournament.hands`): won, tied or lost.

>>> t = tournament("gin", ["greedy", "random"], deals=6, seed=1)
>>> t.win_rate(0, 1).value, t.hands_between(0, 1)
(1.0, 12)

The figures do not depend on ``workers`` or on a Dask cluster: the work is cut in
chunks of deals and put back in order.
"""

from __future__ import annotations

import itertools
import math
import warnings
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from rumino.errors import RuleConfigError
from rumino.players import make_player
from rumino.stats import Comparison, Estimate, paired_mean_difference, proportion_estimate, sign_test
from rumino.tournament.duplicate import deal_share_of, deal_share_resamples
from rumino.tournament.hands import play_hand
from rumino.tournament.ratings import (bradley_terry, elo, games_for_match, plackett_luce, ranking_choices,
                                       win_chance)
from rumino.variants import Variant, find_variant

CHUNK = 25  # deals a job plays: small enough for a smooth progress bar, big enough to keep workers busy
BOOTSTRAP = 200  # resamples of the deals behind every rating interval
MAX_DEALS = 1_000_000


@dataclass
class Tournament:
    """The hands of a tournament and every figure read from them (see the module docstring).

    Heads-up: ``margins[(a, b)]`` is an array ``(deals, 2)`` of player ``a``'s gain minus ``b``'s,
    with ``a`` in seat 0 (column 0) and in seat 1 (column 1); ``scores[(a, b)]`` the same shape for
    ``a``'s score (1 won, ½ tied, 0 lost). At the table: ``rankings[r][i]`` is deal ``i``'s ranking of the
    *players* in rotation ``r``.
    """

    variant: Variant
    players: list[str]
    deals: int
    seed: int
    table: int
    rules: Any = None
    margins: dict = field(default_factory=dict)
    scores: dict = field(default_factory=dict)
    rankings: list = field(default_factory=list)
    _ratings: tuple | None = field(default=None, repr=False)

    @property
    def heads_up(self) -> bool:
        return self.table == 2

    # ------------------------------------------------------------------ heads-up figures
    def _pair(self, i: int, j: int) -> tuple[np.ndarray, int]:
        if (i, j) in self.scores:
            return self.scores[(i, j)], 1
        return 1.0 - self.scores[(j, i)], -1

    def hands_between(self, i: int, j: int) -> int:
        return int(self._pair(i, j)[0].size)

    def win_rate(self, i: int, j: int) -> Estimate:
        """Player ``i``'s share of the hands against ``j`` (a tie counts half), with its Wilson interval."""
        s, _ = self._pair(i, j)
        return proportion_estimate(float(s.sum()), int(s.size), seed=self.seed)

    def share_difference(self, i: int, j: int) -> Comparison:
        """Does ``i`` win more hands than ``j``? ``i``'s share of their hands less ``j``'s, compared on
        the same deals: each deal gives ``i``'s hands won less ``j``'s (its two seatings; a tie half each),
        with the t interval of their mean, and the exact sign test over the deals (those ``i`` won more
        of against those ``j`` did; split deals drop out), which also holds for small counts.

        >>> t = tournament("gin", ["greedy", "random"], deals=6, seed=1)
        >>> c = t.share_difference(0, 1)
        >>> c.estimate, c.p_value, c.shown
        (1.0, 0.03125, True)
        """
        s, _ = self._pair(i, j)
        per_deal = s.sum(axis=1) - 1.0  # i's hands won less j's on the deal (of its 2)
        better, worse = int((per_deal > 0).sum()), int((per_deal < 0).sum())
        test = sign_test(better, worse, 0, int(per_deal.size) - better - worse)  # split deals: concordant
        if per_deal.size >= 2:
            t = paired_mean_difference(per_deal.tolist())
            lo, hi = t.lo, t.hi
        else:  # one deal: nothing is measured of the spread
            lo, hi = -1.0, 1.0
        return Comparison(float(per_deal.mean()), max(-1.0, lo), min(1.0, hi), int(per_deal.size),
                          "t interval on the per-deal difference of hands won; exact sign test over the deals",
                          p_value=test.p_value, test="exact sign test", kind="proportion", paired=True)

    def ties(self, i: int, j: int) -> int:
        return int((self._pair(i, j)[0] == 0.5).sum())

    def mean_margin(self, i: int, j: int) -> tuple[float, float, float]:
        """Player ``i``'s mean gain a hand over ``j`` (the game's units), with a 95% interval over the
        deals (each deal's two hands averaged: the duplicate pair is the independent unit)."""
        key, sign = ((i, j), 1) if (i, j) in self.margins else ((j, i), -1)
        per_deal = sign * self.margins[key].mean(axis=1)
        mean = float(per_deal.mean())
        se = float(per_deal.std(ddof=1) / math.sqrt(per_deal.size)) if per_deal.size > 1 else 0.0
        return mean, mean - 1.96 * se, mean + 1.96 * se

    def deal_share(self, i: int, j: int, *, resamples: int = BOOTSTRAP) -> tuple[float, float, float]:
        """The share of the variance of one hand's result (``i``'s margin over ``j``) that the deal
        explains, with a bootstrap 95% interval over the deals.

        With ``y1``, ``y2`` the margins of one deal played in both seatings, ``d = (y1 − y2)/2`` is
        the part that changes sides with the cards and ``s = (y1 + y2)/2`` the part that stays with
        the players; ``(Var y1 + Var y2)/2 = Var s + Var d`` exactly, and the share is
        ``Var d / (Var s + Var d)``. It is 1 when only the cards decide (whoever holds them wins
        by as much), 0 when the cards do not matter.
        """
        key = (i, j) if (i, j) in self.margins else (j, i)
        value = deal_share_of(self.margins[key].astype(float))
        boots = self.deal_share_resamples(i, j, resamples=resamples)
        with warnings.catch_warnings():  # no resample with any variance (one deal): NaN, and no warning on screen
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanpercentile(boots, [2.5, 97.5])
        return float(value), float(lo), float(hi)

    def deal_share_resamples(self, i: int, j: int, *, resamples: int = BOOTSTRAP) -> np.ndarray:
        """The deal's share (:meth:`deal_share`) in each bootstrap resample of the deals: its interval is
        read from them, and two games' shares are compared through them."""
        key = (i, j) if (i, j) in self.margins else (j, i)
        return deal_share_resamples(self.margins[key].astype(float), np.random.default_rng([self.seed, 7, i, j]),
                                    resamples)

    # ------------------------------------------------------------------ ratings
    def _fit(self, rows: np.ndarray | None) -> np.ndarray:
        """Strengths θ from the deals ``rows`` (indices, with repeats for a bootstrap resample)."""
        n = len(self.players)
        if self.heads_up:
            w = np.zeros((n, n))
            for (a, b), s in self.scores.items():
                picked = s if rows is None else s[rows]
                won = float(picked.sum())
                w[a, b] += won
                w[b, a] += picked.size - won
            return bradley_terry(n, w)
        counts: dict = {}
        for per_rotation in self.rankings:
            for k in (range(len(per_rotation)) if rows is None else rows):
                for chosen, others in self._choices[id(per_rotation)][k]:
                    counts[(chosen, others)] = counts.get((chosen, others), 0) + 1
        return plackett_luce(n, counts)

    @property
    def _choices(self) -> dict:
        # each hand's ranking as Plackett–Luce's successive choices, computed once
        if not hasattr(self, "_choice_cache"):
            self._choice_cache = {id(rot): [[(c, tuple(sorted(o))) for c, o in ranking_choices(r)] for r in rot]
                                  for rot in self.rankings}
        return self._choice_cache

    def ratings(self, *, resamples: int = BOOTSTRAP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Elo ratings (the weakest player at 0), with bootstrap 95% intervals over the deals:
        ``(elo, lo, hi)``; Bradley–Terry heads-up, Plackett–Luce at the table."""
        if self._ratings is None:
            theta = self._fit(None)
            base = int(np.argmin(theta))
            rng = np.random.default_rng([self.seed, 11])
            boots = np.array([self._fit(rng.integers(0, self.deals, self.deals)) for _ in range(resamples)])
            boots = boots - boots[:, [base]]  # the same anchor in every resample
            value = elo(theta - theta[base])
            lo, hi = np.percentile(elo(boots), [2.5, 97.5], axis=0)
            self._ratings = (value, lo, hi)
            self._boots = elo(boots)
        return self._ratings

    def spread_resamples(self) -> np.ndarray:
        """The rating spread from the weakest (random) to the best player in each bootstrap resample of the
        deals (Elo): what the spread's interval is read from, kept to compare two games' spreads."""
        self.ratings()
        names = self.players
        weakest = names.index("random") if "random" in names else int(np.argmin(self.ratings()[0]))
        return self._boots[:, self.best()] - self._boots[:, weakest]

    @classmethod
    def from_hands(cls, variant: str, players: Sequence[str], deals: int, seed: int, hands: dict) -> "Tournament":
        """A heads-up tournament rebuilt from its hands as a results file keeps them
        (:func:`rumino.tournament.ladder.hands_json`): its ratings and luck figures read again, no hand played.

        >>> t = tournament("knock-rummy", ["greedy", "random"], deals=3, seed=1)
        >>> from rumino.tournament.ladder import hands_json
        >>> u = Tournament.from_hands("knock-rummy", t.players, 3, 1, hands_json(t))
        >>> u.as_json() == t.as_json()
        True
        """
        t = cls(find_variant(variant), list(players), deals, int(seed), 2)
        for pair, got in hands.items():
            a, b = (t.players.index(p) for p in pair.split("|"))
            t.margins[(a, b)] = np.array(got["margins"], dtype=float)
            t.scores[(a, b)] = np.array(got["scores"], dtype=float)
        return t

    def best(self) -> int:
        return int(np.argmax(self.ratings()[0]))

    def luck(self) -> dict:
        """The luck-and-skill figures: the rating spread from the weakest (random, when it plays)
        to the best player, and, heads-up, for each other player against the best: its chance of
        winning one hand, the hands a match needs for the best to win it 95% of the time, and the
        share of a hand's variance the deal explains."""
        value, lo, hi = self.ratings()
        best = self.best()
        names = self.players
        weakest = names.index("random") if "random" in names else int(np.argmin(value))
        out: dict = {"best": names[best], "weakest": names[weakest],
                     "spread_elo": [float(value[best] - value[weakest]), *self._spread_interval(best, weakest)]}
        if not self.heads_up:
            return out
        against = {}
        for other in range(len(names)):
            if other == best:
                continue
            p_other = self.win_rate(other, best)
            s, _ = self._pair(best, other)
            decisive = s[s != 0.5]
            wins = int((decisive == 1).sum())
            p = proportion_estimate(wins, int(decisive.size), seed=self.seed) if decisive.size else None
            against[names[other]] = {
                "weaker_wins_a_hand": [p_other.value, p_other.lo, p_other.hi],
                "hands_for_match": ([games_for_match(p.value), games_for_match(p.hi), games_for_match(p.lo)]
                                    if p is not None else [None, None, None]),
                "deal_share": list(self.deal_share(best, other)),
                "ties": self.ties(best, other)}
        out["against_best"] = against
        out["separated"] = self.separated()
        return out

    def separated(self) -> list:
        """Heads-up pairs where one player won every hand: the fit can only say its rating gap is
        large, so each comes with a 95% lower bound instead, ``(winner, loser, Elo)``: the gap at
        which winning all ``n`` hands still has a 2.5% chance (Clopper–Pearson, ``p ≥ 0.025^(1/n)``)."""
        out = []
        for (a, b), s in self.scores.items():
            for w, l, mine in ((a, b, s), (b, a, 1.0 - s)):
                if mine.size and bool((mine == 1).all()):
                    p_lo = 0.025 ** (1 / mine.size)
                    out.append((self.players[w], self.players[l], float(elo(math.log(p_lo / (1 - p_lo))))))
        return out

    def _spread_interval(self, best: int, weakest: int) -> list[float]:
        self.ratings()
        spreads = self._boots[:, best] - self._boots[:, weakest]  # the rating resamples, read again
        lo, hi = np.percentile(spreads, [2.5, 97.5])
        return [float(lo), float(hi)]

    def as_json(self) -> dict:
        value, lo, hi = self.ratings()
        n = len(self.players)
        out = {"variant": self.variant.key, "players": self.players, "deals": self.deals, "seed": self.seed,
               "table": self.table, "model": "bradley-terry" if self.heads_up else "plackett-luce",
               "ratings_elo": {p: [float(value[i]), float(lo[i]), float(hi[i])] for i, p in enumerate(self.players)},
               "luck": self.luck()}
        if self.heads_up:
            out["win_rate"] = {self.players[i]: {self.players[j]: self.win_rate(i, j).as_json()
                                                 for j in range(n) if j != i} for i in range(n)}
            out["mean_margin"] = {self.players[i]: {self.players[j]: list(self.mean_margin(i, j))
                                                    for j in range(n) if j != i} for i in range(n)}
            # each pair once, the earlier player first: i's share of their hands less j's, paired on the deals
            out["share_difference"] = {f"{self.players[i]}|{self.players[j]}": self.share_difference(i, j).as_json()
                                       for i in range(n) for j in range(i + 1, n)}
        else:
            out["hand_wins"] = {p: self.table_win_rate(i).as_json() for i, p in enumerate(self.players)}
        return out

    def table_win_rate(self, i: int) -> Estimate:
        """At the table: player ``i``'s share of the hands it won outright (a tie for first shared)."""
        total, won = 0, 0.0
        for per_rotation in self.rankings:
            for ranking in per_rotation:
                total += 1
                if i in ranking[0]:
                    won += 1 / len(ranking[0])
        return proportion_estimate(won, total, seed=self.seed)

    def model_check(self) -> dict:
        """Heads-up: each pair's observed win rate beside the one the ratings predict."""
        theta = self._fit(None)
        n = len(self.players)
        return {(i, j): (self.win_rate(i, j).value, win_chance(theta[i], theta[j]))
                for i in range(n) for j in range(n) if i != j}


def _heads_up_chunk(job) -> list:
    variant, rules, a, b, seed, start, size = job
    rows = []
    for k in range(start, start + size):
        first = play_hand(variant, [a, b], seed, k, rules=rules)
        second = play_hand(variant, [b, a], seed, k, rules=rules)
        rows.append((first.gains[0] - first.gains[1], second.gains[1] - second.gains[0],
                     _score(first, 0), _score(second, 1)))
    return rows


def _table_chunk(job) -> list:
    variant, rules, players, seed, start, size = job
    n = len(players)
    rows = []
    for k in range(start, start + size):
        per_rotation = []
        for r in range(n):
            seating = [(r + s) % n for s in range(n)]  # seat s holds player (r + s) mod n
            out = play_hand(variant, [players[p] for p in seating], seed, k, rules=rules)
            per_rotation.append(tuple(tuple(sorted(seating[s] for s in group)) for group in out.ranking))
        rows.append(per_rotation)
    return rows


def _score(outcome, seat: int) -> float:
    """1, ½ or 0: how seat ``seat`` did against the other seat of a heads-up hand."""
    rank = outcome.rank_of(seat)
    if len(outcome.ranking) == 1:
        return 0.5
    return 1.0 if rank == 0 else 0.0


def check_players(variant: Variant, players: Sequence[str], table: int) -> list[str]:
    """The players' specs, checked against the game: each must fit it, no player twice, and the
    table size must be one the game allows."""
    specs = [str(p).strip() for p in players]
    if len(specs) < 2:
        raise RuleConfigError(f"a tournament needs at least 2 players; got {len(specs)} ({', '.join(specs)}).")
    if any(s.lower() == "human" for s in specs):
        raise RuleConfigError("a tournament cannot wait for a human player: choose bots (random, greedy, …).")
    if len(set(specs)) != len(specs):
        twice = sorted({s for s in specs if specs.count(s) > 1})
        raise RuleConfigError(f"the player {twice[0]!r} is given twice: a tournament's players are distinct.")
    game = variant.game
    for s in specs:
        from rumino.players import allowed_for, player_fits

        if not (player_fits(s, game) and make_player(s, seed=0).fits(game)):  # asked before the player is made
            raise RuleConfigError(f"player {s!r} does not play {game.NAME}: the players for {game.NAME} are "
                                  f"{allowed_for(game)}.")
    lo, hi = game.MIN_PLAYERS, game.MAX_SEATS
    if not lo <= table <= hi:
        raise RuleConfigError(f"a table of {table}: {game.NAME} is for {lo} to {hi} players.")
    if table != 2 and table != len(specs):
        raise RuleConfigError(f"a table of {table} with {len(specs)} players: at the table every player sits "
                              f"in every hand, so give {table} players (or a table of 2 for heads-up matches).")
    return specs


def tournament(variant: str | Variant, players: Sequence[str], *, deals: int = 200, seed: int = 0,
               table: int = 2, rules: Any = None, workers: int = 1, dask: str | None = None,
               executor: Executor | None = None,
               progress: Callable[[int, int], None] | None = None) -> Tournament:
    """Play a tournament of ``variant`` between ``players`` on ``deals`` seeded deals.

    ``table=2``: every pair heads-up, each deal twice with the seats swapped; a larger
    ``table`` (as many as there are players): each deal once per rotation of the seats.
    ``progress(done, total)`` is called after each chunk (``total`` chunks).
    """
    from rumino.compare.figures import executor_for

    v = find_variant(variant)
    if v.game is None:
        raise RuleConfigError(f"{v.title} has no playable engine.")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise RuleConfigError(f"deals is {deals!r}: it must be a whole number from 1 to {MAX_DEALS:,}.")
    specs = check_players(v, players, table)
    rules = v.rules if rules is None else rules
    starts = list(range(0, deals, CHUNK))
    t = Tournament(v, specs, deals, int(seed), table, rules)
    if table == 2:
        pairs = list(itertools.combinations(range(len(specs)), 2))
        jobs = [(v.key, rules, specs[a], specs[b], seed, s, min(CHUNK, deals - s)) for a, b in pairs for s in starts]
        fn = _heads_up_chunk
    else:
        pairs = []
        jobs = [(v.key, rules, specs, seed, s, min(CHUNK, deals - s)) for s in starts]
        fn = _table_chunk
    results = _run(fn, jobs, workers, dask, executor, progress, executor_for)
    if table == 2:
        per_pair = len(starts)
        for n_pair, (a, b) in enumerate(pairs):
            rows = [r for chunk in results[n_pair * per_pair:(n_pair + 1) * per_pair] for r in chunk]
            arr = np.array(rows, dtype=float)
            t.margins[(a, b)] = arr[:, :2]
            t.scores[(a, b)] = arr[:, 2:]
    else:
        rows = [r for chunk in results for r in chunk]
        t.rankings = [[row[r] for row in rows] for r in range(table)]
    return t


def _run(fn, jobs, workers, dask, executor, progress, executor_for) -> list:
    total = len(jobs)
    out: list = [None] * total
    if executor is None and workers == 1 and dask is None:
        for k, job in enumerate(jobs):
            out[k] = fn(job)
            if progress:
                progress(k + 1, total)
        return out
    from concurrent.futures import as_completed

    def on(ex):
        futures = {ex.submit(fn, job): k for k, job in enumerate(jobs)}
        for done, fut in enumerate(as_completed(futures), start=1):
            out[futures[fut]] = fut.result()
            if progress:
                progress(done, total)

    if executor is not None:
        on(executor)
    else:
        with executor_for(workers, dask) as ex:
            on(ex)
    return out


__all__ = ["Tournament", "check_players", "tournament"]
