"""Tournaments between players, ratings with intervals, and how much of a game is luck.

``rumino tournament`` (the command) and :func:`tournament` (Python) play every pair
heads-up on the same seeded deals, each deal twice with the seats swapped, or a whole
table with the seats rotated; :class:`Tournament` reads the win rates, Elo ratings
(Bradley–Terry, Plackett–Luce), and the luck figures from the hands.

>>> t = tournament("rumino", ["greedy", "random"], deals=4, seed=2)
>>> t.hands_between(0, 1), sorted(t.as_json()["ratings_elo"])
(8, ['greedy', 'random'])
"""

from rumino.tournament.hands import HandOutcome, play_hand, rank_seats
from rumino.tournament.ratings import bradley_terry, elo, games_for_match, plackett_luce, win_chance
from rumino.tournament.run import Tournament, tournament

__all__ = ["HandOutcome", "Tournament", "bradley_terry", "elo", "games_for_match", "plackett_luce",
           "play_hand", "rank_seats", "tournament", "win_chance"]
