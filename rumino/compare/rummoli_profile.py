"""Rummoli's profile in its own terms: the poker pot, the sections, the chips, luck against skill.

Rummoli has no melds, no deadwood and no stock, so the deal, knock and stock
questions of :mod:`rumino.compare.profile` do not apply. Its profile asks the
same kind of questions of what the game has (rules §2), heads-up like every
profile (two players, the smallest table Rummoli allows: hands of 18 and 17
cards and a widow of 17), with Rummoli's own bots:
``default`` (:mod:`rumino.variants.rummoli.bots`) and ``random``.

the poker pot (``rummoli.poker.*``)
    ``pot`` (mean chips the poker section pays a deal), ``p_win_quads_or_better`` and
    ``p_win_straight_flush`` (P(the hand that wins the pot is four of a kind or
    better; a straight flush), showdowns only), and, exact, ``p_dealt_quads_or_better.{k}``
    and ``p_dealt_straight_flush.{k}`` for each hand size ``k`` dealt at the table
    (:func:`rumino.odds.poker.best_five_table`). Heads-up every hand holds a flush
    or better (17 cards over four suits put five in one), so "a flush or better"
    would say nothing: the bar is four of a kind. The distributions
    ``rummoli.poker.winning`` (the winning hand's category, counts) and
    ``rummoli.poker.dealt`` (the categories of the dealt hands by size: the exact
    table and the simulated counts, one hand of each size per deal).
the sections (``rummoli.section.*``)
    ``{name}.share`` for each of the nine sections (its share of the chips the
    sections paid during play, a ratio of totals with a delta-method interval over
    games), ``swept`` (chips left on the sheet and swept at the end of a game);
    P(deadlock) is ``hand.ending.deadlock``.
the hand and the game (shared names)
    ``hand.turns`` (cards played in the stops per deal: a turn is one card played),
    ``hand.ending.rummoli`` / ``hand.ending.deadlock``, ``game.hands`` (deals per
    game), ``game.stakes`` (chips that change hands per game: the sum of the
    players' gains at the end) and ``game.stakes_sd``; the distribution ``hand.turns``.
luck against skill
    ``luck.best_vs_random`` (the default bot's win rate against random; the best
    bot is ``default``, Rummoli's only bot with a plan) and
    ``rummoli.luck.mean_chips_vs_random`` (its mean chips won per game against random).

>>> from rumino.compare import profile
>>> p = profile("rummoli", games=4, seed=1)
>>> p.best_bot, p["rummoli.poker.p_dealt_quads_or_better.18"].kind, p["game.hands"].value
('default', 'exact', 2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np

from rumino.compare.figures import Figure, exact_figure, histogram, simulated_figure
from rumino.engine.protocol import play
from rumino.hand.poker import category_key, hand_value
from rumino.odds.poker import best_five_table
from rumino.playing.seeding import new_table
from rumino.stats import Z95, Estimate, mean_estimate, proportion_estimate
from rumino.variants import find_variant

RUMMOLI = find_variant("rummoli")  # the game this profile is of (rules §2), read from its row of the registry
RummoliRules = RUMMOLI.rules_class
SECTIONS = RUMMOLI.game.SHEET  # the play sheet's sections (rules §2.2)
hand_sizes = RUMMOLI.game.deal_sizes

BOTS = ("default", "default")  # Rummoli's own bots: the default table is two default bots
MATCHES = {"default": BOTS, "default_vs_random": ("default", "random")}
QUADS_OR_BETTER = ("four_of_a_kind", "straight_flush")
# (key, words, categories): the bars the poker figures count, for the winning hand and (exact) the dealt one
BARS = (("quads_or_better", "four of a kind or better", QUADS_OR_BETTER),
        ("straight_flush", "a straight flush", ("straight_flush",)))


class ProfileLike(Protocol):
    """What :func:`rummoli_figures` fills of a :class:`rumino.compare.profile.Profile` (named, not
    imported: that module imports this one, and the house allows no import circle)."""

    distributions: dict[str, dict]
    best_bot: str | None

    def add(self, fig: Figure) -> None: ...


@dataclass
class _DealTally:
    plays: int  # cards played in the stops
    ending: str
    pot: int  # chips the poker section paid
    winning: str | None  # the winning poker hand's category (None: won by folds, not shown)
    paid: tuple  # chips each section paid in play, in SECTIONS order
    dealt: tuple  # (hand size, category) of the first dealt hand of each size


@dataclass
class _RummoliGameTally:
    share: float  # bot A's share of the win
    net_a: int  # bot A's chips won (lost: negative)
    stakes: int  # the sum of the gains at the end
    swept: int  # chips swept from the sheet at the end
    deals: list


def games_chunk(size: int, start: int, variant_key: str, rules: RummoliRules, bots: tuple[str, str],
                seed: int) -> list[_RummoliGameTally]:
    """Play games ``start … start+size−1`` of a heads-up match of a chip game (Rummoli; seats alternating as
    in every profile): the same job as :func:`rumino.compare.profile._games_chunk`'s."""
    v = find_variant(variant_key)
    a, b = bots
    out = []
    for i in range(start, start + size):
        seat_a = i % 2
        specs = [a, b] if seat_a == 0 else [b, a]
        game, players = new_table(v, specs, seed, i, rules=rules)
        dealt: list[tuple] = []
        seen = [0]

        def watch(g):  # called before every action: the first look at a new deal sees the dealt cards
            if g.hand_number != seen[0] and g.phase not in ("between_deals", "game_over"):
                seen[0] = g.hand_number
                hands = [g.hands[p] for p in g.hand_players] + [g.widow]
                sizes = {}
                for h in hands:
                    sizes.setdefault(len(h), category_key(hand_value(tuple(h))))
                dealt.append(tuple(sorted(sizes.items())))
            return g.game_over

        play(game, players, checked=False, until=watch)
        deals = []
        for r, d in zip(game.results, dealt):
            paid = [0] * len(SECTIONS)
            for section, _, chips in r.won:
                paid[SECTIONS.index(section)] += chips
            win = r.poker_values[r.poker_winners[0]] if r.poker_how == "showdown" else None
            deals.append(_DealTally(len(r.played), r.ending, paid[1], None if win is None else category_key(win),
                                    tuple(paid), d))
        res = game.result
        net = [c - rules.initial_chips for c in res.chips]
        out.append(_RummoliGameTally(res.share(seat_a), net[seat_a], sum(x for x in net if x > 0), res.swept, deals))
    return out


def _ratio_estimate(xs, ys, seed) -> Estimate:
    """``Σx / Σy`` over games with its delta-method normal interval (games are the independent units)."""
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    n = len(x)
    r = float(x.sum() / y.sum()) if y.sum() else 0.0
    if n < 2 or not y.sum():
        return Estimate(r, r, r, n, seed, "ratio", se=0.0)
    d = x - r * y
    se = math.sqrt(float((d * d).sum()) / (n * (n - 1))) / float(y.mean())
    return Estimate(r, max(0.0, r - Z95 * se), min(1.0, r + Z95 * se), n, seed, "ratio", se=se)


def exact_dealt(k: int) -> dict[str, int]:
    """The exact best-five table of a ``k``-card hand (counts of the C(52, k) hands by category)."""
    return best_five_table(k)


def rummoli_figures(prof: ProfileLike, rules: RummoliRules, results: dict, seed: int) -> None:
    """Fill ``prof`` (a :class:`~rumino.compare.profile.Profile`) from the matches' tallies."""
    default = results["default"]
    deals = [d for t in default for d in t.deals]
    nd = len(deals)
    # -- the hand (shared names: a turn is one card played in the stops)
    turns = [d.plays for d in deals]
    prof.add(simulated_figure("hand.turns", "hand", "mean turns to the end of a hand (default bots)",
                              mean_estimate(turns, seed=seed), note="Rummoli: one card played in the stops a turn"))
    prof.distributions["hand.turns"] = histogram(turns, seed)
    for ending in ("rummoli", "deadlock"):
        k = sum(1 for d in deals if d.ending == ending)
        words = "a player going out (Rummoli)" if ending == "rummoli" else "a deadlock (nobody can change colour)"
        prof.add(simulated_figure(f"hand.ending.{ending}", "hand", f"share of hands ending by {words}",
                                  proportion_estimate(k, nd, seed=seed)))
    # -- the game
    prof.add(simulated_figure("game.hands", "game", "hands per game (default bots)",
                              mean_estimate([len(t.deals) for t in default], seed=seed),
                              note=f"rounds={rules.rounds}: every player deals {rules.rounds} time(s)"))
    stakes = [t.stakes for t in default]
    prof.stakes_unit = "chips"
    prof.add(simulated_figure("game.stakes", "game", "chips that change hands per game",
                              mean_estimate(stakes, seed=seed), note="the chips the players gained at the end"))
    prof.add(simulated_figure("game.stakes_sd", "game", "spread (sd) of the chips that change hands per game",
                              _sd_estimate(stakes, seed)))
    # -- the poker pot
    prof.add(simulated_figure("rummoli.poker.pot", "rummoli.poker", "mean chips the poker pot pays a deal",
                              mean_estimate([d.pot for d in deals], seed=seed)))
    shown = [d.winning for d in deals if d.winning is not None]
    if shown:
        for key, words, cats in BARS:
            prof.add(simulated_figure(f"rummoli.poker.p_win_{key}", "rummoli.poker",
                                      f"P(the hand that wins the poker pot is {words})",
                                      proportion_estimate(sum(1 for c in shown if c in cats), len(shown), seed=seed),
                                      note="showdowns only"))
    prof.distributions["rummoli.poker.winning"] = {"kind": "simulated", "total": len(shown), "n": len(shown),
                                                   "seed": seed, "counts": _counts(shown)}
    dealt_dist = {}
    for k in sorted(set(hand_sizes(2))):
        table = exact_dealt(k)
        total = math.comb(52, k)
        for key, words, cats in BARS:
            prof.add(exact_figure(f"rummoli.poker.p_dealt_{key}.{k}", "rummoli.poker",
                                  f"P(a dealt {k}-card hand holds {words})",
                                  Fraction(sum(table[c] for c in cats), total)))
        sim = [c for d in deals for size, c in d.dealt if size == k]
        dealt_dist[str(k)] = {"exact": {"kind": "exact", "total": total, "counts": dict(table)},
                              "simulated": {"kind": "simulated", "total": len(sim), "n": len(sim), "seed": seed,
                                            "counts": _counts(sim)}}
    prof.distributions["rummoli.poker.dealt"] = dealt_dist
    # -- the sections
    per_game = [[sum(d.paid[s] for d in t.deals) for s in range(len(SECTIONS))] for t in default]
    totals = [sum(g) for g in per_game]
    for s, name in enumerate(SECTIONS):
        prof.add(simulated_figure(f"rummoli.section.{name}.share", "rummoli.section",
                                  f"share of the chips paid in play by the {name} section",
                                  _ratio_estimate([g[s] for g in per_game], totals, seed)))
    prof.add(simulated_figure("rummoli.section.swept", "rummoli.section",
                              "chips left on the sheet and swept at the end of a game",
                              mean_estimate([t.swept for t in default], seed=seed)))
    # -- luck against skill
    vs = results["default_vs_random"]
    prof.best_bot = "default"
    prof.add(simulated_figure("luck.best_vs_random", "luck", "win rate of the best bot against random",
                              proportion_estimate(sum(t.share for t in vs), len(vs), seed=seed),
                              note="the best bot: default (Rummoli's own)"))
    prof.add(simulated_figure("rummoli.luck.mean_chips_vs_random", "rummoli.luck",
                              "mean chips the default bot wins a game against random",
                              mean_estimate([t.net_a for t in vs], seed=seed)))


def _counts(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[str(x)] = out.get(str(x), 0) + 1
    return dict(sorted(out.items()))


def _sd_estimate(xs, seed) -> Estimate:
    n = len(xs)
    sd = float(np.std(xs, ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(2 * (n - 1)) if n > 1 else 0.0
    return Estimate(sd, max(0.0, sd - Z95 * se), sd + Z95 * se, n, seed, "normal", se=se)


figures = rummoli_figures  # the name the profile's one path calls (rumino.compare.profile.OWN_TERMS)
NOTE = "is played by its own bots (default, random), heads-up: hands of 18 and 17 cards and a widow of 17."

__all__ = ["BOTS", "MATCHES", "NOTE", "games_chunk", "figures", "rummoli_figures"]
