"""Simulated odds from real play: bots playing Rumino hands under any player count and house rules.

Where no exact answer is practical — opponents knock, go gin and claim
discards, so what one seat can hope for depends on everyone's play — the hands
are played out by bots (:mod:`rumino.players`) on the real state machine
(:class:`rumino.variants.rumino.RuminoGame`) and counted.

Each sample is the first hand of a fresh game. Seats are numbered in turn
order: seat 0 acts first (the dealer's left) and seat ``n − 1`` deals. The
clocks:

* a seat's **draws** count its draws from the stock or discard pile; taking a
  discard out of turn to claim a rumino counts as a draw too;
* **table turns** count every player's turns in the hand (a turn is a knock,
  or a draw and what follows); a seat's **own turns** count its turns only.

For each hand the simulation records how it ended, who ended it, and the
clocks at that moment, from which :class:`PlaySample` gives, with ``n``, the
seed and a Wilson 95% interval:

* ``p_rumino_within(N)`` — the seat makes a rumino within ``N`` of its own draws;
* ``p_knocked_on_within(N)`` — another player knocks within ``N`` turns;
* ``p_goes_out_by(t)`` — the seat ends the hand (knock, gin or rumino) by turn ``t``;
* ``p_hand_over_by(t)`` — anybody has ended it by turn ``t``.

Hand ``i`` of a run with seed ``s`` is the first hand of the game that the one
seeding scheme starts from ``(s, i)`` (:func:`rumino.playing.seeding.new_table`),
stepped by the one game loop (:func:`rumino.engine.protocol.play`); runs are cut
into fixed chunks (:func:`rumino.odds.montecarlo.run_chunks`), so any executor
gives the same numbers.

>>> s = simulate_play("greedy,greedy,greedy", hands=40, seed=3)
>>> e = s.p_hand_over_by(1); e.n, e.seed
(40, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rumino.engine.actions import Draw
from rumino.odds.draws import OddsArgumentError
from rumino.odds.montecarlo import OddsEstimate, proportion, run_chunks
from rumino.engine.protocol import play
from rumino.players import make_players
from rumino.playing.seeding import new_table
from rumino.variants import find_variant

RUMINO_VARIANT = find_variant("rumino")  # the game whose first hands these are (rules §1), read from its row
RUMINO, RuminoRules = RUMINO_VARIANT.rules, RUMINO_VARIANT.rules_class
MIN_PLAYERS, MAX_SEATS = RUMINO_VARIANT.players
ClaimRumino = RUMINO_VARIANT.game.ACTIONS.by_word["claim"]  # a claimed discard is taken like a draw

ENDING_CODES = {"knock": 0, "gin": 1, "rumino": 2, "stock_exhausted": 3}
CLOCKS = ("table", "own")
DEFAULT_CHUNK = 128


def _check_specs(players) -> list[str]:
    specs = [s.strip() for s in (players.split(",") if isinstance(players, str) else players)]
    if any(s.lower() == "human" for s in specs):
        raise OddsArgumentError("a simulation cannot wait for a human player: choose bots (random, greedy, "
                                "threshold:T, chaser:K).")
    make_players(specs, seed=0)  # validates every spec, with the players module's own message
    return specs


def _play_chunk(size: int, start: int, seed: int, rules, specs: list[str], seat: int,
                max_turns: int) -> np.ndarray:
    """Play the first hands of games ``start … start + size − 1``; one row per hand: ending,
    by (−1: nobody), table turns, own turns, own draws."""

    n = len(specs)
    out = np.zeros((size, 5), dtype=np.int64)
    for i in range(size):
        game, bots = new_table("rumino", specs, seed, start + i, rules=rules, dealer=n - 1)
        clock = [0, 0, 0]  # table turns, own turns, own draws

        def count(g, actor, action):
            if g.phase == "turn":
                clock[0] += 1
                if actor == seat:
                    clock[1] += 1
                if clock[0] > max_turns:
                    raise RuntimeError(f"a hand lasted more than {max_turns} turns: the bots {specs} never end it.")
            if actor == seat and isinstance(action, (Draw, ClaimRumino)):
                clock[2] += 1  # a claimed discard is taken like a draw

        play(game, bots, checked=False, before=count, until=lambda g: g.hand_over)
        r = game.results[-1]
        out[i] = (ENDING_CODES[r.ending], -1 if r.by is None else r.by, *clock)
    return out


@dataclass
class PlaySample:
    """The outcome of ``n`` simulated hands, seen from one seat, with estimates and intervals."""

    n: int
    seed: int
    players: list[str]
    seat: int
    rules: object
    rows: np.ndarray = field(repr=False)

    @property
    def ending(self) -> np.ndarray:
        return self.rows[:, 0]

    @property
    def by(self) -> np.ndarray:
        return self.rows[:, 1]

    def _clock(self, clock: str) -> np.ndarray:
        if clock not in CLOCKS:
            raise OddsArgumentError(f"clock is {clock!r}: it must be 'table' (every player's turns) or 'own'.")
        return self.rows[:, 2] if clock == "table" else self.rows[:, 3]

    def _p(self, mask: np.ndarray) -> OddsEstimate:
        return proportion(int(mask.sum()), self.n, self.seed)

    def p_rumino_within(self, draws: int) -> OddsEstimate:
        """P(the seat makes a rumino within ``draws`` of its own draws)."""
        return self._p((self.ending == 2) & (self.by == self.seat) & (self.rows[:, 4] <= draws))

    def p_knocked_on_within(self, turns: int, clock: str = "table") -> OddsEstimate:
        """P(another player knocks within ``turns`` turns of the hand)."""
        return self._p((self.ending == 0) & (self.by != self.seat) & (self.by >= 0) & (self._clock(clock) <= turns))

    def p_goes_out_by(self, turns: int, clock: str = "table") -> OddsEstimate:
        """P(the seat ends the hand — knock, gin or rumino — by turn ``turns``)."""
        return self._p((self.by == self.seat) & (self.ending <= 2) & (self._clock(clock) <= turns))

    def p_hand_over_by(self, turns: int, clock: str = "table") -> OddsEstimate:
        """P(someone has ended the hand by turn ``turns``)."""
        return self._p((self.ending <= 2) & (self.by >= 0) & (self._clock(clock) <= turns))

    def p_ending(self, ending: str, *, by_seat: bool = False) -> OddsEstimate:
        """P(the hand ends by ``ending`` — "knock", "gin", "rumino" or "stock_exhausted" — by anyone or by the seat."""
        if ending not in ENDING_CODES:
            raise OddsArgumentError(f"ending is {ending!r}: it must be one of {', '.join(ENDING_CODES)}.")
        mask = self.ending == ENDING_CODES[ending]
        return self._p(mask & (self.by == self.seat) if by_seat else mask)

    def curve(self, what: str, upto: int, clock: str = "table") -> list[tuple[int, OddsEstimate]]:
        """``[(N, estimate)]`` for ``N = 1 … upto`` of ``rumino_within``, ``knocked_on_within``,
        ``goes_out_by`` or ``hand_over_by``."""
        fns = {"rumino_within": lambda k: self.p_rumino_within(k),
               "knocked_on_within": lambda k: self.p_knocked_on_within(k, clock),
               "goes_out_by": lambda k: self.p_goes_out_by(k, clock),
               "hand_over_by": lambda k: self.p_hand_over_by(k, clock)}
        if what not in fns:
            raise OddsArgumentError(f"what is {what!r}: choose one of {', '.join(fns)}.")
        return [(k, fns[what](k)) for k in range(1, upto + 1)]


def simulate_play(players="greedy,greedy,greedy,greedy", hands: int = 1000, seed: int = 0, *, rules=None,
                  seat: int = 0, chunk: int = DEFAULT_CHUNK, executor=None, progress: bool = False,
                  max_turns: int = 100_000) -> PlaySample:
    """Play ``hands`` first hands of Rumino with the given bots (one spec per seat, in turn order).

    ``players`` is a comma-separated list or a list of specs (``random``,
    ``greedy``, ``threshold:T``, ``chaser:K``): its length is the player count.
    ``rules`` are house rules (a :class:`~rumino.variants.rumino.RuminoRules`,
    default the preset); ``seat`` is the seat the figures are about.
    """

    specs = _check_specs(players)
    if not MIN_PLAYERS <= len(specs) <= MAX_SEATS:
        raise OddsArgumentError(f"{len(specs)} player{'s' if len(specs) != 1 else ''} given: Rumino is for {MIN_PLAYERS} to {MAX_SEATS} (rules §1.1).")
    rules = rules or RUMINO
    if not isinstance(rules, RuminoRules):
        raise OddsArgumentError(f"rules must be a RuminoRules; got {type(rules).__name__}.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(specs):
        raise OddsArgumentError(f"seat is {seat!r}: it must be a seat from 0 to {len(specs) - 1} (0 acts first).")
    parts = run_chunks(_play_chunk, hands, seed, chunk=chunk, args=(seed, rules, specs, seat, max_turns),
                       executor=executor, progress=progress, desc="hands", indexed=True)
    return PlaySample(hands, seed, specs, seat, rules, np.vstack(parts))
