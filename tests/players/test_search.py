"""The search player and the worlds it searches: no hidden card leaks, forks are independent, replays are exact.

A world (``view.sample_world``) must depend only on what the seat sees; the
strongest form of that is checked here: two games that differ only in where the
hidden cards lie give the same world for the same generator.
"""

from __future__ import annotations

import rumino.players.search as search_module

import numpy as np
import pytest

from rumino.engine.protocol import play
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, RandomPlayer, SearchPlayer, UnknownPlayerError, make_player, make_players
from rumino.players.search import hand_value
from rumino.playing.seeding import new_table
from rumino.tournament import tournament
from rumino.variants import find_variant

SEARCHED = ["rumino", "gin", "wiener", "knock-rummy", "romme"]
WORLD_GAMES = SEARCHED + ["robber"]  # every draw-and-discard game samples worlds, Robber too


def _midhand(variant: str, seed: int, steps: int):
    """A seeded position up to ``steps`` random actions into the first hand (never past its end)."""
    game, _ = new_table(find_variant(variant), ["greedy", "greedy"], seed, 0, dealer=1)
    chooser = RandomPlayer(seed=seed)
    for _ in range(steps):
        action = chooser.choose(game.view(game.to_act))
        trial = game.fork(np.random.default_rng(0))
        trial.apply(action)
        if trial.hand_over:
            break
        game.apply(action)
    return game


def _swap_hidden(game, seat: int) -> bool:
    """Swap one card of another seat's hand with a different card of the stock; False if none differ."""
    other = next(s for s in range(game.n_seats) if s != seat and game.hands[s])
    hand, stock = game.hands[other], game.stock
    for i, c in enumerate(hand):
        for j, d in enumerate(stock):
            if c != d:
                hand[i], stock[j] = d, c
                return True
    return False


@pytest.mark.parametrize("variant", WORLD_GAMES)
def test_a_world_depends_only_on_what_the_seat_sees(variant):
    for seed in range(4):
        game = _midhand(variant, seed, steps=3 + 2 * seed)
        seat = game.to_act
        world = game.view(seat).sample_world(np.random.default_rng(11))
        other = _midhand(variant, seed, steps=3 + 2 * seed)
        assert other.snapshot() == game.snapshot()
        assert _swap_hidden(other, seat)
        assert other.snapshot() != game.snapshot()
        twin = other.view(seat).sample_world(np.random.default_rng(11))
        assert (twin.hands, twin.stock) == (world.hands, world.stock)


@pytest.mark.parametrize("variant", WORLD_GAMES)
def test_a_world_keeps_everything_the_seat_sees_and_every_card_once(variant):
    for seed in range(3):
        game = _midhand(variant, seed, steps=4)
        seat = game.to_act
        before = game.snapshot()
        worlds = [game.sample_world(seat, np.random.default_rng(k)) for k in range(5)]
        assert game.snapshot() == before  # sampling changes nothing in the game
        for world in worlds:
            world.check_invariants(deep=True)
            assert world.hands[seat] == game.hands[seat]
            assert world.discard == game.discard and world.scores == game.scores
            assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
            assert len(world.stock) == len(game.stock)
            seen, shown = world.view(seat), game.view(seat)
            for name in ("hand", "discard_pile", "stock_size", "hand_sizes", "scores", "phase", "to_act"):
                assert getattr(seen, name) == getattr(shown, name), name
        hidden = {tuple(tuple(h) for s, h in enumerate(w.hands) if s != seat) + (tuple(w.stock),) for w in worlds}
        assert len(hidden) > 1  # the hidden cards really are dealt anew


@pytest.mark.parametrize("variant", SEARCHED)
def test_playing_a_fork_to_the_end_leaves_the_game_as_it_was(variant):
    game = _midhand(variant, 5, steps=2)
    before = game.snapshot()
    fork = game.fork(np.random.default_rng(3))
    play(fork, [GreedyPlayer(), GreedyPlayer()], until=lambda g: g.hand_over)
    assert fork.hand_over and not game.hand_over
    assert game.snapshot() == before
    game.check_invariants(deep=True)


def test_a_stale_view_samples_no_world():
    game = _midhand("gin", 1, steps=1)
    view = game.view(game.to_act)
    game.apply(GreedyPlayer().choose(view))
    with pytest.raises(IllegalActionError, match="out of date"):
        view.sample_world(np.random.default_rng(0))


@pytest.mark.parametrize("variant", ["gin", "knock-rummy", "romme"])
def test_a_seeded_search_replays_exactly_and_every_move_is_legal(variant):
    def run():
        game, players = new_table(find_variant(variant), ["search:12", "greedy"], 3, 0, dealer=1)
        play(game, players, checked=True, until=lambda g: g.hand_over,
             after=lambda g, seat, action: g.check_invariants(deep=False))
        return game.history, players[0]

    first, searcher = run()
    second, _ = run()
    assert first == second
    assert searcher.decisions > 0 and searcher.spent <= 12 * searcher.decisions


def test_a_forced_decision_spends_nothing():
    game = _midhand("gin", 2, steps=0)
    searcher = SearchPlayer(50, seed=0)
    for _ in range(40):  # play until a position with one legal action comes to the searcher
        legal = game.legal_actions()
        view = game.view(game.to_act)
        action = searcher.choose(view)
        if len(legal) == 1:
            assert searcher.last.forced and searcher.last.simulations == 0
            assert action == legal[0]
            break
        assert action in legal
        game.apply(action)
        if game.hand_over:
            break
    else:
        pytest.fail("no forced decision came up")


def test_candidates_put_greedys_move_first_and_keep_the_best_discards():
    game = _midhand("gin", 4, steps=0)
    while game.phase != "discard":
        game.apply(GreedyPlayer().choose(game.view(game.to_act)))
    view = game.view(game.to_act)
    searcher = SearchPlayer(10, width=2, seed=0)
    cands = searcher.candidates(view, view.legal_actions)
    assert cands[0] == GreedyPlayer().choose(view)
    assert set(cands) <= set(view.legal_actions)
    assert len({getattr(a, "card", None) for a in cands if type(a).__name__ == "Discard"}) <= 2


def test_the_search_spec_and_the_games_it_plays():
    assert make_player("search:30", seed=1).simulations == 30
    assert make_player("search").name == "search"
    assert make_player("search").budget_for(find_variant("gin").game) == 200
    assert make_player("search").budget_for(find_variant("romme").game) == 100  # a Rommé rollout is long
    assert make_player("search:30").budget_for(find_variant("romme").game) == 30
    with pytest.raises(UnknownPlayerError, match="from 1 to 1,000,000"):
        make_player("search:0")
    for variant in SEARCHED:
        assert SearchPlayer.fits(find_variant(variant).game)
    assert make_player("search").budget_for(find_variant("robber").game) == 8
    assert make_players("search,greedy", game=find_variant("robber").game)
    with pytest.raises(UnknownPlayerError, match="does not fit"):
        make_players("search,greedy", game=find_variant("rummoli").game)  # Rummoli's bot is default, not greedy
    assert SearchPlayer.fits(find_variant("rummoli").game)  # with its default bot as the rollout policy
    assert make_players("search,default,default,default", game=find_variant("rummoli").game)


def _rummoli_decisions(order, seed):
    """Play one Rummoli deal with a seeded search among default bots; the search's decisions, in order."""
    from rumino.playing.seeding import new_table

    game, players = new_table(find_variant("rummoli"), order, seed, 0)
    me = order.index("search:24")
    seen = []
    while not game.hand_over:
        seat = game.to_act
        action = players[seat].choose(game.view(seat))
        if seat == me:
            last = players[me].last
            seen.append((game.phase, str(action), last.forced, last.reason, tuple(
                (str(a), share, n) for a, share, n in last.values)))
        game.check_invariants()
        game.apply(action)
    return seen


def test_the_search_plays_every_rummoli_decision_with_a_choice():
    """Rummoli's widow, bids and the leads of the stops are searched (the default bot's move among the
    candidates, a bid's amounts evenly spaced); a lead of the stops is searched on worlds that agree with
    the showdown (tests/games/rummoli/test_rummoli_worlds.py). A seeded search replays exactly."""
    searched = []
    for seed in range(3):
        for order in (["default", "search:24"], ["search:24", "default"]):
            run = _rummoli_decisions(order, seed)
            assert run == _rummoli_decisions(order, seed)
            searched += [d for d in run if not d[2]]
            assert all(d[3] in ("the only legal action", "the only move worth trying") for d in run if d[2])
    assert {d[0] for d in searched} <= {"widow", "auction", "betting", "stops", "claim"}
    assert "stops" in {d[0] for d in searched}, "some lead of the stops had a choice, and it was searched"
    for phase, action, _forced, _why, values in searched:
        assert action in [a for a, _, _ in values] and 2 <= len(values) <= search_module.MAX_CANDIDATES
        assert all(0 <= share <= 1 and n >= 1 for _, share, n in values)


def test_a_rummoli_world_keeps_what_the_seat_saw_and_deals_the_rest_again():
    import numpy as np
    from rumino.playing.seeding import new_table

    game, players = new_table(find_variant("rummoli"), ["default", "default", "default"], 4, 0)
    while game.phase in ("widow", "auction", "betting"):
        game.apply(players[game.to_act].choose(game.view(game.to_act)))
    for seat in range(3):
        world = game.sample_world(seat, np.random.default_rng(seat))
        assert world.hands[seat] == game.hands[seat] and world.played == game.played
        assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
        took = game.widow_to == seat
        assert (world.dead == game.dead) if took else sorted(world.dead + sum(
            (world.hands[s] for s in range(3) if s != seat), [])) == sorted(game.dead + sum(
            (game.hands[s] for s in range(3) if s != seat), []))
        world.check_invariants()


def test_hand_value_counts_hands_as_a_tournament_does():
    assert hand_value([10, -5, -5], 0) == pytest.approx(1 + 1e-4 * 15)
    assert hand_value([-5, 10, -5], 0) == pytest.approx(0.25 - 1e-4 * 7.5)
    assert hand_value([0, 0, 5], 2, seats=[0, 2]) == pytest.approx(1 + 5e-4)


def test_search_beats_greedy_at_knock_rummy_on_seeded_deals():
    """A small seeded match (the long matches are `rumino tournament` runs): the search wins more hands
    than greedy on the same 40 deals played twice, seats swapped."""
    t = tournament("knock-rummy", ["search:60", "greedy"], deals=40, seed=7)
    assert t.win_rate(0, 1).value > 0.5


def test_the_compiled_gin_rollouts_value_every_world_as_the_engine_rollout_does():
    """The batch route (all worlds of a candidate in one kernel call, valued at once) gives each world
    exactly the value the engine's rollout of the same world gives."""
    from rumino.variants.gin.playout import playouts, python_playout_ended, sample_worlds
    from rumino.players.search import MARGIN_WEIGHT, hand_outcome
    from rumino.variants import bots_of

    assert find_variant("gin").bots.batch_playouts[1] is playouts
    for seed in range(3):
        game = _midhand("gin", seed, steps=4)
        seat = game.to_act
        view = game.view(seat)
        searcher = SearchPlayer(20, seed=seed)
        cands = searcher.candidates(view, view.legal_actions)
        world = view.sample_world(np.random.default_rng(seed))
        rng_state = searcher.rng.bit_generator.state
        shares, values = searcher._batch(bots_of(type(world)).batch_playouts, world, cands, seat, 6)
        searcher.rng.bit_generator.state = rng_state
        known = [c for cards in world.known_held(seat).values() for c in cards]
        hands, stocks = sample_worlds(world, 6, searcher.rng, known=known)
        for w in range(6):
            one = world.fork(np.random.default_rng(0))
            one.hands = [[int(c) for c in hands[w, p] if c >= 0] for p in range(2)]
            one.stock = [int(c) for c in stocks[w]]
            one.after_hidden_dealt()
            for i, action in enumerate(cands):
                gains, by = python_playout_ended(one, action)
                share, margin = hand_outcome(list(gains), seat, by, world.hand_players)
                assert shares[w, i] == share and values[w, i] == pytest.approx(share + MARGIN_WEIGHT * margin)


def test_a_tournament_with_the_search_is_the_same_for_any_number_of_workers():
    one = tournament("gin", ["search:40", "greedy"], deals=4, seed=1, workers=1).as_json()
    two = tournament("gin", ["search:40", "greedy"], deals=4, seed=1, workers=2).as_json()
    assert one == two


def test_the_search_plays_robber_placements_and_the_draw_and_replays_exactly():
    """Robber's candidates: greedy's placement (the exact solver's), the menu's others and the draw; a forced
    turn spends nothing; a seeded search gives the same decisions again."""
    from rumino.playing.seeding import new_table

    def decisions():
        game, players = new_table(find_variant("robber"), ["search:4", "greedy"], 2, 0)
        seen = []
        for _ in range(60):
            if game.hand_over:
                break
            seat = game.to_act
            view = game.view(seat)
            action = players[seat].choose(view)
            if seat == 0:
                last = players[0].last
                seen.append((str(action), last.forced, last.simulations, len(view.legal_actions)))
                if not last.forced:
                    assert str(action) in [str(a) for a, _, _ in last.values]
                    assert any(str(a) == "draw stock" for a, _, _ in last.values)
            game.apply(action)
        return seen

    run = decisions()
    assert run == decisions()
    assert any(not forced for _, forced, _, _ in run), "no searched decision in 60 moves"
    assert all(spent == 0 for _, forced, spent, n in run if forced and n == 1)


def test_the_best_player_keeps_its_rule_where_its_budget_leaves_too_few_worlds():
    """Robber's best budget (8 playouts) is below MIN_WORLDS_TO_LEAVE worlds a move: the best player plays the
    exact solver's move (greedy's) unsearched; at Gin's budget it searches; a coach's search always weighs."""
    from rumino.players.search import MIN_WORLDS_TO_LEAVE, best_player
    from rumino.playing.seeding import new_table
    greedy = GreedyPlayer()
    for index in (0, 2):  # deals where the engine lists only the draw though the solver places (a search drew)
        game, _ = new_table("robber", ["greedy", "greedy"], 36004, index, dealer=1)
        best = best_player(seed=2)
        while not game.hand_over:
            view = game.view(game.to_act)
            action = best.choose(view) if game.to_act == 0 else greedy.choose(view)
            if game.to_act == 0:
                assert action == greedy.choose(view) and best.last.simulations == 0, str(action)
            game.apply(action)
    assert 8 < MIN_WORLDS_TO_LEAVE
    gin, _ = new_table("gin", ["greedy", "greedy"], 6, 0)
    searched = best_player(seed=2)
    searched.choose(gin.view(gin.to_act))
    assert searched.last.forced or searched.last.simulations > 0
    coach = best_player(seed=2, min_worlds=0)
    game, _ = new_table("robber", ["greedy", "greedy"], 6, 0)
    for _ in range(6):
        coach.choose(game.view(game.to_act))
        if not coach.last.forced:
            break
        game.apply(greedy.choose(game.view(game.to_act)))
    assert not coach.last.forced and coach.last.simulations > 0
