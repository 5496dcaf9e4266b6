"""Many seeded Rummoli games between bots: chips won per seat and what each section of the sheet paid.

Game ``i`` is started by :func:`rumino.playing.seeding.new_table` (the one seeding
scheme: the deck from ``[seed, i]``, the bots from ``[seed, i, 1]``) and played by
the one loop (:func:`rumino.engine.protocol.play`). Every figure is a mean per game
with its normal 95% interval (:class:`rumino.stats.Estimate`), or a share of totals.

>>> s = play_rummoli_games(None, ["default", "random"], games=3, seed=1)
>>> s.games, sum(s.net[0]) + sum(s.net[1]), len(s.section_paid)
(3, 0, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from rumino.engine.protocol import play
from rumino.playing.seeding import new_table
from rumino.players import make_players
from rumino.stats import Estimate, mean_estimate
from rumino.variants import find_variant
from rumino.variants.rummoli import SECTIONS


@dataclass
class RummoliSummary:
    """Raw tallies of a run of Rummoli games (one list entry per game) and their estimates."""

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

    def chips_won(self, seat: int) -> Estimate:
        return mean_estimate(self.net[seat], seed=self.seed)

    def section_mean(self, section: str) -> Estimate:
        return mean_estimate(self.section_paid[section], seed=self.seed)

    def section_share(self, section: str) -> float:
        """The share of all chips the sections paid during play that ``section`` paid (exact ratio of totals)."""
        total = sum(sum(v) for v in self.section_paid.values())
        return sum(self.section_paid[section]) / total if total else 0.0


def play_rummoli_games(rules, players: Sequence[str], games: int, seed: int = 0, *, checked: bool = False,
                       progress: Callable[[int, int], None] | None = None) -> RummoliSummary:
    """Play ``games`` seeded Rummoli games between the bots ``players`` (rules None: the defaults)."""
    v = find_variant("rummoli")
    rules = v.rules if rules is None else rules
    specs = list(players)
    make_players(specs, seed=0, game=v.game)  # names, fit and count checked before any game is played
    n = len(specs)
    out = RummoliSummary(specs, games, seed, rules, net=[[] for _ in range(n)], wins=[0.0] * n,
                         section_paid={s: [] for s in SECTIONS}, endings=dict.fromkeys(v.game.ENDINGS, 0))
    for i in range(games):
        game, bots = new_table(v, specs, seed, i, rules=rules)
        play(game, bots, checked=checked)
        res = game.result
        for p in range(n):
            out.net[p].append(res.chips[p] - rules.initial_chips)
        for w in res.winners:
            out.wins[w] += 1 / len(res.winners)
        paid = dict.fromkeys(SECTIONS, 0)
        for r in game.results:
            for section, _, chips in r.won:
                paid[section] += chips
            out.endings[r.ending] += 1
        for s in SECTIONS:
            out.section_paid[s].append(paid[s])
        out.swept.append(res.swept)
        out.out_payments.append(sum(max(x, 0) for r in game.results for x in r.payments))
        out.widow_bids.append(sum(r.bid for r in game.results))
        out.deals.append(len(game.results))
        if progress is not None:
            progress(i + 1, games)
    return out


def summary_json(run: RummoliSummary, variant_rules_fields) -> dict:
    """The dict ``rumino simulate --variant rummoli --json`` prints."""
    from rumino.stats import proportion_estimate

    n = len(run.players)
    total_deals = sum(run.deals)
    return {
        "variant": "rummoli",
        "players": run.players,
        "games": run.games,
        "seed": run.seed,
        "rules": variant_rules_fields,
        "chips_won": [dict(seat=s, player=run.players[s], **run.chips_won(s).as_json()) for s in range(n)],
        "win_rate": [dict(seat=s, player=run.players[s],
                          **proportion_estimate(run.wins[s], run.games, seed=run.seed).as_json()) for s in range(n)],
        "sections": {s: {"share": run.section_share(s), "chips_per_game": run.section_mean(s).as_json()}
                     for s in SECTIONS},
        "final_sweep_per_game": mean_estimate(run.swept, seed=run.seed).as_json(),
        "going_out_payments_per_game": mean_estimate(run.out_payments, seed=run.seed).as_json(),
        "widow_bids_per_game": mean_estimate(run.widow_bids, seed=run.seed).as_json(),
        "hands": total_deals,
        "hand_endings": {k: {"count": c, **proportion_estimate(c, total_deals, seed=run.seed).as_json()}
                         for k, c in run.endings.items()},
        "mean_hands_per_game": mean_estimate(run.deals, seed=run.seed).as_json(),
    }


def format_rummoli_summary(s: dict, defaults) -> str:
    """The text report of ``rumino simulate --variant rummoli``."""
    def fmt(e, digits=2):
        lo, hi = e["ci95"]
        return f"{e['value']:+.{digits}f}  (95% CI {lo:+.{digits}f} – {hi:+.{digits}f})"

    changed = [f"{k}={v}" for k, v in s["rules"].items() if v != getattr(defaults, k)]
    lines = [f"Rummoli: {len(s['players'])} players, {s['games']} games, seed {s['seed']}, "
             f"house rules: {', '.join(changed) if changed else 'none (RULES §2 defaults)'}", "",
             "seat  player      chips won per game            most chips at the end"]
    for c, w in zip(s["chips_won"], s["win_rate"]):
        lines.append(f"{c['seat']:>4}  {c['player']:<10}  {fmt(c):<30}  {w['value']:.3f}")
    lines += ["", "section   share of chips paid   chips per game"]
    for k, e in s["sections"].items():
        lo, hi = e["chips_per_game"]["ci95"]
        lines.append(f"{k:<8}  {e['share']:>8.1%}              {e['chips_per_game']['value']:.2f}  "
                     f"({lo:.2f} – {hi:.2f})")
    sw = s["final_sweep_per_game"]
    lines += ["", f"final sweep per game   {sw['value']:.2f}",
              f"deals per game         {s['mean_hands_per_game']['value']:.2f}",
              "how deals end          " + " · ".join(f"{k} {e['value']:.1%}" for k, e in s["hand_endings"].items())]
    return "\n".join(lines)


__all__ = ["RummoliSummary", "play_rummoli_games", "summary_json", "format_rummoli_summary"]
