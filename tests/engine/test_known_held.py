"""The cards a player saw another take face up and keep (``known_held``), and the worlds that keep them.

A careful player remembers the upcards the others took, the cards they claimed and the jokers they took
from the table, until he sees them let go. The search's worlds must keep those cards where they are:
otherwise it would play as if it had forgotten what everyone at the table saw.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rumino.engine.actions import Discard, Draw
from rumino.playing.seeding import new_table
from rumino.variants import find_variant

GAMES = ["gin", "knock-rummy", "wiener", "rumino", "romme", "robber"]


def _positions(key, seeds, players=2, bots="greedy"):
    variant = find_variant(key)
    # Robber takes nothing face up by its default rules: its discard-pile house rule (rules §4.3) does
    rules = variant.rules_class(discard_pile=True) if key == "robber" else None
    for seed in seeds:
        game, seats = new_table(variant, [bots] * players, seed, 0, rules=rules)
        steps = 0
        while not game.hand_over and steps < 400:
            yield game
            game.apply(seats[game.to_act].choose(game.view(game.to_act)))
            steps += 1


@pytest.mark.parametrize("key", GAMES)
def test_what_is_known_held_is_held_and_every_world_keeps_it(key):
    used = 0
    # Robber's greedy never takes the pile's card; its random bot does
    bots = "random" if key == "robber" else "greedy"
    for i, game in enumerate(_positions(key, range(4), players=3 if key in ("rumino", "romme") else 2, bots=bots)):
        if i % 3:
            continue
        for seat in game.hand_players:
            known = game.known_held(seat)
            assert seat not in known
            for other, cards in known.items():
                assert not Counter(cards) - Counter(game.hands[other]), "known to be held, yet not held"
            if not known:
                continue
            used += 1
            world = game.sample_world(seat, np.random.default_rng(i))
            for other, cards in known.items():
                assert not Counter(cards) - Counter(world.hands[other])
            assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
            assert world.hands[seat] == game.hands[seat]
            world.check_invariants()
    assert used, f"no {key} position had a card taken face up"


def test_a_card_taken_face_up_is_known_until_let_go_and_a_twin_is_not_mistaken_for_it():
    """Gin: the upcard taken is known; once discarded it is not. Rumino (two decks): after a player
    discards one copy of a card he took face up, the other copy he may hold is not known."""
    game, _ = new_table(find_variant("gin"), ["greedy", "greedy"], 3, 0)
    while not any(isinstance(a, Draw) and a.source == "discard" for a in game.legal_actions()):
        game.apply(game.legal_actions()[0])
    taker, top = game.to_act, game.discard[-1]
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Draw) and a.source == "discard"))
    assert game.known_held(1 - taker) == {taker: [top]}
    other = next(a for a in game.legal_actions() if isinstance(a, Discard) and a.card != top)
    game.apply(other)
    assert game.known_held(1 - taker) == {taker: [top]}

    g = find_variant("rumino").game.new(n_players=2, seed=1)
    g.taken = [[], []]
    g._taken_hand = g.hand_number
    twin = g.hands[0][0]
    g.hands[0].append(twin)  # the seat holds both copies
    g.took_face_up(0, [twin])
    g.let_go(0, [twin])
    assert g.known_held(1) == {}
