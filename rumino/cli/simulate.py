"""``rumino simulate``: play many seeded games between bots and report win rates with 95% intervals.

Each game ``i`` is dealt from ``numpy.random.default_rng([seed, i])`` and its
random bots draw from their own streams of the same seed, so a run is
reproducible and any single game can be replayed on its own. Games are
independent: each starts with the first dealer drawn by high card (RULES §1.1).

>>> from rumino.cli import main
>>> main(["simulate", "--players", "greedy,random", "--games", "3", "--seed", "1", "--no-progress",
...       "--json"])  # doctest: +ELLIPSIS
{"variant": "rumino", "players": ["greedy", "random"], "games": 3, "seed": 1, ...}
0
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Sequence

from rumino.players import ALLOWED, make_players
from rumino.playing.simulation import play_games
from rumino.variants import find_variant, playable_variants
from rumino.variants._fields import parse_knob_value
from rumino.cli import CommandError

SIMULATED = tuple(playable_variants())
MAX_GAMES = 10_000_000  # a bound on the work one command may ask for (about a day of greedy games)


def playable(name: str):
    """The registry's variant ``name`` if it has an engine; otherwise a one-line error naming the playable ones."""
    from rumino.errors import RuleConfigError

    allowed = ", ".join(playable_variants())
    try:
        v = find_variant(name)
    except RuleConfigError:
        raise CommandError(f"unknown variant {name!r}: the playable variants are {allowed}.") from None
    if v.game is None:
        raise CommandError(f"{v.title} has no playable engine yet: the playable variants are {allowed}.")
    return v


def parse_rules(variant, pairs: Sequence[str]):
    """House rules from ``KEY=VALUE`` texts, validated by the rules dataclass.

    >>> parse_rules(find_variant("rumino"), ["knock_max_deadwood=5", "stock_exhausted=void_hand"]).knock_max_deadwood
    5
    """
    changes = {}
    cls = variant.rules_class
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise CommandError(f"the rule {pair!r} is not KEY=VALUE (for example knock_max_deadwood=5).")
        changes[key.strip()] = parse_knob_value(cls, key.strip(), value)
    return dataclasses.replace(variant.rules, **changes)


def default_players(variant) -> str:
    """Greedy bots (the game's default bot, or random, where greedy does not fit), four or as many as
    the game allows."""
    from rumino.players import GreedyPlayer, RummoliDefault

    game = variant.game
    n = max(game.MIN_PLAYERS, min(4, game.MAX_SEATS))
    bot = "greedy" if GreedyPlayer.fits(game) else ("default" if RummoliDefault.fits(game) else "random")
    return ",".join([bot] * n)


def parse_player_list(text: str, variant=None) -> list[str]:
    from rumino.players import allowed_for

    game = playable(variant or "rumino").game
    specs = [s.strip() for s in text.split(",")]
    lo, hi = game.MIN_PLAYERS, game.MAX_SEATS
    if not lo <= len(specs) <= hi:
        raise CommandError(f"--players lists {len(specs)} player(s); {game.NAME} is for {lo} to {hi} "
                           f"(RULES {game.SECTIONS['deal']}). Players: {allowed_for(game)}.")
    return specs


def simulate(players: Sequence[str], games: int, seed: int = 0, rules=None, *, progress: bool = False,
             checked: bool = False, variant: str = "rumino") -> dict:
    """Play ``games`` independent games and summarise them (the dict ``--json`` prints).

    ``checked=True`` sends every bot action through the checked ``apply``.
    """
    v = playable(variant)
    rules = v.rules if rules is None else rules
    specs = list(players)
    if "human" in [s.strip().lower() for s in specs]:
        raise CommandError("simulate plays bots only; a human plays with `rumino play`. "
                           f"Bots: {ALLOWED.replace(', human', '')}.")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise CommandError(f"--games is {games!r}: it must be an integer from 1 to {MAX_GAMES:,}.")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CommandError(f"--seed is {seed!r}: it must be a non-negative integer.")
    game = v.game
    if not game.MIN_PLAYERS <= len(specs) <= game.MAX_SEATS:
        raise CommandError(f"{len(specs)} player(s) given; {game.NAME} is for {game.MIN_PLAYERS} to {game.MAX_SEATS} "
                           f"(RULES {game.SECTIONS['deal']}).")
    make_players(specs, seed=0, game=v.game)  # names, fit and count checked before any game is played
    if v.key == "rummoli":  # a chip game: chips won per seat and what each section paid
        return _simulate_rummoli(rules, specs, games, seed, progress=progress, checked=checked)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, file=sys.stderr, desc="games", unit="game", leave=False)
    try:
        run = play_games(rules, specs, games, seed, variant=v.key, checked=checked,
                         progress=(lambda done, total: bar.update(1)) if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    n = len(specs)
    return {
        "variant": v.key,
        "players": specs,
        "games": games,
        "seed": seed,
        "rules": {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if "section" in f.metadata},
        "win_rate": [dict(seat=s, player=specs[s], **_est(run.win_rate(s))) for s in range(n)],
        "hands": run.hands,
        "hand_endings": {k: {"count": c, **_est(run.ending_rate(k))} for k, c in run.endings.items()},
        "mean_hands_per_game": _est(run.mean_hands()),
        "mean_rebuys_per_game": _est(run.mean_rebuys()),
        "mean_pool": _est(run.mean_pool()),
    }


def _simulate_rummoli(rules, specs, games, seed, *, progress, checked) -> dict:
    from rumino.playing.simulation_rummoli import play_rummoli_games, summary_json

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, file=sys.stderr, desc="games", unit="game", leave=False)
    try:
        run = play_rummoli_games(rules, specs, games, seed, checked=checked,
                                 progress=(lambda done, total: bar.update(1)) if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    fields = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if "section" in f.metadata}
    return summary_json(run, fields)


def _est(e) -> dict:
    return e.as_json()  # the one JSON shape of an estimate (rumino.stats.Estimate)


def _fmt(e: dict, digits: int = 3) -> str:
    lo, hi = e["ci95"]
    return f"{e['value']:.{digits}f}  (95% CI {lo:.{digits}f} – {hi:.{digits}f})"


def format_summary(s: dict) -> str:
    """The text report of :func:`simulate`."""
    variant = find_variant(s["variant"])
    if variant.key == "rummoli":
        from rumino.playing.simulation_rummoli import format_rummoli_summary

        return format_rummoli_summary(s, variant.rules)
    changed = [f"{k}={v}" for k, v in s["rules"].items() if v != getattr(variant.rules, k)]
    lines = [f"{variant.title}: {len(s['players'])} players, {s['games']} games, seed {s['seed']}, "
             f"house rules: {', '.join(changed) if changed else f'none (RULES {variant.section} defaults)'}",
             "", "seat  player        win rate"]
    for w in s["win_rate"]:
        lines.append(f"{w['seat']:>4}  {w['player']:<12}  {_fmt(w)}")
    lines.append("")
    lines.append(f"hands per game    {_fmt(s['mean_hands_per_game'], 2)}")
    ends = " · ".join(f"{k.replace('_', ' ')} {e['value']:.1%}" for k, e in s["hand_endings"].items())
    lines.append(f"how hands end     {ends}  ({s['hands']} hands)")
    lines.append(f"rebuys per game   {_fmt(s['mean_rebuys_per_game'], 2)}")
    lines.append(f"pool per game     {_fmt(s['mean_pool'], 2)}")
    return "\n".join(lines)


def run(args) -> int:
    variant = playable(args.variant)
    rules = parse_rules(variant, args.rules)
    specs = parse_player_list(args.players if args.players is not None else default_players(variant), variant)
    summary = simulate(specs, args.games, args.seed, rules, progress=not args.no_progress, checked=args.checked,
                       variant=variant.key)
    print(json.dumps(summary) if args.json else format_summary(summary))
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "simulate", help="play many seeded games between bots; win rates with 95%% intervals",
        description="Play GAMES independent seeded games between bots and report each seat's win rate "
                    "(Wilson 95%% interval; a shared win counts 1/k), hands per game, how hands end, "
                    "rebuys per game and the pool, each mean with a normal 95%% interval.")
    p.add_argument("--variant", default="rumino",
                   help=f"the game: one of {', '.join(SIMULATED)} (default rumino)")
    p.add_argument("--players", default=None,
                   help=f"comma-separated bots: {ALLOWED.replace(', human', '')} (default: greedy bots, four "
                        f"or as many as the game allows)")
    p.add_argument("--games", type=int, default=1000, help=f"number of games, 1 to {MAX_GAMES:,} (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="house rules, e.g. knock_max_deadwood=5 stock_exhausted=void_hand")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--checked", action="store_true", help="check every bot action against the rules (slower)")
    p.set_defaults(run=run)


__all__ = ["simulate", "format_summary", "parse_rules", "register"]
