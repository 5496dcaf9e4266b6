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
from rumino.variants import gin, robber, romme, romme_game, rummoli, rumino, wiener


@dataclass(frozen=True)
class Variant:
    """What the engine, CLI and widgets need to know about a game.

    ``hand_sizes`` are the hand sizes the deadwood CLI accepts: the size held
    between turns and, for draw-and-discard games, one more (after a draw).
    ``knock_field`` names the rules field with the knock limit (None: no knocking).
    ``game`` is the playable engine (a :class:`~rumino.engine.drawdiscard.DrawDiscardGame`
    subclass), or None for a game that has rules and odds but cannot be played yet.
    This registry is the only one: the CLI, records, simulations and widgets find
    a game's engine here and nowhere else.
    """

    key: str
    title: str
    aliases: tuple[str, ...]
    rules: Any
    pack: Pack
    hand_size: int
    players: tuple[int, int]
    hand_sizes: tuple[int, ...]
    knock_field: str | None = None
    has_gin: bool = False
    has_rumino: bool = False
    section: str = ""
    game: Any = None

    @property
    def playable(self) -> bool:
        return self.game is not None

    @property
    def rules_class(self):
        return type(self.rules)

    def meld_rules(self, rules=None) -> MeldRules | None:
        return (rules or self.rules).meld_rules

    def knock_limit(self, rules=None) -> int | None:
        return None if self.knock_field is None else getattr(rules or self.rules, self.knock_field)

    def with_rules(self, **changes) -> Any:
        """The default rules with house-rule changes (validated)."""
        return dataclasses.replace(self.rules, **changes)


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("rumino", "Rumino", ("rumino",), rumino.RUMINO, rumino.PACK, 7, (2, 6), (7, 8),
                knock_field="knock_max_deadwood", has_gin=True, has_rumino=True, section="§1",
                game=rumino.RuminoGame),
        Variant("rummoli", "Rummoli", ("rummoli", "rumoli", "rummolli"), rummoli.RUMMOLI, rummoli.PACK, 0, (2, 8), (),
                section="§2", game=rummoli.RummoliGame),
        Variant("romme", "German Rommé", ("romme", "rommé", "german romme", "german rommé", "german rummy",
                                          "romme mit auslegen", "rommé mit auslegen"),
                romme.ROMME, romme.PACK, 13, (2, 6), tuple(range(1, 15)), section="§3", game=romme_game.RommeGame),
        Variant("robber", "Robber Rummy", ("robber", "robber rummy", "robbers rummy", "robbers' rummy",
                                           "rauber-romme", "räuber-rommé", "rauber romme"),
                robber.ROBBER, robber.PACK, 13, (2, 6), tuple(range(1, 31)), section="§4", game=robber.RobberGame),
        Variant("wiener", "Wiener Rummy", ("wiener", "wiener rummy", "viennese rummy", "101", "romme ohne auslegen",
                                           "rommé ohne auslegen"),
                wiener.WIENER, wiener.PACK, 10, (2, 6), (10, 11), knock_field="knock_max_deadwood", section="§5",
                game=wiener.WienerGame),
        Variant("gin", "Gin Rummy", ("gin", "gin rummy"), gin.GIN, gin.PACK, 10, (2, 2), (10, 11),
                knock_field="knock_max_deadwood", has_gin=True, section="§6", game=gin.GinGame),
        # RULES §5.8: 10 cards for 2 players, 7 for 3–4 (the default table of 4), 6 for 5
        Variant("knock-rummy", "American Knock Rummy", ("knock rummy", "american knock rummy", "knock"),
                wiener.KNOCK_RUMMY, wiener.KNOCK_RUMMY_PACK, 7, (2, 5), (6, 7, 8, 10, 11),
                knock_field="knock_max_deadwood", section="§5.8", game=wiener.KnockRummyGame),
    )
}


def _norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_ALIASES = {_norm(a): v for v in VARIANTS.values() for a in (v.key, v.title, *v.aliases)}


def playable_variants() -> dict[str, Variant]:
    """The variants with an engine, by key (what ``rumino simulate|play --variant`` accepts)."""
    return {k: v for k, v in VARIANTS.items() if v.game is not None}


def find_variant(name: str) -> Variant:
    """Look a variant up by key, title or alias (case and punctuation do not matter)."""
    if isinstance(name, Variant):
        return name
    v = _ALIASES.get(_norm(str(name)))
    if v is None:
        raise RuleConfigError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}.")
    return v


__all__ = ["Variant", "VARIANTS", "find_variant", "playable_variants"]
