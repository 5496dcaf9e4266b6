"""Many seeded games between bots, and what they add up to: one loop for every game.

Game ``i`` is dealt from ``numpy.random.default_rng([seed, i])`` and its bots
draw from their own stream ``[seed, i, 1]``, so a run is reproducible and any
single game can be replayed on its own. Games are independent: each starts with
the first dealer drawn by high card (rules §1.1). The CLI (``rumino simulate``)
and the widgets' HouseRuleLab both play through :func:`play_games`, so the same
seed gives the same figures in both.

What a run tallies is the game's ``Variant.tally`` (:data:`TALLIES`): win rates,
how hands end, rebuys and the pool (:class:`GamesSummary`), or, for a chip game
(Rummoli), the chips each seat won and what each section of the sheet paid
(:class:`ChipsSummary`). Every figure is an :class:`~rumino.stats.Estimate` with
its 95% interval, or a share of totals.

>>> s = play_games(None, ["greedy", "greedy"], games=3, seed=1)
>>> s.games, len(s.hands_per_game), round(sum(s.wins), 6)
(3, 3, 3.0)
>>> c = play_games(None, ["default", "random"], games=3, seed=1, variant="rummoli")
>>> c.games, sum(c.net[0]) + sum(c.net[1]), len(c.section_paid)
(3, 0, 9)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from rumino.engine.base import TurnGame
from rumino.engine.protocol import play
from rumino.errors import RuleConfigError
from rumino.players import make_players
from rumino.playing.seeding import new_table
from rumino.stats import Estimate, mean_estimate, proportion_estimate
from rumino.variants import Variant, find_variant, playable_variants


MONEY_KNOBS = ("stake", "rebuy_price", "entry_chips", "buyback_chips")
"""The rules a game plays for money or chips with (a pool, rebuys or buy-backs): the report's money rows."""

def rules_fields(rules: Any) -> dict:
    """The rules' knobs (the fields with a rules section) by name: the ``rules`` of a summary's JSON."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if "section" in f.metadata}


def _house_rules_text(s: dict, variant: Variant) -> str:
    changed = [f"{k}={v}" for k, v in s["rules"].items() if v != getattr(variant.rules, k)]
    return ", ".join(changed) if changed else f"none (rules {variant.section} defaults)"


def _fmt(e: dict, digits: int = 3, sign: str = "") -> str:
    lo, hi = e["ci95"]
    return f"{e['value']:{sign}.{digits}f}  (95% CI {lo:{sign}.{digits}f} – {hi:{sign}.{digits}f})"


def _run_json(summary) -> dict:
    """What every run's JSON opens with (both summaries): the game, the players, the games, the seed, the rules."""
    return {"variant": summary.variant, "players": summary.players, "games": summary.games, "seed": summary.seed,
            "rules": rules_fields(summary.rules)}


@dataclass
class GamesSummary:
    """Raw tallies of a run of games, and their estimates with 95% intervals (``Variant.tally`` "wins")."""

    players: list[str]
    games: int
    seed: int
    rules: object
    wins: list[float] = field(default_factory=list)  # a shared win counts 1/k to each winner
    hands_per_game: list[int] = field(default_factory=list)
    rebuys_per_game: list[int] = field(default_factory=list)
    pools: list[float] = field(default_factory=list)  # in the game's units (Rumino: currency; the engine keeps cents)
    endings: dict[str, int] = field(default_factory=dict)
    variant: str = "rumino"

    @classmethod
    def start(cls, variant: Variant, specs: list[str], games: int, seed: int, rules: Any) -> "GamesSummary":
        return cls(specs, games, seed, rules, wins=[0.0] * len(specs), endings=dict.fromkeys(variant.game.ENDINGS, 0),
                   variant=variant.key)

    def add(self, game: TurnGame) -> None:
        """Tally one finished game."""
        res = game.result
        for w in res.winners:
            self.wins[w] += 1 / len(res.winners)
        self.hands_per_game.append(len(game.results))
        self.rebuys_per_game.append(game.score_events("rebuy", "buyback"))
        self.pools.append(game.pot_paid_out / game.POT_SCALE)
        for r in game.results:
            self.endings[r.ending] += 1

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

    def as_json(self) -> dict:
        """The dict ``rumino simulate --json`` prints."""
        n = len(self.players)
        return {
            **_run_json(self),
            "win_rate": [dict(seat=s, player=self.players[s], **self.win_rate(s).as_json()) for s in range(n)],
            "hands": self.hands,
            "hand_endings": {k: {"count": c, **self.ending_rate(k).as_json()} for k, c in self.endings.items()},
            "mean_hands_per_game": self.mean_hands().as_json(),
            "mean_rebuys_per_game": self.mean_rebuys().as_json(),
            "mean_pool": self.mean_pool().as_json(),
        }

    @staticmethod
    def text(s: dict, variant: Variant) -> str:
        """The text report of :meth:`as_json`'s dict."""
        lines = [f"{variant.title}: {len(s['players'])} players, {s['games']} games, seed {s['seed']}, "
                 f"house rules: {_house_rules_text(s, variant)}", "", "seat  player        win rate"]
        for w in s["win_rate"]:
            lines.append(f"{w['seat']:>4}  {w['player']:<12}  {_fmt(w)}")
        lines.append("")
        lines.append(f"hands per game    {_fmt(s['mean_hands_per_game'], 2)}")
        ends = " · ".join(f"{k.replace('_', ' ')} {e['value']:.1%}" for k, e in s["hand_endings"].items())
        lines.append(f"how hands end     {ends}  ({s['hands']} hands)")
        if any(hasattr(variant.rules, knob) for knob in MONEY_KNOBS):  # a game with no rebuys and no pool: no rows of 0.00
            lines.append(f"rebuys per game   {_fmt(s['mean_rebuys_per_game'], 2)}")
            lines.append(f"pool per game     {_fmt(s['mean_pool'], 2)}")
        return "\n".join(lines)


@dataclass
class ChipsSummary:
    """Raw tallies of a run of chip games (one list entry per game) and their estimates (``Variant.tally``
    "chips": Rummoli). The sections are the sheet's, as the game's view names them (``board_chips``)."""

    players: list[str]
    games: int
    seed: int
    rules: object
    net: list[list[int]] = field(default_factory=list)  # per seat: chips at the end minus chips at the start
    wins: list[float] = field(default_factory=list)  # most chips at the end; a shared lead counts 1/k
    section_paid: dict[str, list[int]] = field(default_factory=dict)  # per section: chips it paid in play, per game
    swept: list[int] = field(default_factory=list)  # chips of the final sweep, per game
    out_payments: list[int] = field(default_factory=list)  # chips paid to the player going out, per game
    widow_bids: list[int] = field(default_factory=list)  # chips paid to dealers for the widow, per game
    deals: list[int] = field(default_factory=list)
    endings: dict[str, int] = field(default_factory=dict)
    variant: str = "rummoli"

    @classmethod
    def start(cls, variant: Variant, specs: list[str], games: int, seed: int, rules: Any) -> "ChipsSummary":
        n = len(specs)
        return cls(specs, games, seed, rules, net=[[] for _ in range(n)], wins=[0.0] * n,
                   endings=dict.fromkeys(variant.game.ENDINGS, 0), variant=variant.key)

    def add(self, game: TurnGame) -> None:
        """Tally one finished game."""
        res = game.result
        if not self.section_paid:
            self.section_paid = {s: [] for s in game.view(0).board_chips}
        for p in range(len(self.players)):
            self.net[p].append(res.chips[p] - self.rules.initial_chips)
        for w in res.winners:
            self.wins[w] += 1 / len(res.winners)
        paid = dict.fromkeys(self.section_paid, 0)
        for r in game.results:
            for section, _, chips in r.won:
                paid[section] += chips
            self.endings[r.ending] += 1
        for s, chips in paid.items():
            self.section_paid[s].append(chips)
        self.swept.append(res.swept)
        self.out_payments.append(sum(max(x, 0) for r in game.results for x in r.payments))
        self.widow_bids.append(sum(r.bid for r in game.results))
        self.deals.append(len(game.results))

    def chips_won(self, seat: int) -> Estimate:
        return mean_estimate(self.net[seat], seed=self.seed)

    def win_rate(self, seat: int) -> Estimate:
        return proportion_estimate(self.wins[seat], self.games, seed=self.seed)

    def section_mean(self, section: str) -> Estimate:
        return mean_estimate(self.section_paid[section], seed=self.seed)

    def section_share(self, section: str) -> float:
        """The share of all chips the sections paid during play that ``section`` paid (exact ratio of totals)."""
        total = sum(sum(v) for v in self.section_paid.values())
        return sum(self.section_paid[section]) / total if total else 0.0

    def as_json(self) -> dict:
        """The dict ``rumino simulate --variant rummoli --json`` prints."""
        n = len(self.players)
        total_deals = sum(self.deals)
        return {
            **_run_json(self),
            "chips_won": [dict(seat=s, player=self.players[s], **self.chips_won(s).as_json()) for s in range(n)],
            "win_rate": [dict(seat=s, player=self.players[s], **self.win_rate(s).as_json()) for s in range(n)],
            "sections": {s: {"share": self.section_share(s), "chips_per_game": self.section_mean(s).as_json()}
                         for s in self.section_paid},
            "final_sweep_per_game": mean_estimate(self.swept, seed=self.seed).as_json(),
            "going_out_payments_per_game": mean_estimate(self.out_payments, seed=self.seed).as_json(),
            "widow_bids_per_game": mean_estimate(self.widow_bids, seed=self.seed).as_json(),
            "hands": total_deals,
            "hand_endings": {k: {"count": c, **proportion_estimate(c, total_deals, seed=self.seed).as_json()}
                             for k, c in self.endings.items()},
            "mean_hands_per_game": mean_estimate(self.deals, seed=self.seed).as_json(),
        }

    @staticmethod
    def text(s: dict, variant: Variant) -> str:
        """The text report of :meth:`as_json`'s dict."""
        lines = [f"{variant.title}: {len(s['players'])} players, {s['games']} games, seed {s['seed']}, "
                 f"house rules: {_house_rules_text(s, variant)}", "",
                 "seat  player      chips won per game            most chips at the end"]
        for c, w in zip(s["chips_won"], s["win_rate"]):
            lines.append(f"{c['seat']:>4}  {c['player']:<10}  {_fmt(c, 2, '+'):<30}  {w['value']:.3f}")
        lines += ["", "section   share of chips paid   chips per game"]
        for k, e in s["sections"].items():
            lo, hi = e["chips_per_game"]["ci95"]
            lines.append(f"{k:<8}  {e['share']:>8.1%}              {e['chips_per_game']['value']:.2f}  "
                         f"({lo:.2f} – {hi:.2f})")
        sw = s["final_sweep_per_game"]
        lines += ["", f"final sweep per game   {sw['value']:.2f}",
                  f"deals per game         {s['mean_hands_per_game']['value']:.2f}",
                  "how deals end          " + " · ".join(f"{k} {e['value']:.1%}"
                                                          for k, e in s["hand_endings"].items())]
        return "\n".join(lines)


TALLIES: dict[str, type] = {"wins": GamesSummary, "chips": ChipsSummary}
"""How a run of games is tallied and reported, by ``Variant.tally``."""


def play_games(rules: Any, players: Sequence[str], games: int, seed: int = 0, *, variant: str = "rumino",
               checked: bool = False, progress: Callable[[int, int], None] | None = None
               ) -> GamesSummary | ChipsSummary:
    """Play ``games`` independent seeded games between the bots ``players`` and tally them.

    ``variant`` names the game (its engine and its tally come from the registry); ``rules`` None
    means its defaults; ``checked=True`` sends every bot action through the checked
    ``apply``; ``progress(done, total)`` is called after each game. Game ``i`` is
    started by :func:`rumino.playing.seeding.new_table` (the one seeding scheme) and played
    by the one game loop (:func:`rumino.engine.protocol.play`). Returns the summary of
    ``TALLIES[variant.tally]`` (:class:`GamesSummary` or :class:`ChipsSummary`).
    """
    v = find_variant(variant)
    engine = v.game
    if engine is None:
        raise RuleConfigError(f"there is no playable engine for {v.title} yet; games can be played for: "
                              f"{', '.join(p.title for p in playable_variants().values())}.")
    rules = v.rules if rules is None else rules
    specs = list(players)
    make_players(specs, seed=0, game=engine)  # names, fit and count checked before any game is played
    out = TALLIES[v.tally].start(v, specs, games, seed, rules)
    for i in range(games):
        game, bots = new_table(v, specs, seed, i, rules=rules)
        play(game, bots, checked=checked)
        out.add(game)
        if progress is not None:
            progress(i + 1, games)
    return out


def format_summary(s: dict) -> str:
    """The text report of a summary's JSON dict (``rumino simulate`` without ``--json``)."""
    variant = find_variant(s["variant"])
    return TALLIES[variant.tally].text(s, variant)


__all__ = ["GamesSummary", "ChipsSummary", "TALLIES", "play_games", "format_summary", "rules_fields"]
