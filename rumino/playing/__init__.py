"""Games being played: seating bots at a table, the game loop's runs, simulations, records and positions.

* :mod:`~rumino.playing.seeding` — a seeded table of bots for any registered game;
* :mod:`~rumino.playing.simulation` — many seeded games of any game, tallied as its Variant says (win rates, or chips and sections), with intervals;
* :mod:`~rumino.playing.records` — a game as a replayable JSON record;
* :mod:`~rumino.playing.bot_odds` — odds measured from bots playing real hands;
* :mod:`~rumino.playing.optimal_play` — the optimal tables played at a real table.

The folder is ``playing`` rather than ``play`` because :func:`rumino.play` is the game loop itself.
"""
