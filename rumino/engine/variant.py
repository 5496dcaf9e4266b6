"""What callers need to know of a game: its :class:`Variant` row, and the hooks its bots give the generic players.

A game's folder (``rumino/variants/<game>/``) builds its own row, ``VARIANT = Variant(...)``, from its rules,
its engine, its bots' decisions (:class:`GameBots`) and its words (its narrator class); the registry
(:mod:`rumino.variants`) lists the rows. The CLI, records, simulations, widgets, tournaments and
comparisons read a game's differences from its row, never from a branch on its key.

>>> from rumino.variants import find_variant
>>> v = find_variant("gin")
>>> v.title, v.players, v.hand_sizes, v.bots.search_budget is None
('Gin Rummy', (2, 2), (10, 11), True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from rumino.cards import Pack
from rumino.engine.evaluator import Evaluator, evaluator_for
from rumino.errors import RuleConfigError
from rumino.melds import MeldRules


@dataclass(frozen=True, kw_only=True)
class GameBots:
    """What a game's own folder tells the generic bots (:mod:`rumino.players`) about playing it.

    * ``decide(player, view) -> action``: the greedy-type bots' decisions in this game (greedy, threshold:T
      hand its views to it; ``player.knock_at(view)`` is the bot's knock point), or None: the generic
      draw-and-discard play (:class:`~rumino.players.greedy.GreedyPlayer`) fits it as it is;
    * ``coach``: ``(label, move(view) -> action or None)``, the coach's table move in a game with melds on the
      table (the GameTable's "Play the coach's move");
    * ``players``: the game's own bots by player spec (Rummoli's ``default``), classes of
      :class:`~rumino.engine.player.Player` made with ``seed=``/``rng=`` keywords;
    * ``search_budget``: the search player's rollouts a decision when its spec gives none (None: the
      search's own default), where the default would take more than about a second;
    * ``rollout(rng) -> player``: the bot a search keeps the move of unless another beats it, and rolls out
      with, in a game greedy does not play (None: greedy);
    * ``batch_playouts``: ``(sample_worlds, playouts)``, compiled greedy rollouts of many worlds in one call,
      exact against the engine's (Gin's, heads-up Rumino's and Wiener's); None: rollouts on the engine.
      ``playouts(game, stocks, hands, first=, ended_by=True, player=)`` plays a position its kernel does not
      model on the engine, ``player`` in both seats (the search's rollout bot);
    * ``plain_rollouts``: those compiled rollouts can play the opponent as a plain player, who takes the top
      discard only when it melds with his hand or lets him knock (``playouts(..., plain=seat)``; Gin's);
    * ``best_budget``: the best player's rollouts a decision (the spec ``best``), the budget of the game's
      strength target (None: the search's budget);
    * ``best_policy() -> player``: the bot whose moves the best player keeps unless another beats them, and
      rolls out with where the playouts run on the engine, where one tuned against greedy plays better than it
      (Rommé's and Wiener's careful bots; None: the search's own, ``rollout`` or greedy).

    The lookups go by the game's class and its parents (:func:`rumino.variants.variant_of`), so a house
    game standing on a registered one plays with that one's bots unless its own row says otherwise.
    """

    decide: Callable | None = None
    coach: tuple[str, Callable] | None = None
    players: dict[str, type] = field(default_factory=dict, compare=False)
    search_budget: int | None = None
    rollout: Callable | None = None
    batch_playouts: tuple[Callable, Callable] | None = None
    plain_rollouts: bool = False
    best_budget: int | None = None
    best_policy: Callable | None = None


@dataclass(frozen=True, kw_only=True)
class WholeGame:
    """One whole game to play through at a table (the widgets' "whole games" page, the terminal's transcript):
    the bots beside the reader, the seed, the house rules that bring the game to its end in a few dozen of
    the reader's moves, and why they were chosen (in a player's words)."""

    bots: str
    seed: int
    rules: tuple[tuple[str, Any], ...] = ()
    why: str = ""


@dataclass(frozen=True, kw_only=True)
class Variant:
    """What the engine, CLI and widgets need to know about a game.

    The registry (:data:`rumino.variants.VARIANTS`) is the only one: the CLI, records, simulations,
    profiles and widgets find a game there and nowhere else, and a game's differences are data on its
    row (never a branch on its key above this layer). Rows are built by keyword, each in its game's folder.

    ``game`` is the playable engine (a game class such as a
    :class:`~rumino.engine.drawdiscard.DrawDiscardGame` subclass), or None for a game
    that has rules and odds but cannot be played yet. What the game class knows is read
    from it, not copied: ``title`` (``NAME``), ``pack`` (``PACK``), ``players``
    (``MIN_PLAYERS``, ``MAX_SEATS``) and ``hand_size`` (``HAND_SIZE``; a row gives it
    only where the class has none: Rummoli's hands depend on the table, 0).

    ``hand_sizes`` are the hand sizes the deadwood CLI accepts: the size held between
    turns and, for a knock game, one more (after a draw; the default for a game with a
    ``knock_field``). ``knock_field`` names the rules field with the knock limit (None:
    no knocking).

    The upper layers' hooks, as data:

    * ``bot``: the game's own default bot (``rumino simulate`` and ``rumino play`` seat
      it; the profile's default match plays two of it);
    * ``bots``: what the game's own folder tells the generic bots (:class:`GameBots`: its decisions, its
      coach's table move, its own bots, its search budget, its rollout policy, its compiled rollouts);
    * ``narrator``: the terminal's narrator of the game (its words: the help of ``?``, what the table is
      told of each action, its move grammar), a :class:`~rumino.engine.words.DrawNarrator` or a subclass;
    * ``tally``: how a run of games is tallied and reported: ``"wins"`` (win rates, how
      hands end, rebuys, the pool) or ``"chips"`` (chips won per seat and what each
      section of the sheet paid; the profile asks the game's own questions) —
      :data:`rumino.playing.simulation.TALLIES`;
    * ``narration``: the kind of play a table shows: ``"draw"`` (stock and discard pile: the
      GameTable) or ``"stops"`` (widow, poker and stops: the RummoliTable);
    * ``hand_extras``: what ``rumino deadwood`` adds to the arrangement: ``"penalty"``
      (what the hand costs if caught with it, rules §3.5), ``"opening"`` (its best
      opening) — :data:`rumino.compare.hand_report.HAND_EXTRAS`;
    * ``opening_sizes``: the hand sizes a deal gives, for the odds of opening from the dealt hand (the
      first the usual one), or () for a game without such an opening (``rumino odds opening``);
    * ``move_example``: a table move written in the game's notation (the widgets' hint);
    * ``optimal_tables``: the optimal discard tables (:mod:`rumino.odds.optimal`) cover it;
    * ``ladder``: the game's players from the weakest up (``rumino ladder``), and ``house_rule_columns``:
      ``{name: (knob, values, players)}``, the ladder played again with a knob set to each value;
    * ``whole_game``: one whole game to play through (:class:`WholeGame`).
    """

    key: str
    aliases: tuple[str, ...]
    rules: Any
    game: Any = None
    section: str = ""
    title: str | None = None
    pack: Pack | None = None
    hand_size: int | None = None
    players: tuple[int, int] | None = None
    hand_sizes: tuple[int, ...] | None = None
    knock_field: str | None = None
    has_gin: bool = False
    has_rumino: bool = False
    bot: str = "greedy"
    bots: GameBots = GameBots()
    narrator: Any = None
    tally: str = "wins"
    narration: str = "draw"
    hand_extras: tuple[str, ...] = ()
    opening_sizes: tuple[int, ...] = ()
    move_example: str = ""
    optimal_tables: bool = False
    ladder: tuple[str, ...] = ()
    house_rule_columns: dict[str, tuple[str, tuple, tuple[str, ...]]] = field(default_factory=dict, compare=False)
    whole_game: WholeGame | None = None

    def __post_init__(self):
        g = self.game
        facts = {"title": getattr(g, "NAME", None), "pack": getattr(g, "PACK", None),
                 "hand_size": getattr(g, "HAND_SIZE", None),
                 "players": (g.MIN_PLAYERS, g.MAX_SEATS) if g is not None else None}
        for name, known in facts.items():
            given = getattr(self, name)
            if given is not None and known is not None and given != known:
                raise RuleConfigError(f"the {self.key} row gives {name}={given!r}, but {g.NAME} says {known!r}: "
                                      f"the game class knows it, leave it off the row.")
            if given is None:
                if known is None:
                    raise RuleConfigError(f"the {self.key} row needs {name}: its game class does not say it.")
                object.__setattr__(self, name, known)
        if self.hand_sizes is None:
            sizes = (self.hand_size, self.hand_size + 1) if self.knock_field else (self.hand_size,)
            object.__setattr__(self, "hand_sizes", sizes)

    @property
    def playable(self) -> bool:
        return self.game is not None

    @property
    def rules_class(self) -> type:
        return type(self.rules)

    def meld_rules(self, rules: Any = None) -> MeldRules | None:
        return (rules or self.rules).meld_rules

    def knock_limit(self, rules: Any = None) -> int | None:
        return None if self.knock_field is None else getattr(rules or self.rules, self.knock_field)

    def evaluator(self, rules: Any = None) -> Evaluator:
        """The shared evaluator of ``rules`` (default: the game's own) that the game's engine and bots use
        (its ``EVALUATOR`` class: Rumino's also knows which cards complete a rumino)."""
        return evaluator_for(rules or self.rules, self.game.EVALUATOR)

    def with_rules(self, **changes: Any) -> Any:
        """The default rules with house-rule changes (validated)."""
        return dataclasses.replace(self.rules, **changes)


__all__ = ["Variant", "GameBots", "WholeGame"]
