"""``rumino simulate``: play many seeded games between bots and report win rates with 95% intervals.

Each game ``i`` is dealt from ``numpy.random.default_rng([seed, i])`` and its
random bots draw from their own streams of the same seed, so a run is
reproducible and any single game can be replayed on its own. Games are
independent: each starts with the first dealer drawn by high card (rules §1.1).

>>> from rumino.cli import main
>>> main(["simulate", "--players", "greedy,random", "--games", "3", "--seed", "1", "--no-progress",
...       "--json"])  # doctest: +ELLIPSIS
{"variant": "rumino", "players": ["greedy", "random"], "games": 3, "seed": 1, ...}
0
"""

from __future__ import annotations

import dataclasses
import json
from typing import Sequence

from rumino.errors import RuleConfigError
from rumino.players import ALLOWED, allowed_for, make_players
from rumino.playing.simulation import format_summary, play_games
from rumino.variants import find_variant, playable_variants
from rumino.engine.knobs import parse_knob_value
from rumino.cli import CommandError
from rumino.cli.inputs import check_seed
from rumino.console import make_bar

SIMULATED = tuple(playable_variants())
MAX_GAMES = 10_000_000  # a bound on the work one command may ask for (about a day of greedy games)


def playable(name: str):
    """The registry's variant ``name`` if it has an engine; otherwise a one-line error naming the playable ones."""
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
    >>> parse_rules(find_variant("rumino"), ["knock_max_deadwood=5", "knock_max_deadwood=9"])
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: the house rule 'knock_max_deadwood' is given twice (knock_max_deadwood=5 and 'knock_max_deadwood=9'): give it once.
    """
    changes = {}
    cls = variant.rules_class
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise CommandError(f"the rule {pair!r} is not KEY=VALUE (for example knock_max_deadwood=5).")
        key = key.strip()
        if key in changes:  # the last would silently win: say which one was meant instead
            raise CommandError(f"the house rule {key!r} is given twice ({key}={changes[key]!r} and {pair!r}): "
                               f"give it once.")
        changes[key] = parse_knob_value(cls, key, value)
    return dataclasses.replace(variant.rules, **changes)


def default_players(variant) -> str:
    """The game's own default bot (``Variant.bot``: greedy, Rummoli's default), four or as many as the
    game allows.

    >>> default_players(find_variant("gin")), default_players(find_variant("rummoli"))
    ('greedy,greedy', 'default,default,default,default')
    """
    lo, hi = variant.players
    return ",".join([variant.bot] * max(lo, min(4, hi)))


def parse_player_list(text: str, variant=None) -> list[str]:
    game = playable(variant or "rumino").game
    specs = [s.strip() for s in text.split(",")]
    lo, hi = game.MIN_PLAYERS, game.MAX_SEATS
    if not lo <= len(specs) <= hi:
        raise CommandError(f"--players lists {len(specs)} player(s); {game.NAME} is for {lo} to {hi} "
                           f"(rules {game.SECTIONS['deal']}). Players: {allowed_for(game)}.")
    return specs


def simulate(players: Sequence[str], games: int, seed: int = 0, rules=None, *, progress: bool = False,
             checked: bool = False, variant: str = "rumino") -> dict:
    """Play ``games`` independent games and summarise them (the dict ``--json`` prints: the game's
    tally, ``Variant.tally``: win rates, or chips won per seat and what each section paid).

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
    check_seed(seed)
    game = v.game
    if not game.MIN_PLAYERS <= len(specs) <= game.MAX_SEATS:
        raise CommandError(f"{len(specs)} player(s) given; {game.NAME} is for {game.MIN_PLAYERS} to {game.MAX_SEATS} "
                           f"(rules {game.SECTIONS['deal']}).")
    make_players(specs, seed=0, game=v.game)  # names, fit and count checked before any game is played
    bar = make_bar(games, "games", "games", leave=False) if progress else None
    try:
        run = play_games(rules, specs, games, seed, variant=v.key, checked=checked,
                         progress=(lambda done, total: bar.update(1)) if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    return run.as_json()


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
                    "(Wilson 95% interval; a shared win counts 1/k), hands per game, how hands end, "
                    "rebuys per game and the pool, each mean with a normal 95% interval.")
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


__all__ = ["simulate", "format_summary", "parse_rules", "default_players", "parse_player_list", "playable", "register"]
