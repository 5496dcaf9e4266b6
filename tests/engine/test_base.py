"""The turn game every game stands on (rumino.engine.base): knobs declared by class, the stale-view
guard and checked ``apply`` shared by every kind of game (the draw-and-discard template and Rummoli)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rumino.cards import STANDARD_PACK
from rumino.engine.actions import DEAL, Deal, Discard, Draw
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import DrawDiscardGame
from rumino.engine.protocol import ActionSet
from rumino.errors import IllegalActionError, RuleConfigError
from rumino.melds import GIN_MELDS
from rumino.variants import VARIANTS
from rumino.variants.rummoli import RUMMOLI, RummoliGame


def test_every_registered_engine_stands_on_the_base():
    for variant in VARIANTS.values():
        if variant.game is not None:
            assert issubclass(variant.game, TurnGame), variant.key


def test_a_misspelt_knob_is_refused_when_the_game_class_is_made():
    @dataclass(frozen=True)
    class Rules:
        stock_exhaust: str = "end_and_score"  # the template reads stock_exhausted
        meld_rules = GIN_MELDS

    with pytest.raises(RuleConfigError, match="'stock_exhaust' but the engine reads 'stock_exhausted'"):
        class Misspelt(DrawDiscardGame):  # noqa: F841 - making the class is the test
            NAME, RULES_CLASS, PACK = "Misspelt", Rules, STANDARD_PACK
            ACTIONS = ActionSet("Misspelt", (Draw, Discard, Deal))


def test_a_rules_class_without_a_knob_plays_the_declared_stand_in():
    @dataclass(frozen=True)
    class Rules:
        meld_rules = GIN_MELDS

    class Plain(DrawDiscardGame):
        NAME, RULES_CLASS, PACK = "Plain", Rules, STANDARD_PACK
        ACTIONS = ActionSet("Plain", (Draw, Discard, Deal))

    g = Plain.new(Rules(), 2, seed=1)
    assert g.knob("stock_exhausted") == "reshuffle" and g._limit == -1 and g.view(0).knock_limit is None
    with pytest.raises(KeyError):
        g.knob("no_such_knob")


@pytest.mark.parametrize("game", [lambda: RummoliGame.new(RUMMOLI, 3, seed=4),
                                  lambda: VARIANTS["gin"].game.new(None, 2, seed=4)], ids=["rummoli", "gin"])
def test_a_view_goes_stale_and_a_refusal_changes_nothing(game):
    g = game()
    view = g.view(g.to_act)  # its legal actions are listed on first use
    g.apply(g.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="out of date"):
        view.legal_actions  # noqa: B018 - the stale view refuses
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"rules §") as err:
        g.apply(DEAL if DEAL not in g.legal_actions() else Draw("nowhere"))
    assert err.value.phase == g.phase and g.snapshot() == before


def test_next_game_waits_for_a_winner():
    g = RummoliGame.new(RUMMOLI, 2, seed=1)
    with pytest.raises(IllegalActionError, match="not over"):
        g.next_game(seed=2)


def test_the_templates_written_out_view_is_the_bases_view():
    """DrawDiscardGame.view builds the same view as TurnGame.view (it only skips a dict), for every
    draw-and-discard game of the registry, at every step of a seeded game."""
    import dataclasses

    from rumino.engine.base import TurnGame
    from rumino.engine.drawdiscard import DrawDiscardGame
    from rumino.playing.seeding import new_table
    from rumino.variants import VARIANTS

    checked = 0
    for v in VARIANTS.values():
        if not issubclass(v.game, DrawDiscardGame):
            continue
        game, bots = new_table(v, ["greedy", "random"], 7, 0)
        for _ in range(60):
            if game.game_over:
                break
            for seat in range(game.n_seats):
                fast, base = DrawDiscardGame.view(game, seat), TurnGame.view(game, seat)
                names = [f.name for f in dataclasses.fields(fast) if f.name != "_legal"]
                assert type(fast) is type(base)
                assert [getattr(fast, n) for n in names] == [getattr(base, n) for n in names], v.key
                checked += 1
            game.apply(bots[game.to_act].choose(game.view(game.to_act)))
    assert checked > 300
