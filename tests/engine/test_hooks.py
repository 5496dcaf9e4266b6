"""A game overrides only the hooks of the kind of game it stands on (DESIGN "Adding a game").

The draw-and-discard template (:class:`~rumino.engine.drawdiscard.DrawDiscardGame`), the games with melds
on the table (:class:`~rumino.engine.melded.MeldedGame`) and the turn game every game stands on
(:class:`~rumino.engine.base.TurnGame`) each list their hooks (``HOOKS``), each named for what it decides;
a registered game that replaced any other method of its kind (a whole ``check_invariants``, ``legal_actions``,
``_do_draw``) would be changing the engine under the other games' feet.
"""

from __future__ import annotations

import pytest

from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import DrawDiscardGame
from rumino.engine.melded import MeldedGame
from rumino.variants import VARIANTS

KINDS = (MeldedGame, DrawDiscardGame, TurnGame)


def overridden(game: type) -> tuple[type, set[str]]:
    """The kind ``game`` stands on, and the methods and properties of that kind its own classes define."""
    kind = next(k for k in KINDS if issubclass(game, k))
    own = set()
    for cls in game.__mro__:
        if cls in KINDS or cls is object:
            break
        own |= {name for name, value in vars(cls).items()  # methods and properties (not the class settings:
                if not isinstance(value, type) and not name.isupper()  # its VIEW, RULES_CLASS, SECTIONS …)
                and (callable(value) or isinstance(value, (property, staticmethod, classmethod)))}
    in_kind = {name for k in kind.__mro__ for name in vars(k)}
    dunder = {name for name in own if name.startswith("__")}
    return kind, (own & in_kind) - dunder


@pytest.mark.parametrize("variant", [v for v in VARIANTS.values() if v.game is not None], ids=lambda v: v.key)
def test_every_game_overrides_only_its_kinds_hooks(variant):
    kind, names = overridden(variant.game)
    assert names <= kind.HOOKS, f"{variant.game.__name__} overrides {sorted(names - kind.HOOKS)} of {kind.__name__}"


def test_the_check_catches_a_method_that_is_no_hook():
    class Sneaky(DrawDiscardGame):
        def legal_actions(self):  # pragma: no cover - never called
            return []

    kind, names = overridden(Sneaky)
    assert kind is DrawDiscardGame and names - kind.HOOKS == {"legal_actions"}


def test_every_hook_is_a_method_of_its_kind():
    for kind in KINDS:
        missing = [h for h in kind.HOOKS if not any(h in vars(k) for k in kind.__mro__)]
        assert not missing, (kind.__name__, missing)
