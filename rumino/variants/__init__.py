"""The registry of variants: names, aliases, default rules, packs and hand sizes.

>>> find_variant("German Rummy").key, find_variant("101").key, find_variant("gin rummy").title
('romme', 'wiener', 'Gin Rummy')
>>> find_variant("knock rummy").title, find_variant("knock-rummy").key
('American Knock Rummy', 'knock-rummy')
>>> find_variant("canasta")
Traceback (most recent call last):
...
rumino.errors.RuleConfigError: unknown variant 'canasta': choose one of rumino, rummoli, romme, robber, wiener, gin, knock-rummy.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from rumino.cards import Pack
from rumino.errors import RuleConfigError
from rumino.melds import MeldRules
from rumino.variants import gin, robber, romme, rummoli, rumino, wiener


@dataclass(frozen=True, kw_only=True)
class Variant:
    """What the engine, CLI and widgets need to know about a game.

    This registry is the only one: the CLI, records, simulations, profiles and widgets
    find a game here and nowhere else, and a game's differences are data on its row
    (never a branch on its key above this layer). Rows are built by keyword.

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
    * ``tally``: how a run of games is tallied and reported: ``"wins"`` (win rates, how
      hands end, rebuys, the pool) or ``"chips"`` (chips won per seat and what each
      section of the sheet paid; the profile asks the game's own questions) —
      :data:`rumino.playing.simulation.TALLIES`;
    * ``narration``: how the terminal narrates a game: ``"draw"`` (stock and discard
      pile) or ``"stops"`` (widow, poker and stops) — :data:`rumino.cli.play.NARRATORS`;
    * ``hand_extras``: what ``rumino deadwood`` adds to the arrangement: ``"penalty"``
      (what the hand costs if caught with it, rules §3.5), ``"opening"`` (its best
      opening) — :data:`rumino.compare.hand_report.HAND_EXTRAS`;
    * ``move_example``: a table move written in the game's notation (the widgets' hint);
    * ``optimal_tables``: the optimal discard tables (:mod:`rumino.odds.optimal`) cover it.
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
    tally: str = "wins"
    narration: str = "draw"
    hand_extras: tuple[str, ...] = ()
    move_example: str = ""
    optimal_tables: bool = False

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

    def with_rules(self, **changes) -> Any:
        """The default rules with house-rule changes (validated)."""
        return dataclasses.replace(self.rules, **changes)


KNOCK = "knock_max_deadwood"

VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(key="rumino", aliases=("rumino",), rules=rumino.RUMINO, game=rumino.RuminoGame, section="§1",
                knock_field=KNOCK, has_gin=True, has_rumino=True, optimal_tables=True),
        Variant(key="rummoli", aliases=("rummoli", "rumoli", "rummolli"), rules=rummoli.RUMMOLI,
                game=rummoli.RummoliGame, section="§2", hand_size=0, hand_sizes=(),
                bot="default", tally="chips", narration="stops"),
        Variant(key="romme", aliases=("romme", "rommé", "german romme", "german rommé", "german rummy",
                                      "romme mit auslegen", "rommé mit auslegen"),
                rules=romme.ROMME, game=romme.RommeGame, section="§3", hand_sizes=tuple(range(1, 15)),
                hand_extras=("penalty", "opening"),
                move_example="play lay 10s Js Qs; layoff 8h on 0; exchange 7h on 1"),
        Variant(key="robber", aliases=("robber", "robber rummy", "robbers rummy", "robbers' rummy",
                                       "rauber-romme", "räuber-rommé", "rauber romme"),
                rules=robber.ROBBER, game=robber.RobberGame, section="§4", hand_sizes=tuple(range(1, 31)),
                hand_extras=("opening",),
                move_example="place 5c 6c 7c | 7c 8c 9c   (the whole table after the move, JK(8d) for a joker)"),
        Variant(key="wiener", aliases=("wiener", "wiener rummy", "viennese rummy", "101", "romme ohne auslegen",
                                       "rommé ohne auslegen"),
                rules=wiener.WIENER, game=wiener.WienerGame, section="§5", knock_field=KNOCK),
        Variant(key="gin", aliases=("gin", "gin rummy"), rules=gin.GIN, game=gin.GinGame, section="§6",
                knock_field=KNOCK, has_gin=True),
        # rules §5.8: 10 cards for 2 players, 7 for 3–4 (the default table of 4), 6 for 5
        Variant(key="knock-rummy", aliases=("knock rummy", "american knock rummy", "knock"),
                rules=wiener.KNOCK_RUMMY, game=wiener.KnockRummyGame, section="§5.8",
                hand_sizes=(6, 7, 8, 10, 11), knock_field=KNOCK),
    )
}


def _norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_ALIASES = {_norm(a): v for v in VARIANTS.values() for a in (v.key, v.title, *v.aliases)}


def playable_variants() -> dict[str, Variant]:
    """The variants with an engine, by key (what ``rumino simulate|play --variant`` accepts)."""
    return {k: v for k, v in VARIANTS.items() if v.game is not None}


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by key, title or alias (case and punctuation do not matter)."""
    if isinstance(name, Variant):
        return name
    v = _ALIASES.get(_norm(str(name)))
    if v is None:
        raise RuleConfigError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}.")
    return v


__all__ = ["Variant", "VARIANTS", "find_variant", "playable_variants"]
