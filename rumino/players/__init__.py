"""Players: bots and the human player. A player sees only a :class:`~rumino.engine.PlayerView`.

Players are named by short specs (used by ``rumino simulate --players``):
``random``, ``greedy``, ``threshold:T`` (knock only at ≤ T, default 3),
``chaser:K`` (chase a rumino once K of 7 cards are in place, default 5),
``default`` (a game's own default bot, from its row of the registry: Rummoli's,
:mod:`rumino.variants.rummoli.bots`),
``solitaire:GOAL`` (the optimal table's discards for knock, gin or rumino, default
knock; it needs the built tables, :mod:`rumino.players.solitaire`), ``search:N`` (determinized
Monte Carlo search with N greedy rollouts a decision, default 200, Rommé 100: :mod:`rumino.players.search`),
``best`` (the strongest player of every game: the search that weighs its deals by the opponent's open
play, :func:`rumino.players.search.best_player`) and ``human``.

>>> [p.name for p in make_players("greedy,threshold:2,random", seed=1)]
['greedy', 'threshold:2', 'random']
>>> make_player("clever")
Traceback (most recent call last):
...
rumino.players.UnknownPlayerError: unknown player 'clever': choose one of random, greedy, threshold[:T], chaser[:K], default, solitaire[:GOAL], search[:N], best, human.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from rumino.console import parse_whole
from rumino.engine import TurnGame
from rumino.errors import RuminoError
from rumino.players.base import Player
from rumino.players.chaser import RuminoChaser, rumino_target
from rumino.players.greedy import GreedyPlayer, ThresholdKnocker
from rumino.players.human import AwaitingInput, HumanPlayer, describe_view, parse_human_action
from rumino.players.random_player import RandomPlayer
from rumino.players.search import DEFAULT_SIMULATIONS, SearchPlayer, best_player
from rumino.players.solitaire import SolitairePlayer
from rumino.variants import VARIANTS

OWN_PLAYERS: dict[str, type[Player]] = {kind: cls for v in VARIANTS.values() for kind, cls in v.bots.players.items()}
"""The games' own bots by spec, from their rows of the registry (``Variant.bots.players``): Rummoli's
``default``."""


class UnknownPlayerError(RuminoError, ValueError):
    """A player spec that names no known player or has a bad parameter."""


KINDS = ("random", "greedy", "threshold", "chaser", "default", "solitaire", "search", "best", "human")
ALLOWED = "random, greedy, threshold[:T], chaser[:K], default, solitaire[:GOAL], search[:N], best, human"
_EXAMPLE = {"threshold": "threshold:3", "chaser": "chaser:5", "solitaire": "solitaire:knock",
            "search": f"search:{DEFAULT_SIMULATIONS}"}


def make_player(spec: str, *, seed: int | Sequence[int] | None = None,
                rng: np.random.Generator | None = None) -> Player:
    """Build a player from a spec such as ``"greedy"`` or ``"threshold:3"``."""
    if not isinstance(spec, str):
        raise UnknownPlayerError(f"unknown player {spec!r}: choose one of {ALLOWED}.")
    text = spec.strip().lower()
    kind, colon, arg = text.partition(":")
    if kind not in KINDS:
        raise UnknownPlayerError(f"unknown player {spec.strip()!r}: choose one of {ALLOWED}.")
    if colon and not arg.strip():  # 'threshold:' played threshold:3 as if the colon were not there
        raise UnknownPlayerError(f"player {spec.strip()!r} has a colon and no value after it: give one, as in "
                                 f"{_EXAMPLE.get(kind, kind + ':…')}, or leave the colon out for the default.")
    if kind == "solitaire":  # the goal of the optimal table it plays (a missing table: TableMissingError)
        goal = arg or "knock"
        if goal not in ("knock", "gin", "rumino"):
            raise UnknownPlayerError(f"player {spec.strip()!r}: the goal must be knock, gin or rumino, "
                                     f"as in solitaire:knock.")
        return SolitairePlayer(goal)
    if kind == "search":  # N rollouts a decision; the worlds come from the player's own seeded stream
        try:
            sims = parse_whole(arg) if arg else None  # None: the game's default budget
            return SearchPlayer(sims, seed=seed, rng=rng)
        except ValueError:
            raise UnknownPlayerError(f"player {spec.strip()!r}: the parameter must be a number of rollouts "
                                     f"from 1 to 1,000,000, as in search:{DEFAULT_SIMULATIONS}.") from None
    if kind == "best" and not arg:  # the strongest player of every game: the search with the opponent model
        return best_player(seed=seed, rng=rng)
    if arg and kind not in ("threshold", "chaser"):
        raise UnknownPlayerError(f"player {spec.strip()!r}: {kind} takes no parameter; the players are {ALLOWED}.")
    if kind == "random":
        return RandomPlayer(seed=seed, rng=rng)
    if kind == "greedy":
        return GreedyPlayer()
    if kind == "human":
        return HumanPlayer()
    if kind == "default":
        return OWN_PLAYERS["default"](seed=seed, rng=rng)
    default = 3 if kind == "threshold" else 5
    try:
        value = parse_whole(arg) if arg else default
    except ValueError:
        value = None
    try:
        if value is None:
            raise ValueError
        return ThresholdKnocker(value) if kind == "threshold" else RuminoChaser(value)
    except ValueError:
        what = "a knock threshold T ≥ 0" if kind == "threshold" else "a progress K from 1 to 7"
        raise UnknownPlayerError(f"player {spec.strip()!r}: the parameter must be {what}, "
                                 f"as in {kind}:{default}.") from None


def player_words(spec: str) -> str:
    """A player spec as a screen names the player: its kind, and its parameter in words.

    >>> [player_words(s) for s in ("greedy", "threshold:3", "chaser:5", "search:20", "solitaire:knock", "default")]
    ['greedy', 'threshold 3', 'chaser 5', 'search, 20 rollouts', 'solitaire (knock)', 'default']
    """
    kind, _, arg = str(spec).strip().partition(":")
    if not arg:
        return kind
    if kind == "search":
        return f"search, {arg} rollout{'' if arg == '1' else 's'}"
    if kind == "solitaire":
        return f"solitaire ({arg})"
    return f"{kind} {arg}"


def player_fits(spec: str, game: type[TurnGame]) -> bool:
    """Whether the player ``spec`` names can play ``game``, said before the player is made (the solitaire
    bot loads its tables when made); an unknown name is left to :func:`make_player` to refuse.

    >>> from rumino.variants.robber import RobberGame
    >>> player_fits("solitaire:knock", RobberGame), player_fits("greedy", RobberGame)
    (False, True)
    """
    kind = str(spec).strip().lower().partition(":")[0]
    return kind not in KINDS or _class(kind).fits(game)


def allowed_for(game: type[TurnGame]) -> str:
    """The player specs that fit ``game`` (a game class), as text for an error message."""
    kinds = {"random": "random", "greedy": "greedy", "threshold": "threshold[:T]", "chaser": "chaser[:K]",
             "default": "default", "solitaire": "solitaire[:GOAL]", "search": "search[:N]", "best": "best",
             "human": "human"}
    return ", ".join(text for kind, text in kinds.items() if _class(kind).fits(game))


def make_players(specs: str | list[str], *, seed: int | Sequence[int] | None = None,
                 game: type[TurnGame] | None = None) -> list[Player]:
    """Players from a comma-separated list of specs; random players get independent seeded streams.

    With ``game`` (a game class, e.g. ``Variant.game``) every player must fit that game and
    their number must be one it allows; otherwise the error names what is allowed.

    >>> from rumino.variants.rumino import RuminoGame
    >>> make_players("greedy", game=RuminoGame)
    Traceback (most recent call last):
    ...
    rumino.players.UnknownPlayerError: 1 player given: Rumino is for 2 to 6 players (rules §1.1).
    """
    items = [s for s in (specs.split(",") if isinstance(specs, str) else specs)]
    if any(not str(s).strip() for s in items):
        raise UnknownPlayerError(f"the players list {specs!r} has an empty name: choose from {ALLOWED}.")
    if game is not None:  # before any player is made: the solitaire bot would first ask for its tables
        for spec in items:
            if not player_fits(spec, game):
                raise UnknownPlayerError(f"player {str(spec).strip()!r} does not fit {game.NAME}: the players for "
                                         f"{game.NAME} are {allowed_for(game)}.")
    children = np.random.SeedSequence(seed).spawn(len(items))
    players = [make_player(s, rng=np.random.default_rng(children[i])) for i, s in enumerate(items)]
    if game is not None:
        for spec, p in zip(items, players):
            if not p.fits(game):
                raise UnknownPlayerError(f"player {spec.strip()!r} does not fit {game.NAME}: the players for "
                                         f"{game.NAME} are {allowed_for(game)}.")
        lo, hi = game.MIN_PLAYERS, game.MAX_SEATS
        if not lo <= len(players) <= hi:
            count = f"{len(players)} player{'s' if len(players) != 1 else ''}"
            raise UnknownPlayerError(f"{count} given: {game.NAME} is for {lo} to {hi} players "
                                     f"(rules {game.SECTIONS['deal']}).")
    return players


_CLASSES = {"random": RandomPlayer, "greedy": GreedyPlayer, "threshold": ThresholdKnocker, "chaser": RuminoChaser,
            "solitaire": SolitairePlayer, "search": SearchPlayer, "best": SearchPlayer, "human": HumanPlayer,
            **OWN_PLAYERS}


def _class(kind: str) -> type[Player]:
    return _CLASSES[kind]


__all__ = ["allowed_for", "Player", "RandomPlayer", "GreedyPlayer", "ThresholdKnocker", "RuminoChaser", "rumino_target",
           "SolitairePlayer", "SearchPlayer", "HumanPlayer", "AwaitingInput", "parse_human_action", "describe_view", "make_player", "make_players", "player_fits", "player_words",
           "UnknownPlayerError", "KINDS", "OWN_PLAYERS"]
