"""One profile per game and configuration: the same questions asked of every game, on the same footing.

A :class:`Profile` is a flat table of named :class:`Figure` objects (and a few
distributions). Each figure is either **exact** (a ``Fraction``: JSON
``{"numerator", "denominator", "value"}``, as ``rumino odds deal`` prints) or
**simulated** (a :class:`~rumino.stats.Estimate`: JSON ``{"estimate", "ci95",
"n", "seed"}``). The names are stable (the widgets and the book read them):

the deal (every game with melds; exact where the enumeration is feasible or stored)
    ``deal.p_end_at_once`` — P(the dealt hand may end the hand at once: a knock
    within the limit, gin, a rumino; for a game without knocking, all cards in
    melds), ``deal.p_deadwood_0``, ``deal.p_can_knock`` (games with a knock
    limit), ``deal.p_rumino`` (Rumino), ``deal.mean_deadwood``,
    ``deal.var_deadwood``, and per number of jokers dealt ``j``:
    ``deal.jokers.{j}.p_dealt``, ``deal.jokers.{j}.mean_deadwood``,
    ``deal.jokers.{j}.p_end_at_once``; the distribution ``deal.deadwood``; for a game
    whose first melds must reach a total (Rommé's 40), ``deal.p_open`` and
    ``deal.jokers.{j}.p_open``.
the hand (games with an engine; the default bots, heads-up)
    ``hand.turns`` (mean turns to the end of a hand), ``hand.ending.{e}`` (how
    hands end, shares), ``hand.p_stock_exhausted``; the distribution
    ``hand.turns`` (a histogram: turns → hands, with n and seed).
the game
    ``game.hands`` (hands per game), ``game.stakes`` (points or chips that change
    hands per game) and ``game.stakes_sd`` (their spread); ``game.turns`` (turns a game:
    a turn is one player's go) and ``game.minutes`` (minutes at the table at the book's pace,
    :data:`rumino.playing.game_length.PACE`), from the default match's games played again and
    counted (:func:`rumino.playing.game_length.measure_length`; Rummoli's too).
luck against skill (heads-up, seats alternating)
    ``luck.greedy_vs_random``, ``luck.best_vs_random``, ``luck.best_vs_greedy``:
    win rates; ``Profile.best_bot`` names the best bot.
Rummoli in its own terms (:mod:`rumino.compare.rummoli_profile`)
    ``rummoli.poker.*`` (the poker pot: chips it pays, P(four of a kind or better
    wins), P(a straight flush wins), and exact P(a dealt hand holds as much) per
    hand size: heads-up every hand holds a flush, so a flush is no bar),
    ``rummoli.section.*`` (each section's share of the chips paid, the final
    sweep), ``rummoli.luck.mean_chips_vs_random``; and the shared ``hand.turns``,
    ``hand.ending.*`` (P(deadlock) is ``hand.ending.deadlock``), ``game.*`` and
    ``luck.best_vs_random``.

Decisions (the issue leaves them open):

* Every play figure is heads-up (two seats, the one size every game allows)
  with the same bot definitions in every game (``greedy``, ``random``,
  ``threshold:3``; ``chaser:5`` only where it fits: Rumino). The default bots are
  two greedy bots. ``greedy`` is each game's own default bot wherever the game
  gives it its decisions (its row's ``Variant.bots.decide``):
  Gin's, Wiener's and Knock Rummy's, Rommé's (:mod:`rumino.variants.romme.bots`:
  open at 40, lay and lay off, hand-Rommé when it can) and Robber's
  (:mod:`rumino.variants.robber.bots`: the exact table solver's move). So
  Rommé and Robber play ``greedy`` (their default) against ``random``; the
  knock bots ``threshold`` and ``chaser`` do not fit games without a knock, so
  their best bot is greedy itself. Rummoli, whose bots are its own, plays
  ``default`` and ``random`` (:mod:`rumino.compare.rummoli_profile`).
* Games per match: ``games`` for a column whose engine costs what a typical
  game does; an engine may declare ``PLAY_COST`` (how many times a typical game's
  CPU one game with its default bots takes: Robber's solver bot, ~0.6 s a game, is
  50), and its column plays ``max(ceil(games / PLAY_COST), min(games, 20))`` games a
  match (``Profile.games`` says how many). So ``--games 500`` plays 500 Rommé games
  a match but 20 of Robber. Bot A sits first in even games and second in odd ones.
  Every match of a column uses the same seed, so game ``i`` of each match is
  dealt the same cards (common random numbers: the matches differ by the bots).
* The best bot is the candidate of :data:`SKILL_CANDIDATES` with the highest
  win rate against greedy, if above one half; otherwise greedy itself, whose
  rate against greedy is exactly 1/2 by symmetry. The choice is made on the
  same games its figure reports (a mild selection bias, stated here); the raw
  rates of every candidate are in ``distributions["luck.candidates"]``.
* A turn is a draw (stock or discard) or a knock in lieu of drawing, or an
  action of the engine's ``TURN_ACTIONS`` that begins a player's turn (Robber's
  placement or pass without a draw); a hand's
  stock "runs out" if it was reshuffled or the hand ended by the stock (endings
  ``stock_exhausted`` or ``void``).
* What changes hands per game: the pot paid out, in the game's money (Rumino's
  currency, Wiener's chips) when the game has one; in a points game (Gin, Knock
  Rummy) the winner's lead over the loser in final points.
* A game without melds (Rummoli) has no deal figures: its own questions (the
  poker pot, the sections) are asked by :mod:`rumino.compare.rummoli_profile`.
* A game whose rules give the winner alone (Robber's ``scoring="none"``) has
  ``game.stakes`` 0: nothing but the win changes hands, and a note says so.

A game without an engine in the registry gets its deal profile only and says
so (``Profile.engine`` is False and a note explains). Nothing here names a game
but Rummoli (the one game without melds, profiled in its own terms):
what a game has (a knock limit, a rumino, jokers, an engine, its endings) is
read from the registry (:mod:`rumino.variants`), so an engine registered there
brings its play profile with it.

Determinism: simulated deals are the chunked, seeded Monte Carlo of
:mod:`rumino.odds.montecarlo`; game ``i`` of each match is seeded by the one
scheme of :mod:`rumino.playing.seeding` from ``(seed, i)``. Work is cut into fixed
chunks whose results are merged in order, so a profile depends on ``(column,
samples, games, seed)`` only, whatever the number of workers or the executor
(a local process pool or a Dask cluster).

>>> p = profile("gin", samples=200, games=4, seed=1)
>>> p["deal.p_deadwood_0"].kind, p["hand.turns"].kind
('exact', 'simulated')
>>> sorted(p.as_json()["figures"]["hand.turns"]) [:3]
['ci95', 'estimate', 'interval']
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from rumino.errors import RuleConfigError
from rumino.stats import Z95, Estimate, mean_estimate, proportion_estimate
from rumino.compare.figures import (PLAYERS, Figure, dealt_hand_size, difference_text, exact_figure, executor_for,
                                    histogram, rumino_flags, simulated_figure)
from rumino.compare.matrix import Column
from rumino.compare import rummoli_profile
from rumino.compare.deals import EXACT_CLASS_LIMIT, stored_distribution
from rumino.engine.actions import Draw, Knock
from rumino.engine.base import TurnGame
from rumino.engine.protocol import play
from rumino.odds.enumerate import DealDistribution, PackShape, class_count
from rumino.odds.exact import exact_deal_distribution
from rumino.odds.montecarlo import DEFAULT_CHUNK, chunk_seeds, chunk_sizes, deal_chunk, mean_from_moments
from rumino.odds.opening import value_chunk
from rumino.players import make_player
from rumino.playing.game_length import CHUNK as LENGTH_CHUNK, PACE, measure_length
from rumino.playing.seeding import new_table
from rumino.variants import find_variant

# the bots: the same definitions in every game that allows them (a bot that does not fit a game is skipped)
DEFAULT_BOTS = ("greedy", "greedy")  # the default table: heads-up, two greedy bots
SKILL_CANDIDATES = ("greedy", "threshold:3", "chaser:5")  # the best bot is the best of these against greedy
STOCK_ENDINGS = ("stock_exhausted", "void")  # endings that mean the stock ran out (names shared by the engines)
# the chunks of rumino.odds.montecarlo.simulate_deals: with the same n and seed a profile's simulated deal
# is the very sample simulate_deals draws, so a chapter's deal figures and a profile's are one quantity
DEAL_CHUNK = DEFAULT_CHUNK
GAME_CHUNK = 25
MIN_COSTLY_GAMES = 20  # a costly engine (PLAY_COST > 1) still plays this many games a match (fewer if asked)
SECTION_ORDER = {"deal": 0, "hand": 1, "game": 2, "luck": 3}
PLAY_CHOICES = ("all", "default")  # the matches a profile plays: every one, or the default bots' only


# how a hand ended, in players' words (the engines' ENDINGS are short codes: "romme", "hand_romme")
ENDING_WORDS = {"knock": "a knock", "gin": "gin", "rumino": "a rumino", "rummy": "a rummy call",
                "stock_exhausted": "the stock running out", "void": "a void hand (the stock ran down)",
                "romme": "going out (“Rommé!”)", "hand_romme": "a hand-Rommé (going out all at once)",
                "out": "going out", "blocked": "a blocked table (nobody can go on)"}


def games_for(engine: type[TurnGame] | None, games: int) -> int:
    """Games per match for a column of ``engine``: ``games``, or fewer for a costly engine (``PLAY_COST``).

    >>> from rumino.variants.robber import RobberGame
    >>> games_for(RobberGame, 500), games_for(RobberGame, 5000), games_for(RobberGame, 4), games_for(None, 500)
    (20, 100, 4, 500)
    """
    cost = 1 if engine is None else engine.PLAY_COST
    if cost <= 1:
        return games
    return max(math.ceil(games / cost), min(games, MIN_COSTLY_GAMES))


OWN_TERMS = {"chips": rummoli_profile}
"""The games profiled in their own terms, by ``Variant.tally`` (Rummoli's chips: no melds, its own bots): a
module with the matches (``MATCHES``), the job that plays a chunk of one (``games_chunk``, the same arguments as
:func:`_games_chunk`), the figures from their tallies (``figures``) and a ``NOTE``."""


# --------------------------------------------------------------------------- figures


@dataclass
class Profile:
    """The profile of one column: figures by name, distributions, notes and how it was computed."""

    label: str
    variant: str
    rules: dict  # the house rules that differ from the variant's defaults
    engine: bool  # True: the game has an engine, so the hand, game and luck figures were played
    samples: int
    games: int
    seed: int
    figures: dict[str, Figure] = field(default_factory=dict)
    distributions: dict[str, dict] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    best_bot: str | None = None
    deal_method: str = ""
    play: str = "all"  # "default": the default bots' match only (no luck figures)
    stakes_unit: str = ""  # what game.stakes counts: "points", "chips", "money (…)"

    def __getitem__(self, key: str) -> Figure:
        try:
            return self.figures[key]
        except KeyError:
            raise KeyError(f"{self.label} has no figure {key!r}; it has: {', '.join(self.figures)}") from None

    def get(self, key: str) -> Figure | None:
        return self.figures.get(key)

    def add(self, fig: Figure) -> None:
        self.figures[fig.key] = fig

    def as_json(self) -> dict:
        return {"column": self.label, "variant": self.variant, "rules": self.rules, "engine": self.engine,
                "samples": self.samples, "games": self.games, "seed": self.seed, "players": PLAYERS,
                "deal_method": self.deal_method, "best_bot": self.best_bot, "play": self.play,
                "stakes_unit": self.stakes_unit,
                "figures": {k: f.as_json() for k, f in self.figures.items()},
                "distributions": self.distributions, "notes": list(self.notes)}

    @classmethod
    def from_json(cls, d: dict) -> "Profile":
        """The profile :meth:`as_json` wrote, read back (a stored results file such as the book's).

        >>> p = profile("gin", samples=100, games=2, seed=1)
        >>> q = Profile.from_json(p.as_json())
        >>> q["hand.turns"] == p["hand.turns"], q.games, q.best_bot == p.best_bot
        (True, 2, True)
        """
        prof = cls(d["column"], d["variant"], dict(d["rules"]), d["engine"], d["samples"], d["games"], d["seed"],
                   distributions=d["distributions"], notes=list(d["notes"]), best_bot=d["best_bot"],
                   deal_method=d["deal_method"], play=d.get("play", "all"), stakes_unit=d.get("stakes_unit", ""))
        for key, fig in d["figures"].items():
            prof.add(Figure.from_json(key, fig))
        return prof

    def _repr_html_(self) -> str:
        return profiles_html([self], caption=f"Profile: {self.label}")

    def rows(self) -> list[tuple[str, str, str]]:
        """``(key, label, text)`` for each figure, in order."""
        return [(k, f.label, f.text()) for k, f in self.figures.items()]


def stakes_unit(engine: type[TurnGame] | None) -> str:
    """What a game's pot pays in, in words: money kept in cents (``POT_SCALE`` > 1) or chips.

    >>> from rumino.variants.rumino import RuminoGame
    >>> from rumino.variants.wiener import WienerGame
    >>> stakes_unit(RuminoGame), stakes_unit(WienerGame)
    ('currency units', 'chips')
    """
    return "currency units" if getattr(engine, "POT_SCALE", 1) > 1 else "chips"


def load_profiles(path: str | os.PathLike) -> tuple[dict, list["Profile"]]:
    """A results file written by ``rumino compare … --save PATH``: its header (the command, the CPU time)
    and its profiles, in column order."""
    import json
    from pathlib import Path

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return data.get("run", {}), [Profile.from_json(p) for p in data["profiles"]]


# --------------------------------------------------------------------------- executors


def _variance_estimate(xs: np.ndarray, seed) -> Estimate:
    """The sample variance with a normal 95% interval (se from the sample's fourth central moment)."""
    n = len(xs)
    if n < 2:
        return Estimate(0.0, 0.0, 0.0, n, seed, "normal", se=0.0)
    d = xs - xs.mean()
    var = float((d * d).sum() / (n - 1))
    m4 = float((d ** 4).mean())
    se = math.sqrt(max(0.0, (m4 - var * var * (n - 3) / (n - 1)) / n))
    return Estimate(var, max(0.0, var - Z95 * se), var + Z95 * se, n, seed, "normal", se=se)


def _map_chunks(fn, jobs: list[tuple], executor, tick: Callable[[], None]) -> list:
    """``fn(*job)`` for every job, in job order, on ``executor`` (None: here); ``tick()`` after each."""
    results = map(_call, [(fn, job) for job in jobs]) if executor is None else \
        executor.map(_call, [(fn, job) for job in jobs])
    out = []
    for res in results:
        out.append(res)
        tick()
    return out


def _call(item):
    fn, job = item
    return fn(*job)


# --------------------------------------------------------------------------- the deal


def _deal_plan(col: Column, samples: int, deal: str = "auto"):
    """How the deal is profiled: ("exact …", dist) if it is stored, ("exact …", ENUMERATE) if it is small
    enough to enumerate on the spot, else ("simulated", None). ``deal="simulated"`` always simulates (to
    check one route by the other)."""

    mr = col.rules.meld_rules
    k = dealt_hand_size(col)
    flags = rumino_flags(col)
    if deal == "simulated":
        return "simulated", None
    stored = stored_distribution(mr, k, flags)
    if stored is not None:
        return "exact (stored enumeration)", stored
    if class_count(PackShape.of(mr.pack), k) <= EXACT_CLASS_LIMIT:
        return "exact (every deal, up to suit symmetry)", ENUMERATE  # done on the profile's executor
    return "simulated", None


ENUMERATE = "enumerate"


def _enumerate(col: Column, executor):
    flags = rumino_flags(col)
    return exact_deal_distribution(col.rules.meld_rules, dealt_hand_size(col), rumino=flags is not None,
                                   rumino_distinct=bool(flags and flags[0]),
                                   rumino_natural_only=bool(flags and flags[1]), executor=executor)


def _deal_jobs(col: Column, samples: int, seed: int) -> list[tuple]:
    mr = col.rules.meld_rules
    sizes = chunk_sizes(samples, DEAL_CHUNK)
    seeds = chunk_seeds(seed, len(sizes))
    k = dealt_hand_size(col)
    return [(size, ss, mr.pack, k, mr, rumino_flags(col)) for size, ss in zip(sizes, seeds)]


def _deal_figures(prof: Profile, col: Column, dist, exact: bool, samples: int, seed: int) -> None:
    """The deal's figures from a deal distribution (exact counts, or a sample's counts)."""
    v, rules = col.variant, col.rules
    limit = v.knock_limit(rules) if v.knock_field else None
    knocks = v.knock_field is not None
    jokers = sorted(dist.deadwood)

    def prop(count: int, n: int) -> Figure | Fraction | Estimate:
        return Fraction(count, n) if exact else proportion_estimate(count, n, seed=seed)

    def mean(j=None):
        h = dist.counts(j)
        n = sum(h.values())
        if exact:
            return Fraction(sum(d * c for d, c in h.items()), n)

        return mean_from_moments(n, float(sum(d * c for d, c in h.items())),
                                 float(sum(d * d * c for d, c in h.items())), seed)

    def fig(key, label, x, note=""):
        if isinstance(x, Fraction):
            prof.add(exact_figure(key, "deal", label, x, note))
        else:
            prof.add(simulated_figure(key, "deal", label, x, note))

    def end_count(j=None) -> int:
        if j is None:
            return sum(end_count(i) for i in jokers)
        # a knock game: within the limit (no limit: any hand may knock); otherwise all in melds
        n = dist.deals(j) if (knocks and limit is None) else dist.count_at_most(limit if knocks else 0, j)
        # A rumino with 2 or more naturals splits into a 4-lay and a 3-lay (each lay needs one natural),
        # so it is already counted at deadwood 0. With 6 or 7 jokers every hand is a rumino (7 of a kind
        # around its one natural) whatever its deadwood: the rumino count is then the whole of them.
        if v.has_rumino and dist.rumino_count(j) == dist.deals(j):
            n = dist.deals(j)
        return n

    n_all = dist.deals()
    what = ("a knock within the limit" + (", gin" if v.has_gin else "") + (" or a rumino" if v.has_rumino else "")
            if knocks else "every card in melds")
    fig("deal.p_end_at_once", f"P(dealt hand may end the hand at once: {what})", prop(end_count(), n_all))
    fig("deal.p_deadwood_0", "P(dealt hand all in melds: gin / rummy)", prop(dist.count_at_most(0), n_all))
    if knocks and limit is not None:
        fig("deal.p_can_knock", f"P(dealt deadwood ≤ knock limit {limit})", prop(dist.count_at_most(limit), n_all))
    if v.has_rumino:
        fig("deal.p_rumino", "P(dealt hand is a rumino)", prop(dist.rumino_count(), n_all))
    m = mean()
    fig("deal.mean_deadwood", "mean dealt deadwood (penalty points)", m)
    h = dist.counts()
    if exact:
        fig("deal.var_deadwood", "variance of dealt deadwood",
            Fraction(sum(d * d * c for d, c in h.items()), n_all) - m * m)
    else:
        xs = np.repeat(np.array(list(h), dtype=float), np.array(list(h.values()), dtype=np.int64))
        fig("deal.var_deadwood", "variance of dealt deadwood", _variance_estimate(xs, seed))
    prof.distributions["deal.deadwood"] = {"kind": "exact" if exact else "simulated", "total": n_all,
                                           "counts": {str(d): int(c) for d, c in sorted(h.items())},
                                           **({} if exact else {"n": samples, "seed": seed})}
    if col.rules.meld_rules.pack.jokers:
        for j in jokers:
            nj = dist.deals(j)
            fig(f"deal.jokers.{j}.p_dealt", f"P({j} joker{'s' if j != 1 else ''} dealt)", prop(nj, n_all))
            if nj:
                fig(f"deal.jokers.{j}.mean_deadwood", f"mean dealt deadwood with {j} joker{'s' if j != 1 else ''}",
                    mean(j))
                fig(f"deal.jokers.{j}.p_end_at_once", f"P(may end at once | {j} joker{'s' if j != 1 else ''})",
                    prop(end_count(j), nj))
        prof.distributions["deal.deadwood_by_jokers"] = {
            str(j): {str(d): int(c) for d, c in sorted(dist.counts(j).items())} for j in jokers}


def _opening_figures(prof: Profile, col: Column, jobs, samples: int, seed: int, ex, tick) -> None:
    """P(the dealt hand can open): melds from the dealt cards worth the rules' ``opening_min`` (Rommé's 40),
    by the compiled opening kernel on the same seeded hands as the simulated deal."""

    grid = np.sum(_map_chunks(value_chunk, jobs, ex, tick), axis=0)
    m = int(col.rules.opening_min)
    values = np.arange(grid.shape[1])

    def p(row):
        return proportion_estimate(int(row[values >= m].sum()), int(row.sum()), seed=seed)

    prof.add(simulated_figure("deal.p_open", "deal", f"P(dealt hand can open with {m} or more)", p(grid.sum(axis=0)),
                              note="the opening value of the dealt cards alone, before any draw"))
    if col.rules.meld_rules.pack.jokers:
        for j, row in enumerate(grid):
            if row.sum():
                prof.add(simulated_figure(f"deal.jokers.{j}.p_open", "deal",
                                          f"P(can open with {m} | {j} joker{'s' if j != 1 else ''})", p(row)))


# --------------------------------------------------------------------------- play


@dataclass
class _GameTally:
    """What one game contributes: A's share of the win, hands, and per hand (turns, ending, stock ran out)."""

    share: float
    hands: list[tuple[int, str, bool]]
    money: float  # paid out of the pot, in the game's money (0 in a points game)
    points: float  # the winner's lead over the loser in final points


def _games_chunk(size: int, start: int, variant_key: str, rules, bots: tuple[str, str], seed: int) -> list:
    """Play games ``start … start+size−1`` of a heads-up match (bot A against bot B, seats alternating)."""

    v = find_variant(variant_key)
    engine = v.game
    a, b = bots
    out = []
    turn_actions = (Draw, Knock)
    starts = engine.TURN_ACTIONS  # count only as the first action of a player's turn

    def count_turns(history) -> int:
        n, prev = 0, None
        for seat, act in history:
            t = type(act)
            if t in turn_actions or (t in starts and seat != prev):
                n += 1
            prev = seat
        return n

    def hand_done(g):
        return g.hand_over

    def hand_on(g):
        return not g.hand_over or g.game_over

    for i in range(start, start + size):
        seat_a = i % 2  # bot A sits first in even games, second in odd ones
        specs = [a, b] if seat_a == 0 else [b, a]
        game, players = new_table(v, specs, seed, i, rules=rules)
        hands = []
        while not game.game_over:
            h0, r0 = len(game.history), game.reshuffles
            play(game, players, checked=False, until=hand_done)
            ending = game.results[-1].ending
            turns = count_turns(game.history[h0:])
            hands.append((turns, ending, game.reshuffles > r0 or ending in STOCK_ENDINGS))
            if not game.game_over:
                play(game, players, checked=False, until=hand_on)
        res = game.result
        share = (1 / len(res.winners)) if seat_a in res.winners else 0.0
        money = game.pot_paid_out / engine.POT_SCALE
        totals = res.final_points(game)
        out.append(_GameTally(share, hands, float(money), float(max(totals) - min(totals))))
    return out


def _match_jobs(col: Column, bots: tuple[str, str], games: int, seed: int) -> list[tuple]:
    sizes = chunk_sizes(games, GAME_CHUNK)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return [(size, start, col.variant.key, col.rules, bots, seed) for size, start in zip(sizes, starts)]


def _fits(spec: str, engine) -> bool:
    return make_player(spec, seed=0).fits(engine)


# --------------------------------------------------------------------------- the profile


def profile(column: Column | str | tuple[str, Any], *, samples: int = 20_000, games: int | None = None,
            seed: int = 0, workers: int = 1, progress: Callable[[int, int], None] | None = None,
            dask: str | None = None, executor: Executor | None = None, deal: str = "auto",
            play: str = "all") -> Profile:
    """The profile of one column (a name such as ``"rumino:n_jokers=2"``, a :class:`Column`, or a
    ``(variant, rules)`` pair).

    ``samples`` deals are simulated when the deal is not known exactly; ``games``
    games (default ``max(40, samples // 40)``; fewer for a costly engine, :func:`games_for`) are played for
    each of the matches
    (the default bots against each other, and each bot of :data:`SKILL_CANDIDATES`
    that fits the game against random and against greedy). ``progress(done,
    total)`` is called after each chunk of work. ``workers`` > 1 runs the chunks on
    a local process pool, ``dask`` (a scheduler address) on a Dask cluster, or pass
    an ``executor``; the figures do not depend on which. ``deal="simulated"``
    simulates the deal even where it is known exactly (``"auto"``: exact where possible).
    """
    return profiles([column], samples=samples, games=games, seed=seed, workers=workers, progress=progress,
                    dask=dask, executor=executor, deal=deal, play=play)[0]


def _check_count(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise RuleConfigError(f"{name} is {value!r}: it must be a whole number of at least {low}.")
    return int(value)


def profiles(columns: Sequence, *, samples: int = 20_000, games: int | None = None, seed: int = 0,
             workers: int = 1, progress: Callable[[int, int], None] | None = None, dask: str | None = None,
             executor: Executor | None = None, deal: str = "auto", play: str = "all") -> list[Profile]:
    """The profiles of several columns, sharing one executor and one progress count (see :func:`profile`).

    ``play="default"`` plays only the default bots' match (the hand and game figures, no luck against
    skill): a fifth of the games, for a study that reads the hands alone."""
    cols = [Column.of(c) for c in columns]
    if not cols:
        raise RuleConfigError("a comparison needs at least one column (a variant name).")
    samples = _check_count("samples", samples, 1)
    games = max(40, samples // 40) if games is None else _check_count("games", games, 1)
    seed = _check_count("seed", seed, 0)
    if play not in PLAY_CHOICES:
        raise RuleConfigError(f"play is {play!r}: it must be one of {', '.join(PLAY_CHOICES)}.")
    if deal not in ("auto", "simulated"):
        raise RuleConfigError(f"deal is {deal!r}: it must be 'auto' (exact where possible) or 'simulated'.")

    # plan every piece of work first, so the progress total is known
    plans = []
    total = 0
    for col in cols:
        plan: dict[str, Any] = {"deal": None, "deal_jobs": [], "open_jobs": [], "matches": {}}
        if col.rules.meld_rules is not None:
            method, dist = _deal_plan(col, samples, deal)
            plan["deal"] = (method, dist)
            if dist is None:
                plan["deal_jobs"] = _deal_jobs(col, samples, seed)
            if getattr(col.rules, "opening_min", None) is not None:  # a game whose first melds need a total
                plan["open_jobs"] = [(size, ss, mr, k) for size, ss, _, k, mr, _ in _deal_jobs(col, samples, seed)]
        engine = col.variant.game
        plan["games"] = games_for(engine, games)
        terms = OWN_TERMS.get(col.variant.tally)
        if engine is not None and terms is not None:
            plan["own_terms"] = terms
            plan["matches"] = {name: _match_jobs(col, bots, plan["games"], seed)
                               for name, bots in terms.MATCHES.items()}
        elif engine is not None and not all(_fits(b, engine) for b in (*DEFAULT_BOTS, "random")):
            plan["no_bots"] = True  # the shared bots do not play this game: its deal profile only
        elif engine is not None:
            matches = {"default": DEFAULT_BOTS, "greedy_vs_random": ("greedy", "random")}
            for spec in SKILL_CANDIDATES:
                if spec != "greedy" and _fits(spec, engine):
                    matches[f"{spec}_vs_greedy"] = (spec, "greedy")
                    matches[f"{spec}_vs_random"] = (spec, "random")
            if play == "default":
                matches = {"default": DEFAULT_BOTS}
            plan["matches"] = {name: _match_jobs(col, bots, plan["games"], seed) for name, bots in matches.items()}
        if plan["matches"]:  # the default bots' games played again, counted: turns and minutes a game
            plan["length_jobs"] = math.ceil(plan["games"] / LENGTH_CHUNK)
        total += (len(plan["deal_jobs"]) + len(plan["open_jobs"]) + sum(len(j) for j in plan["matches"].values())
                  + plan.get("length_jobs", 0))
        plans.append(plan)

    done = [0]

    def tick():
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    out = []
    with (_given(executor) if executor is not None else executor_for(workers, dask)) as ex:
        for col, plan in zip(cols, plans):
            out.append(_profile_one(col, plan, samples, games, seed, ex, tick))
            out[-1].play = play if plan["matches"] and not plan.get("own_terms") else "all"
    return out


@contextmanager
def _given(executor):
    yield executor


def _profile_one(col: Column, plan: dict, samples: int, games: int, seed: int, ex, tick) -> Profile:
    from dataclasses import fields

    v = col.variant
    changed = {f.name: getattr(col.rules, f.name) for f in fields(col.rules)
               if getattr(col.rules, f.name) != getattr(v.rules, f.name)}
    prof = Profile(col.label, v.key, changed, v.game is not None, samples, plan["games"] if v.game else 0, seed)
    # -- the deal
    if plan["deal"] is None:
        prof.notes.append(f"{v.title} has no melds and no deadwood (rules {v.section}): no deal figures"
                          + ("; its own questions (the poker pot, the sections) instead." if plan.get("own_terms")
                             else "."))
    else:
        method, dist = plan["deal"]
        if isinstance(dist, str) and dist == ENUMERATE:
            dist = _enumerate(col, ex)  # cached per process: a second column with the same melds reuses it
        if dist is None:

            parts = _map_chunks(deal_chunk, plan["deal_jobs"], ex, tick)
            dist = DealDistribution(parts[0].hand_size, parts[0].pack_size, total=0)
            for p in parts:
                dist.merge(p)
                dist.total += p.total
            method = f"simulated ({samples:,} deals, seed {seed})"
        prof.deal_method = method
        _deal_figures(prof, col, dist, method.startswith("exact"), samples, seed)
        if plan["open_jobs"]:
            _opening_figures(prof, col, plan["open_jobs"], samples, seed, ex, tick)
    # -- play
    if v.game is None:
        prof.notes.append(f"{v.title} has no engine yet: deal profile only (no hand, game or luck figures).")
        return prof
    if plan.get("no_bots"):
        prof.engine = False
        prof.games = 0
        prof.notes.append(f"the shared bots ({', '.join(sorted(set(DEFAULT_BOTS)))}, random) do not play "
                          f"{v.title}: deal profile only (no hand, game or luck figures).")
        return prof
    terms = plan.get("own_terms")
    chunk_job = terms.games_chunk if terms is not None else _games_chunk
    results = {name: [t for chunk in _map_chunks(chunk_job, jobs, ex, tick) for t in chunk]
               for name, jobs in plan["matches"].items()}
    length = measure_length(v, 2, games=plan["games"], seed=seed, rules=col.rules, executor=ex,
                            progress=lambda done, total: tick())
    if terms is not None:
        terms.figures(prof, col.rules, results, seed)
        _length_figures(prof, length)
        prof.notes.append(f"{v.title} {terms.NOTE}")
        return prof
    default = results["default"]
    hands = [h for t in default for h in t.hands]
    engine = v.game
    prof.add(simulated_figure("hand.turns", "hand", "mean turns to the end of a hand (default bots)",
                              mean_estimate([h[0] for h in hands], seed=seed),
                              note="a turn: a draw, or a knock in lieu of drawing"))

    prof.distributions["hand.turns"] = histogram([h[0] for h in hands], seed)
    endings = list(getattr(engine, "ENDINGS", ()))
    endings += sorted({h[1] for h in hands} - set(endings))
    for ending in endings:
        k = sum(1 for h in hands if h[1] == ending)
        words = ENDING_WORDS.get(ending, ending.replace("_", " "))
        prof.add(simulated_figure(f"hand.ending.{ending}", "hand", f"share of hands ending by {words}",
                                  proportion_estimate(k, len(hands), seed=seed)))
    prof.add(simulated_figure("hand.p_stock_exhausted", "hand", "P(the stock runs out in a hand)",
                              proportion_estimate(sum(1 for h in hands if h[2]), len(hands), seed=seed),
                              note="reshuffled or ended by the stock"))
    prof.add(simulated_figure("game.hands", "game", "hands per game (default bots)",
                              mean_estimate([len(t.hands) for t in default], seed=seed)))
    # one unit a column: a game that pays from a pot is counted in its money (a game that paid nothing
    # counts 0), a points game in the winner's lead
    money_game = any(t.money for t in default)
    unit = stakes_unit(engine) if money_game else "points"
    stakes = [t.money if money_game else t.points for t in default]
    prof.stakes_unit = unit
    m = mean_estimate(stakes, seed=seed)
    prof.add(simulated_figure("game.stakes", "game", f"{unit} that change hands per game", m,
                              note=("the pot paid out at the end, in " + unit) if money_game
                              else "the winner's lead over the loser in final points"))
    if not any(stakes):
        prof.notes.append(f"under these rules nothing but the win changes hands in {v.title} "
                          "(no points or chips are scored): the stakes a game are 0.")
    n = len(stakes)
    sd = float(np.std(stakes, ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(2 * (n - 1)) if n > 1 else 0.0
    prof.add(simulated_figure("game.stakes_sd", "game", f"spread (sd) of the {unit} that change hands per game",
                              Estimate(sd, max(0.0, sd - Z95 * se), sd + Z95 * se, n, seed, "normal", se=se)))
    _length_figures(prof, length)
    if "greedy_vs_random" not in results:  # play="default": the hands only
        prof.notes.append("the default bots' match only: no luck-against-skill figures.")
        return prof

    # -- luck against skill
    def rate(name):
        ts = results[name]
        return proportion_estimate(sum(t.share for t in ts), len(ts), seed=seed)

    prof.add(simulated_figure("luck.greedy_vs_random", "luck", "win rate of greedy against random (heads-up)",
                              rate("greedy_vs_random")))
    best, best_rate = "greedy", None
    for spec in SKILL_CANDIDATES:
        if spec != "greedy" and f"{spec}_vs_greedy" in results:
            r = rate(f"{spec}_vs_greedy")
            if r.value > 0.5 and (best_rate is None or r.value > best_rate.value):
                best, best_rate = spec, r
    prof.best_bot = best
    prof.add(simulated_figure("luck.best_vs_random", "luck", "win rate of the best bot against random",
                              rate("greedy_vs_random" if best == "greedy" else f"{best}_vs_random")))
    if best == "greedy":
        prof.add(exact_figure("luck.best_vs_greedy", "luck", "win rate of the best bot against greedy",
                              Fraction(1, 2), note="the best bot is greedy itself: one half by symmetry"))
    else:
        prof.add(simulated_figure("luck.best_vs_greedy", "luck", "win rate of the best bot against greedy",
                                  best_rate, note=f"the best bot: {best}"))
    for spec in SKILL_CANDIDATES:
        if spec != "greedy" and f"{spec}_vs_greedy" in results:
            prof.distributions.setdefault("luck.candidates", {})[spec] = {
                "vs_greedy": rate(f"{spec}_vs_greedy").as_json(), "vs_random": rate(f"{spec}_vs_random").as_json()}
    return prof


def _length_figures(prof: Profile, m) -> None:
    """Turns and minutes a game: the default match's games (both seats the game's own bot, so game ``i`` is
    the default match's game ``i``) played again and counted (:mod:`rumino.playing.game_length`)."""
    prof.add(simulated_figure("game.turns", "game", "turns a game (default bots)", m.turns_per_game(),
                              note="a turn: one player's go, whatever it holds (a draw and a discard, melds, "
                                   "a stop played, a bid)"))
    prof.add(simulated_figure("game.minutes", "game", "minutes a game at the book's pace (default bots)",
                              m.minutes_per_game(), note=f"the pace: {PACE.words()}"))


def _row_label(profiles: Sequence[Profile], key: str) -> str:
    """A row's label: the figure's, or each column's own words where they differ (each game's knock limit).

    >>> a, b = Profile("A", "rumino", {}, True, 0, 0, 0), Profile("B", "gin", {}, True, 0, 0, 0)
    >>> a.add(exact_figure("k", "deal", "P(deadwood ≤ 7)", Fraction(1, 2)))
    >>> b.add(exact_figure("k", "deal", "P(deadwood ≤ 10)", Fraction(1, 3)))
    >>> _row_label([a, b], "k")
    'P(deadwood ≤ 7) / P(deadwood ≤ 10)'
    """
    labels = list(dict.fromkeys(p.figures[key].label for p in profiles if key in p.figures))
    return " / ".join(labels)


def profiles_text(profiles: Sequence[Profile], width: int = 38) -> str:
    """The profiles side by side as text: one row per figure name, one column per profile."""
    import textwrap

    keys = _ordered_keys(profiles)
    head = 30
    out = [" " * head + " | " + " | ".join(p.label[:width].ljust(width) for p in profiles)]
    out.append("-" * len(out[0]))
    section = None
    for key in keys:
        sec = _section(profiles, key)
        if sec != section:
            section = sec
            out.append(f"[{sec}]")
        label = _row_label(profiles, key)
        cells = [p.figures[key].text() if key in p.figures else "—" for p in profiles]
        left = textwrap.wrap(label, head) or [key]
        for i in range(len(left)):
            out.append(left[i].ljust(head) + " | " + " | ".join((c if i == 0 else "").ljust(width) for c in cells))
    if len(profiles) == 2:  # two columns: each figure's difference, in the words its test allows
        a, b = profiles
        shared = [k for k in keys if k in a.figures and k in b.figures]
        out.append("")
        out.append(f"the difference, {a.label} less {b.label}, and what its test shows (Newcombe's interval for two "
                   f"shares, the normal interval for two means):")
        for key in shared:
            words = difference_text(key, a.figures[key], b.figures[key], a.label, b.label)
            la, lb = a.figures[key].label, b.figures[key].label
            label = la if la == lb else f"{la} / {lb}"  # each column words it (its own knock limit)
            out.append(textwrap.fill(f"{label}: {words}", head + 2 * width + 3, subsequent_indent="    "))
    out.append("")
    out.append("how: " + " | ".join(f"{p.label}: deal {p.deal_method or 'none'}"
                                   + (f"; {p.games:,} games a match, best bot {p.best_bot}" if p.engine else "")
                                   for p in profiles))
    for p in profiles:
        for note in p.notes:
            out.append(f"note ({p.label}): {note}")
    return "\n".join(out) + "\n"


def profiles_html(profiles: Sequence[Profile], caption: str = "The profiles side by side") -> str:
    """The profiles side by side as an accessible HTML table (header cells with scope), for the book
    and the widgets: one row per figure, exact values marked, intervals in brackets."""
    import html as _html

    e = _html.escape
    keys = _ordered_keys(profiles)
    head = "".join(f'<th scope="col">{e(p.label)}</th>' for p in profiles)
    body = []
    for key in keys:
        label = _row_label(profiles, key)
        cells = "".join(f"<td>{e(p.figures[key].text()) if key in p.figures else '—'}</td>" for p in profiles)
        body.append(f'<tr data-key="{e(key)}"><th scope="row">{e(label)}</th>{cells}</tr>')
    return (f'<table class="rumino-profiles"><caption>{e(caption)}</caption><thead><tr><th scope="col">figure</th>'
            f'{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _section(profiles: Sequence[Profile], key: str) -> str:
    return next(p.figures[key].section for p in profiles if key in p.figures)


def _ordered_keys(profiles: Sequence[Profile]) -> list[str]:
    """Figure names of all profiles: by section (deal, hand, game, luck, then a game's own sections such as
    Rummoli's), first appearance within one."""
    keys: list[str] = []
    for p in profiles:
        keys += [k for k in p.figures if k not in keys]
    own = list(dict.fromkeys(_section(profiles, k) for k in keys if _section(profiles, k) not in SECTION_ORDER))
    order = {**SECTION_ORDER, **{s: len(SECTION_ORDER) + i for i, s in enumerate(own)}}
    return sorted(keys, key=lambda k: order[_section(profiles, k)])


__all__ = ["Figure", "Profile", "profile", "profiles", "load_profiles", "stakes_unit", "PLAY_CHOICES", "profiles_text", "profiles_html", "executor_for",
           "dealt_hand_size", "games_for", "DEFAULT_BOTS", "SKILL_CANDIDATES", "PLAYERS"]
