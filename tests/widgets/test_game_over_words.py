"""The end of a game in a player's words, as a table shows it: who won, how, and the final numbers in the
game's units, pinned word for word for one seeded game of every playable variant (the reader's seat 0, and
seat 1 of a three-player table). The words are the result's own (``GameResult.summary``), which the terminal
prints too (docs/transcripts/), so the two can no longer say the end differently."""

from __future__ import annotations

import pytest

from rumino.engine import play
from rumino.playing.seeding import new_table
from rumino.variants import VARIANTS
from rumino_widgets.game_table import GameTableController
from rumino_widgets.rummoli_table import RummoliTableController

WORDS = {
    ("rumino", 1, 2): (['Game over after 10 hands: you win as the last player in and take the pool, $20.',
                        'final scores (low is good): you 94 · seat 1 123'], {'scores': [94, 123]}),
    ("rumino", 3, 3): (['Game over after 10 hands: seat 2 wins as the last player in and takes the pool, $50.',
                        'final scores (low is good): seat 0 106 · you 116 · seat 2 78'], {'scores': [106, 116, 78]}),
    ("gin", 3, 2): (['Game over after 15 hands: seat 1 wins the game, first to 100 points.',
                     'final points: you 85 · seat 1 106',
                     'final totals with the game bonus (100) and 25 a box (rules §6): you 260 · seat 1 406'],
                    {'points': [85, 106], 'totals': [260, 406]}),
    ("knock-rummy", 3, 3): (['Game over after 5 hands: you win the game with 129 points (the game is to 100).',
                             'final points: seat 0 91 · you 129 · seat 2 20'], {'points': [91, 129, 20]}),
    ("wiener", 2, 2): (['Game over after 15 hands: you win as the last player in and take the pot, 20 chips.',
                        'final scores (low is good): you 90 · seat 1 114'], {'scores': [90, 114]}),
    ("romme", 3, 3): (['Game over after 3 hands: seat 0 wins with the best total, -28 (the deals are played out).',
                       'final totals: seat 0 -28 · you -39 · seat 2 -30'], {'totals': [-28, -39, -30]}),
    ("robber", 1, 2): (['Game over after 1 hand: seat 1 wins, having gone out.',
                        'penalties left in hand: you 16 · seat 1 0'], {'penalties': [16, 0]}),
    ("rummoli", 2, 3): (['Game over after 3 deals: seat 2 wins with the most chips, 108.',
                         'final chips: seat 0 90 · you 102 · seat 2 108',
                         'the final sweep: 12 chips were left on the sheet, and the highest card of a cut takes them, ace high '
                         '(rules §2.6): seat 0 5♠, you 6♥, seat 2 4♠ — you take them'], {'chips': [90, 102, 108]}),
}


@pytest.mark.parametrize("case", list(WORDS), ids=[f"{k}-{s}-{n}" for k, s, n in WORDS])
def test_the_table_says_the_end_of_the_game_in_these_words(case):
    key, seed, n = case
    v = VARIANTS[key]
    game, bots = new_table(v, [v.bot] * n, seed, 0)
    play(game, bots)
    if key == "rummoli":
        table = RummoliTableController(",".join(["default"] * (n - 1)), seed=seed)
    else:
        table = GameTableController(",".join([v.bot] * (n - 1)), seed=seed, variant=key)
    table.game, table.human = game, (0 if n == 2 else 1)  # the finished bot game, read from the reader's seat
    assert (table.game_over_lines(), table.final_scores()) == WORDS[case]
