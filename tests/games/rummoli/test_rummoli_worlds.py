"""Rummoli's worlds in the stops agree with everything the play has shown (what a search samples from).

The check is independent of :meth:`RummoliGame.stops_knowledge`: a world's hands, with each player's
played cards given back, are dealt again into a fresh game (``set_stops``), and the stops played so far
are replayed there by the engine's own rules. A world that a careful player could rule out (a shown five
that would differ, a card that should have been played, a lead that was not the lowest, a pass by a
player who held the colour) replays differently or is refused.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from rumino.cards import format_hand, parse_hand
from rumino.errors import IllegalActionError
from rumino.playing.seeding import new_table
from rumino.variants import find_variant
from rumino.variants.rummoli import Claim, Forgo, Play, RummoliGame, best_five


def _stops_so_far(game: RummoliGame) -> list:
    """The current deal's stops so far, as (actor, action): the plays and claims at the end of the history."""
    tail = []
    for actor, action in reversed(game.history):
        if not isinstance(action, (Play, Claim, Forgo)):
            break
        tail.append((actor, action))
    return tail[::-1]


def replays_the_same(game: RummoliGame, world: RummoliGame) -> str:
    """'' if ``world`` could be the real deal: the shown fives agree and the stops so far, replayed by the
    engine on the world's cards (each player's played cards given back), give the same plays and leave the
    same player to act; otherwise what differs."""
    hands = {p: sorted(world.hands[p] + [c for s, c in game.played if s == p]) for p in game.hand_players}
    for p in game.hand_players:
        if game.poker_shown[p] is not None and best_five(hands[p]) != game.poker_shown[p]:
            return f"P{p} would have shown {format_hand(best_five(hands[p]))}"
    stops = _stops_so_far(game)
    lead = stops[0][0] if stops else game.to_act
    twin = game.fork(np.random.default_rng(0))
    twin.set_stops({p: format_hand(h) for p, h in hands.items()}, dead=format_hand(sorted(world.dead)), lead=lead)
    for _actor, action in stops:
        try:
            twin.apply(action)
        except IllegalActionError as exc:
            return f"{action} is refused: {exc}"
    if twin.played[-len(stops):] != game.played[-len(stops):] if stops else False:
        return "the plays differ"
    if (twin.to_act, twin.need, twin.lead_colour) != (game.to_act, game.need, game.lead_colour):
        return "another player would act now"
    return ""


def _stops_positions(seeds, players):
    """Seeded games of default bots, at every decision of the stops (a copy of the game each time)."""
    for seed in seeds:
        for n in players:
            game, bots = new_table(find_variant("rummoli"), ["default"] * n, seed, 0)
            while not game.hand_over:
                if game.phase == "stops" and game.poker_how == "showdown":
                    yield game.fork(np.random.default_rng(0))
                game.apply(bots[game.to_act].choose(game.view(game.to_act)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_world_in_the_stops_replays_as_the_real_deal_did(players):
    checked = 0
    for i, game in enumerate(_stops_positions(range(6), [players])):
        for seat in game.hand_players:
            world = game.sample_world(seat, np.random.default_rng(i * 10 + seat))
            assert world.world_tries > 0, "no world agreeing with the showdown was found"
            assert world.hands[seat] == game.hands[seat] and world.played == game.played
            assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
            assert replays_the_same(game, world) == ""
            world.check_invariants()
            checked += 1
    assert checked > 50


def test_a_world_depends_only_on_what_the_seat_sees():
    """Two games that differ only in where the seat's hidden cards lie give the same world."""
    game = next(g for i, g in enumerate(_stops_positions([3], [3])) if i == 4)
    seat = game.to_act
    twin = game.fork(np.random.default_rng(1))
    for _ in range(3):  # deal the hidden cards again, as any world might: the real cards differ now
        twin = twin.sample_world(seat, np.random.default_rng(7))
    assert twin.hands != game.hands
    a = game.sample_world(seat, np.random.default_rng(5))
    b = twin.sample_world(seat, np.random.default_rng(5))
    assert a.hands == b.hands and a.dead == b.dead


def test_the_worlds_reach_every_deal_the_play_allows_and_no_other():
    """Brute force on a small arranged stops: every way to deal the hidden cards is replayed; the worlds
    drawn are exactly the deals that replay the same."""
    game = RummoliGame.new(n_players=3, seed=2)
    game.set_stops({0: "2c 5c 9h 3d", 1: "3c 4c Kd 6h", 2: "6c 7s Ah 4d"}, dead="7c 8c", lead=0)
    for card in parse_hand("2c 3c 4c 5c 6c"):  # the run stops at 6c: 7c is not in a hand
        game.apply(Play(card))
    seat = 0
    hidden = sorted(game.hands[1] + game.hands[2] + game.dead)
    sizes = (len(game.hands[1]), len(game.hands[2]))
    allowed = set()
    for one in combinations(hidden, sizes[0]):
        rest = [c for c in hidden if c not in one]
        for two in combinations(rest, sizes[1]):
            world = game.fork(np.random.default_rng(0))
            world.hands[1], world.hands[2] = sorted(one), sorted(two)
            world.dead = sorted(c for c in rest if c not in two)
            if replays_the_same(game, world) == "":
                allowed.add((tuple(world.hands[1]), tuple(world.hands[2])))
    drawn = set()
    for i in range(400):
        world = game.sample_world(seat, np.random.default_rng(i))
        drawn.add((tuple(sorted(world.hands[1])), tuple(sorted(world.hands[2]))))
    assert len(allowed) >= 3 and drawn == allowed
