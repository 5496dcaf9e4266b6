"""Rommé's careful bot (rumino.variants.romme.bots.careful_choice): the best player's own moves in Rommé.

Its three rules on set positions, against what greedy does there; its hands against itself always end (an
earlier draft passed cheap cards back and forth for ever); the best player keeps its moves and rolls out with
it, the plain search keeps greedy's; and a small seeded match shows it ahead of greedy."""

from __future__ import annotations

from rumino.cards import format_card, parse_card
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard
from rumino.engine.protocol import play
from rumino.players import GreedyPlayer
from rumino.players.search import SearchPlayer, best_player
from rumino.stats import wilson_interval
from rumino.variants.romme import ROMME, RommeGame
from rumino.variants.romme.bots import CarefulRommePlayer, careful_choice, careful_discard, neighbours

CAREFUL = CarefulRommePlayer()
GREEDY = GreedyPlayer()


def dealer_turn(*, hand, table=(), opened=None):
    """Seat 0 (the dealer, 14 cards under dealer14) to discard, with the position set."""
    g = RommeGame.new(ROMME, 2, seed=1, dealer=0)
    g.set_position(hands={0: hand}, table=table, opened=opened or {})
    assert g.phase == "discard" and g.turn == 0
    return g


def to_draw(*, hand1, top, table=(), opened=None):
    """Seat 1 to draw, with ``top`` just discarded by the dealer."""
    g = RommeGame.new(ROMME, 2, seed=5, dealer=0)
    g.set_position(hands={0: f"{top} 2c 2d", 1: hand1}, table=table, opened=opened or {})
    g.apply(Discard(parse_card(top)))
    assert g.phase == "turn" and g.turn == 1
    return g


def test_it_throws_the_loose_card_with_fewest_neighbours():
    # the run 4h-6h is kept; of the loose cards the kings have each other, the 9d, 3c and 2s nobody:
    # greedy sheds a king (the dearest), the careful bot the dearest card without neighbours, the 9d
    g = dealer_turn(hand="4h 5h 6h Ks Kc 9d 3c 2s")
    view = g.view(0)
    assert format_card(GREEDY.choose(view).card) in ("Ks", "Kc")
    assert format_card(careful_discard(view).card) == "9d"
    assert [neighbours(parse_card(c), view.hand) for c in ("Ks", "9d", "4h")] == [1, 0, 1.5]


def test_it_never_feeds_an_opened_opponents_lay_off_while_another_card_is_left():
    hand = "4h 5h 6h 7s 2c 3c Kd Kh"
    alone = dealer_turn(hand=hand)
    assert format_card(careful_discard(alone.view(0)).card) == "7s"  # no neighbour: the first to go
    fed = dealer_turn(hand=hand, table=["7c 7d 7h"], opened={1: True})
    card = format_card(careful_discard(fed.view(0)).card)
    assert card != "7s" and card in ("Kd", "Kh")  # the 7s would go on the opponent's sevens


def test_once_open_it_never_takes_a_card_only_to_lower_the_penalty():
    g = to_draw(hand1="Kd Qs 8c 9h", top="2h", table=["7c 7d 7h"], opened={1: True})
    view = g.view(1)
    assert GREEDY.choose(view) == DRAW_DISCARD  # the 2h for the Kd: 10 points less in hand
    assert careful_choice(CAREFUL, view) == DRAW_STOCK


def test_before_opening_it_takes_a_card_that_completes_a_meld():
    g = to_draw(hand1="4h 5h Kd Qs 9c 2s", top="6h")  # 4h-6h: 15 points, short of the 40 to open
    view = g.view(1)
    assert GREEDY.choose(view) == DRAW_STOCK  # greedy takes it only to open at once
    assert careful_choice(CAREFUL, view) == DRAW_DISCARD
    g.apply(DRAW_DISCARD)
    after = careful_choice(CAREFUL, g.view(1))
    assert isinstance(after, Discard) and format_card(after.card) not in ("4h", "5h", "6h")


def test_its_hands_against_itself_always_end():
    """Two careful bots: every hand ends, none near the 20,000 actions a rollout allows."""
    longest = 0
    for seed in range(60):
        g = RommeGame.new(ROMME, 2, seed=seed)
        play(g, [CAREFUL, CAREFUL], checked=False, until=lambda x: x.hand_over, max_actions=2000)
        longest = max(longest, len(g.history))
    assert longest < 400, longest


def test_the_best_player_keeps_its_moves_and_the_plain_search_greedys():
    assert isinstance(best_player(seed=1).policy(RommeGame), CarefulRommePlayer)
    assert type(SearchPlayer(15, seed=1).policy(RommeGame)) is GreedyPlayer


def test_a_seeded_match_shows_it_ahead_of_greedy():
    """200 deals played twice (400 hands, seed 37100): the careful bot's share of hands, its Wilson interval
    above one half (three runs of 2,000 hands measured 56–66%)."""
    won = 0.0
    hands = 0
    for i in range(200):
        for seat in (0, 1):
            g = RommeGame.new(ROMME, 2, seed=[37100, i], dealer=1)
            players = [GREEDY, GREEDY]
            players[seat] = CAREFUL
            before = list(g.scores)
            play(g, players, checked=False, until=lambda x: x.hand_over, max_actions=2000)
            gains = [a - b for a, b in zip(g.scores, before)]
            won += 1.0 if gains[seat] > gains[1 - seat] else 0.5 if gains[seat] == gains[1 - seat] else 0.0
            hands += 1
    lo, _hi = wilson_interval(won, hands)
    assert lo > 0.5, (won, hands, lo)


def test_the_best_player_plays_the_careful_move_where_its_budget_cannot_search():
    """Rommé's best budget (15 playouts) leaves fewer worlds a move than the search needs to leave its
    policy: the best player's move is the careful bot's, with no playout spent, and the coach says why."""
    from rumino.players.search import MIN_WORLDS_TO_LEAVE
    best = best_player(seed=3)
    g = RommeGame.new(ROMME, 2, seed=4)
    played, reasons = 0, []
    while not g.hand_over and played < 40:
        view = g.view(g.to_act)
        if g.to_act == 0:
            action = best.choose(view)
            assert action == CAREFUL.choose(view)
            assert best.last.simulations == 0
            reasons.append(best.last.reason)
            played += 1
        else:
            action = GREEDY.choose(view)
        g.apply(action)
    assert played > 5 and 15 // 2 < MIN_WORLDS_TO_LEAVE
    assert any("too few playouts" in r for r in reasons), reasons
