"""Players: bots and the human player. A player sees only a :class:`~rumino.engine.PlayerView`.

Players are named by short specs (used by ``rumino simulate --players``):
``random``, ``greedy``, ``threshold:T`` (knock only at ≤ T, default 3),
``chaser:K`` (chase a rumino once K of 7 cards are in place, default 5),
``default`` (a game's own default bot: Rummoli's, :mod:`rumino.players.rummoli_bots`),
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

from rumino.engine import TurnGame
from rumino.errors import RuminoError
from rumino.players.base import Player
from rumino.players.chaser import RuminoChaser, rumino_target
from rumino.players.greedy import GreedyPlayer, ThresholdKnocker, register_decisions
from rumino.players.human import AwaitingInput, HumanPlayer, describe_view, parse_human_action
from rumino.players.random_player import RandomPlayer
from rumino.players.rummoli_bots import RummoliDefault
from rumino.players.search import DEFAULT_SIMULATIONS, SearchPlayer, best_player
from rumino.players.solitaire import SolitairePlayer
from rumino.players import gin_defaults, robber_defaults, romme_defaults, wiener_defaults
from rumino.variants.gin import GinView
from rumino.variants.robber import RobberView
from rumino.variants.romme_game import RommeView
from rumino.variants.wiener import WienerView

GAME_DECISIONS = {
    GinView: gin_defaults.choose_gin,  # the upcard offer, the wall (rules §6)
    WienerView: wiener_defaults.wiener_choice,  # Wiener's and Knock Rummy's views: buy-backs, calls (rules §5)
    RommeView: romme_defaults.romme_choice,  # open at 40, lay, lay off, hand-Rommé (rules §3)
    RobberView: robber_defaults.choose_robber,  # the exact table solver's move (rules §4)
}
"""Each game's own decisions for the greedy-type bots (greedy, threshold:T), by the game's view class:
the one place they are registered (:func:`rumino.players.greedy.register_decisions`)."""

COACH_MOVES = {
    RobberView: ("best move (exact solver)", robber_defaults.coach_move),
    RommeView: ("suggested play (Rommé bot)", romme_defaults.coach_move),
}
"""``{view class: (label, function(view) -> action or None)}``: the coach's table move in the games with
melds on the table, as the widgets' GameTable shows and plays it."""

register_decisions(GAME_DECISIONS)

from rumino.players import playout_gin, search as _search  # noqa: E402 (after the decisions it plays by)
from rumino.variants.gin import GinGame  # noqa: E402

_search.BATCH_PLAYOUTS[GinGame] = (playout_gin.sample_worlds, playout_gin.playouts)
_search.PLAIN_ROLLOUTS.add(playout_gin.playouts)
"""Gin's rollouts run compiled (:mod:`rumino.players.playout_gin`, exact against the engine's)."""
from rumino.players import playout_knock  # noqa: E402
from rumino.variants.rumino import RuminoGame  # noqa: E402
from rumino.variants.wiener import WienerGame  # noqa: E402

_search.BATCH_PLAYOUTS[RuminoGame] = (playout_knock.sample_worlds, playout_knock.search_playouts)
_search.BATCH_PLAYOUTS[WienerGame] = (playout_knock.sample_worlds, playout_knock.search_playouts)
"""Rumino's and Wiener's heads-up rollouts run compiled too (:mod:`rumino.players.playout_knock`)."""
_search.ROLLOUT_POLICIES["Rummoli"] = lambda rng: RummoliDefault(rng=rng)
"""Rummoli's search keeps its default bot's move unless another beats it, and rolls out with that bot."""


class UnknownPlayerError(RuminoError, ValueError):
    """A player spec that names no known player or has a bad parameter."""


KINDS = ("random", "greedy", "threshold", "chaser", "default", "solitaire", "search", "best", "human")
ALLOWED = "random, greedy, threshold[:T], chaser[:K], default, solitaire[:GOAL], search[:N], best, human"


def make_player(spec: str, *, seed: int | Sequence[int] | None = None,
                rng: np.random.Generator | None = None) -> Player:
    """Build a player from a spec such as ``"greedy"`` or ``"threshold:3"``."""
    if not isinstance(spec, str):
        raise UnknownPlayerError(f"unknown player {spec!r}: choose one of {ALLOWED}.")
    text = spec.strip().lower()
    kind, _, arg = text.partition(":")
    if kind not in KINDS:
        raise UnknownPlayerError(f"unknown player {spec.strip()!r}: choose one of {ALLOWED}.")
    if kind == "solitaire":  # the goal of the optimal table it plays (a missing table: TableMissingError)
        goal = arg or "knock"
        if goal not in ("knock", "gin", "rumino"):
            raise UnknownPlayerError(f"player {spec.strip()!r}: the goal must be knock, gin or rumino, "
                                     f"as in solitaire:knock.")
        return SolitairePlayer(goal)
    if kind == "search":  # N rollouts a decision; the worlds come from the player's own seeded stream
        try:
            sims = int(arg) if arg else None  # None: the game's default budget
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
        return RummoliDefault(seed=seed, rng=rng)
    default = 3 if kind == "threshold" else 5
    try:
        value = int(arg) if arg else default
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
            "default": RummoliDefault, "solitaire": SolitairePlayer, "search": SearchPlayer, "best": SearchPlayer,
            "human": HumanPlayer}


def _class(kind: str) -> type[Player]:
    return _CLASSES[kind]


__all__ = ["allowed_for", "Player", "RandomPlayer", "GreedyPlayer", "ThresholdKnocker", "RuminoChaser", "rumino_target",
           "SolitairePlayer", "SearchPlayer", "HumanPlayer", "RummoliDefault", "AwaitingInput", "parse_human_action", "describe_view", "make_player", "make_players",
           "UnknownPlayerError", "KINDS", "GAME_DECISIONS", "COACH_MOVES"]
