"""The search player: every real decision tried out on sampled worlds, the rest of the hand played by greedy.

This is *determinized flat Monte Carlo search* (perfect-information Monte Carlo
with rollouts), the classic way to search a card game with hidden cards:

1. the candidate moves are the legal actions worth trying (every draw, knock,
   pass or call; of the discards, the ``width`` that leave the least deadwood,
   so a search never spends its budget on shedding a meld's middle card);
2. a *world* is sampled from the player's view (:meth:`~rumino.engine.PlayerView.sample_world`):
   the cards the player cannot see — the other hands and the stock — are dealt
   again at random, everything the view shows stays as it is, and so do the cards
   the player saw another take face up and keep (:meth:`~rumino.engine.drawdiscard.DrawDiscardGame.known_held`);
   the world is made from open play alone, so the search can never read a hidden card;
3. every candidate is played on a fork of the same world (common random numbers:
   the candidates meet the same cards, so their difference is the move's, not
   the deal's), then the hand is played out to its end with
   :class:`~rumino.players.greedy.GreedyPlayer` in every seat (the *rollout*);
4. greedy's own move is played unless another beats it on the same worlds by more than
   ``confidence`` standard errors of the paired difference (:meth:`SearchPlayer.pick`): with a
   few hundred rollouts the best mean is often luck, and following luck would play worse than greedy.

Rummoli is searched with its own default bot in place of greedy (its rollout policy, ``Variant.bots.rollout``): the widow,
the bids, the betting and the leads of the stops; in the stops a world must agree with the showdown and
the play so far (:meth:`rumino.variants.rummoli.RummoliGame.sample_world`). Robber Rummy's
candidates are the placements its menu lists, greedy's own (the exact solver's) and the draw; a rollout
there calls the solver on every turn, so its default budget is small (``Variant.bots.search_budget``).

At Gin the rollouts run compiled (:mod:`rumino.variants.gin.playout`, exact against the engine's), and
so do Oklahoma Gin's (the same kernel at the hand's own limit, :mod:`rumino.variants.oklahoma.playout`) and
heads-up Rumino's and Wiener's (:mod:`rumino.variants.rumino.playout`,
:mod:`rumino.variants.wiener.playout`; ``Variant.bots.batch_playouts``): every candidate on the same redealt
worlds in one kernel call.

What a game does differently is read from its folder through its row of the registry, by the game's
class and its parents (:func:`rumino.variants.bots_of`), never by its name.

With ``model=True`` (the best player, :func:`best_player`) the worlds are weighed by the other players'
open play (:mod:`rumino.players.opponent_model`): ``oversample`` times as many are dealt, each weighed by
how well its hands explain what the table saw (the cards each player let go do not meld with his hand,
the cards he took do, his last discard was his dearest loose card, he has not knocked), and the worlds
searched are drawn in proportion to those weights. The hands kept are the coach's guess of what each
player holds (:attr:`Decision.guess`, :func:`rumino.players.coach.explain`).

A hand's outcome for the searching seat is how it ranks: 1 for beating every
other seat, ½ for a tie, 0 for losing, averaged over the other seats (as a
tournament counts hands, :mod:`rumino.tournament.hands`), plus a small share of
the points margin so that, of two moves that win equally often, the one that
wins by more is preferred. Because every rollout starts by following the move
and then plays greedy, the search is at worst as good as greedy in the limit of
many worlds (a *rollout improvement* of greedy's policy); its weakness is the
same as every determinized search's: it assumes it will learn the hidden cards
(strategy fusion), so it undervalues keeping the opponent guessing.

The budget is ``simulations``: rollouts per decision, shared among the
candidates. The worlds come from the player's own seeded generator, so a game
replays exactly. A decision with one legal action, or none worth a search (the
deal, a rebuy between hands: decisions outside the hand are greedy's), spends
nothing; :attr:`SearchPlayer.last` says what the last decision did.

>>> from rumino.variants.gin import GinGame
>>> from rumino.players import GreedyPlayer
>>> from rumino.engine import play
>>> g = GinGame.new(seed=2)
>>> s = SearchPlayer(24, seed=1)
>>> g = play(g, [s, GreedyPlayer()], until=lambda g: g.hand_over)
>>> s.last.simulations <= 24 and s.decisions > 0
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from rumino.engine.actions import Discard, Knock, KnockWith
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import DrawDiscardGame
from rumino.engine.protocol import Action, PlayerView, play
from rumino.errors import IllegalActionError
from rumino.players.base import Player
from rumino.players.greedy import GreedyPlayer
from rumino.players.opponent_model import Habits, hand_weights, read_open_play, resample
from rumino.engine.scoring import hand_ender, rank_seats
from rumino.variants import bots_of

DEFAULT_SIMULATIONS = 200
"""Rollouts per decision when the spec gives none (``search`` = ``search:200``), but in a game whose folder
sets its own (``Variant.bots.search_budget``: Rommé 100, Robber Rummy 8, where 200 rollouts would take more
than a second a decision)."""


def best_player(*, seed: int | Sequence[int] | None = None, rng: np.random.Generator | None = None,
                name: str = "best", min_worlds: int | None = None) -> "SearchPlayer":
    """The strongest player of every game (the spec ``best``): the search with the opponent model
    (:mod:`rumino.players.opponent_model`) at each game's own budget for it (``Variant.bots.best_budget``:
    its strength target's, about 0.1 s a decision or less; bench/bench_search.py times them). Where that budget
    leaves fewer than :data:`MIN_WORLDS_TO_LEAVE` worlds a candidate (German Rommé, Robber Rummy), it plays its
    policy's move: Rommé's careful bot, Robber's exact solver. ``min_worlds=0``: a coach's best player, which
    weighs the moves whatever its budget (showing the weights is its job)."""
    return SearchPlayer(None, seed=seed, rng=rng, name=name, model=True, best_budget=True,
                        min_worlds=MIN_WORLDS_TO_LEAVE if min_worlds is None else min_worlds)


MARGIN_WEIGHT = 1e-4
"""The share of a hand's points margin in a rollout's value: it only orders moves that win equally often."""

MAX_ROLLOUT_ACTIONS = 20_000  # a greedy hand lasts tens of actions; this only stops a runaway rollout


MIN_WORLDS_TO_LEAVE = 10
"""The fewest worlds a candidate the best player searches at all (its game's ``best_budget`` shared among the
candidates); below it the best player plays its policy's move. With a handful of worlds a paired difference's
standard error is itself noise, so "better by more than one standard error" is met by chance: Rommé's best
player at 15 playouts a decision (about 2 worlds a candidate) won 55.8% of 1,100 hands against greedy where
its policy alone, the careful bot, won 63-66%; Robber's (8 playouts) 48.5% [44.5, 52.5]; and Oklahoma's
at 100 playouts on the engine lost to greedy, 47.3% [45.1, 49.5]. Rummoli's (200 playouts, at least 25
worlds a candidate) beats its default bot, 54.1% [51.9, 56.2]."""

MAX_CANDIDATES = 8
"""At most this many moves a search tries (the policy's own among them): a Rummoli bid has dozens of amounts,
of which evenly spaced ones are tried."""


@dataclass
class Decision:
    """What the search player did at its last decision: ``forced`` (one legal action, or a decision
    outside the hand, played as greedy plays it), the candidates with the share of the hands they won
    in the rollouts (a tie counting ½: the estimated chance of winning the hand) and their number of rollouts, the ``simulations`` spent, and the action chosen."""

    action: Action
    forced: bool
    reason: str = ""
    simulations: int = 0
    values: list = field(default_factory=list)  # (action, share of hands won, rollouts), the chosen first
    guess: dict = field(default_factory=dict)  # {seat: its hands in the worlds searched, rows of card ids} (model)


class SearchPlayer(Player):
    """Determinized flat Monte Carlo search with greedy rollouts (see the module docstring).

    ``simulations``: rollouts per decision (at least 1; None, the spec ``search``: the game's default,
    :meth:`budget_for`); ``width``: how many of the best discards are
    candidates; ``confidence``: how many standard errors a move must beat greedy's by (:meth:`pick`); ``seed``/``rng``: where the worlds come from (a seeded player replays exactly);
    ``moves``: ``moves(view)``, the moves to weigh in place of the legal actions (the terminal's coach weighs the
    moves its menu offers: Robber's lay-offs, Wiener's list without the never-better knock).
    """

    kind = "search"

    def __init__(self, simulations: int | None = None, *, width: int = 4, confidence: float = 1.0,
                 seed: int | Sequence[int] | None = None, rng: np.random.Generator | None = None,
                 name: str | None = None, model: bool = False, oversample: int = 3,
                 habits: Habits = Habits(), best_budget: bool = False, plain_opponents: bool = False,
                 margin_weight: float = MARGIN_WEIGHT, moves: Callable[[PlayerView], list] | None = None,
                 min_worlds: int = 0):
        if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                        or not 1 <= simulations <= 1_000_000):
            raise ValueError(f"simulations is {simulations!r}: a search needs 1 to 1,000,000 rollouts a decision.")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"width is {width!r}: at least one discard must be a candidate.")
        if isinstance(min_worlds, bool) or not isinstance(min_worlds, int) or min_worlds < 0:
            raise ValueError(f"min_worlds is {min_worlds!r}: the fewest worlds a move is a whole number, 0 or more.")
        super().__init__(name or (f"search:{simulations}" if simulations is not None else "search"))
        self.simulations = simulations  # None: the game's default (budget_for)
        self.best_budget = best_budget  # no budget given: the game's best player's (Variant.bots.best_budget)
        # fewer worlds a candidate than this: play the policy's move unsearched (the best player's
        # MIN_WORLDS_TO_LEAVE; 0 for every other search, and for the coaches, whose job is to show the weights)
        self.min_worlds = min_worlds
        self.width = width
        self.confidence = confidence
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.greedy = GreedyPlayer()
        self._policies: dict[type, Player] = {}  # a game's own rollout bot (Variant.bots.rollout), made once
        self.model = model  # weigh the worlds by the opponents' open play (rumino.players.opponent_model)
        self.oversample = oversample  # worlds drawn for each one kept, when weighing
        self.habits = habits  # how much a hand that breaks a plain player's habit is discounted
        self.plain_opponents = plain_opponents  # rollouts play the opponent as a plain player (bots.plain_rollouts)
        self.margin_weight = margin_weight  # the points margin's share in a rollout's value
        self.moves = moves  # moves(view): the moves to weigh in place of the view's legal actions (the coach's menu)
        self.last: Decision | None = None
        self._guess: dict | None = None
        self.decisions = 0  # decisions searched (forced ones not counted)
        self.spent = 0  # rollouts in all

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """The draw-and-discard games greedy plays, and the games with a rollout policy of their own
        (``Variant.bots.rollout``: Rummoli)."""
        if bots_of(game).rollout is not None:
            return True
        return issubclass(game, DrawDiscardGame) and GreedyPlayer.fits(game)

    def policy(self, game: type[TurnGame]) -> Player:
        """The bot whose move the search keeps unless another beats it, and that plays every rollout:
        greedy, or the game's own (``Variant.bots.rollout``); the best player's, where the game tunes one
        (``Variant.bots.best_policy``: Rommé's and Wiener's careful bots; Wiener's compiled playouts stay greedy)."""
        bots = bots_of(game)
        if self.best_budget and bots.best_policy is not None:
            if game not in self._policies:
                self._policies[game] = bots.best_policy()
            return self._policies[game]
        make = bots.rollout
        if make is None:
            return self.greedy
        if game not in self._policies:
            # its own stream, drawn from the search's: a seeded search replays exactly
            self._policies[game] = make(np.random.default_rng(int(self.rng.integers(2**63))))
        return self._policies[game]

    # ------------------------------------------------------------------ the decision

    def choose(self, view: PlayerView) -> Action:
        self._view = view
        legal = view.legal_actions if self.moves is None else self.moves(view)
        game = view.game_type
        policy = self.policy(game)
        if len(legal) <= 1:
            # the policy's move: where the engine's list is not every legal move (Robber lists only the draw
            # when its menu finds no placement, though the exact solver may find one), it is not legal[0]
            action = legal[0] if legal and self.moves is not None else policy.choose(view)
            self.last = Decision(action, True, "the only legal action" if legal and action == legal[0]
                                 else f"the only move listed, and {policy.name}'s")
            return action
        win = getattr(view, "win_now", None)
        if win is not None and win in legal:  # a move that wins at once (Rumino's call or claim): nothing to weigh
            self.last = Decision(win, True, "it wins at once")
            return win
        first = view.sample_world(self._world_rng())
        if first.hand_over:  # the deal, a rebuy: not a move inside a hand, so nothing to roll out
            action = policy.choose(view)
            self.last = Decision(action, True, f"a decision between hands: {policy.name}'s")
            return action
        candidates = self.candidates(view, legal)
        if len(candidates) == 1:
            self.last = Decision(candidates[0], True, "the only move worth trying")
            return candidates[0]
        worlds = max(1, self.budget_for(type(first)) // len(candidates))
        if worlds < self.min_worlds:
            # a handful of worlds cannot tell the moves apart, and following them plays worse than the policy
            self.last = Decision(candidates[0], True, "its budget leaves too few playouts a move to tell the "
                                                      f"moves apart, so it plays {policy.name}'s move")
            return candidates[0]
        bots = bots_of(type(first))
        batch = bots.batch_playouts
        plays = self._open_plays(view, first) if self.model else []
        self._guess = None
        if batch is not None and batch[0] is not None and first.to_act == view.seat and len(first.hands) == 2:
            shares, values = self._batch(batch, first, candidates, view.seat, worlds, plays, bots.plain_rollouts,
                                         policy)
            return self._decide(candidates, shares, values)
        values = np.full((worlds, len(candidates)), np.nan)
        shares = np.full((worlds, len(candidates)), np.nan)  # the hands won alone (what the coach shows)
        pool = [first] + [view.sample_world(self._world_rng()) for _ in range(worlds * self.oversample - 1)] \
            if plays else None
        if pool is not None:
            kept = self._weigh(view, plays, lambda seat: [w.hands[seat] for w in pool], worlds)
            pool = [pool[i] for i in kept]
        for w in range(worlds):
            world = pool[w] if pool is not None else first if w == 0 else view.sample_world(self._world_rng())
            future = int(self.rng.integers(2**63))  # the same later shuffles for every candidate
            for i, action in enumerate(candidates):
                outcome = self.rollout(world, action, view.seat, future)
                if outcome is not None:
                    shares[w, i] = outcome[0]
                    values[w, i] = round(outcome[0] + self.margin_weight * outcome[1], 12)  # as hand_value
        return self._decide(candidates, shares, values)

    def _open_plays(self, view: PlayerView, world) -> list:
        """Each other seat in the hand and what its open play says (:func:`~rumino.players.opponent_model.read_open_play`),
        for the games that keep it; [] elsewhere."""
        reader = getattr(world, "open_play", None)
        if reader is None:
            return []
        events = reader()
        classes = view.action_set.classes if hasattr(view, "action_set") else ()
        limit = getattr(view, "knock_limit", None)
        if limit is None or not (Knock in classes or KnockWith in classes):
            limit = None
        seats = [s for s in getattr(world, "hand_players", range(len(world.hands))) if s != view.seat]
        return [(s, read_open_play(events, s, knock_limit=limit, knock_before_draw=Knock in classes))
                for s in seats]

    def _weigh(self, view: PlayerView, plays: list, hands_of: Callable, keep: int) -> np.ndarray:
        """Which of the drawn worlds to keep (``keep`` indices, in proportion to their weights): each world's
        weight is the product over the other seats of how well its hand explains that seat's open play.
        The kept worlds' hands give the coach its guess of each hand (:attr:`guess`)."""
        rules = view.evaluator.meld_rules
        weights = None
        for seat, play in plays:
            hands = hands_of(seat)
            if not isinstance(hands, np.ndarray):
                size = max((len(h) for h in hands), default=0)
                hands = np.array([list(h) + [-1] * (size - len(h)) for h in hands], dtype=np.int64)
            w = hand_weights(hands, rules, play, self.habits)
            weights = w if weights is None else weights * w
        kept = resample(weights, keep, self.rng)
        self._guess = {}
        for seat, _ in plays:
            hands = hands_of(seat)
            if not isinstance(hands, np.ndarray):
                size = max((len(h) for h in hands), default=0)
                hands = np.array([list(h) + [-1] * (size - len(h)) for h in hands], dtype=np.int64)
            self._guess[seat] = hands[kept]
        return kept

    def _batch(self, batch, world, candidates: list, seat: int, worlds: int,
               plays: list = (), plain: bool = False, policy: Player | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every candidate on the same ``worlds`` redeals of ``world`` (itself drawn from the view), all
        played out in one compiled call a candidate; with the opponent model, drawn ``oversample`` times
        over and kept in proportion to their weights. ``plain``: the game's compiled rollouts can play the
        opponent as a plain player (``Variant.bots.plain_rollouts``); ``policy``: the bot that plays a
        position the kernel does not model, on the engine."""
        sample, run = batch
        known = [c for cards in world.known_held(seat).values() for c in cards]  # taken face up, still held
        if plays:
            hands, stocks = sample(world, worlds * self.oversample, self.rng, known=known)
            kept = self._weigh(self._view, plays, lambda s: hands[:, s], worlds)
            hands, stocks = hands[kept], stocks[kept]
        else:
            hands, stocks = sample(world, worlds, self.rng, known=known)
        shares = np.full((worlds, len(candidates)), np.nan)
        values = np.full((worlds, len(candidates)), np.nan)
        players = tuple(world.hand_players)
        extra = {"player": policy}
        if self.plain_opponents and plain and len(world.hand_players) == 2:
            extra["plain"] = next(p for p in world.hand_players if p != seat)
        for i, action in enumerate(candidates):
            rows = run(world, stocks, hands, first=action, ended_by=True, **extra)
            if len(players) == 2:  # heads-up, for all worlds at once: exactly what hand_outcome gives
                other = players[0] if players[1] == seat else players[1]
                mine, theirs, ended = rows[:, seat], rows[:, other], rows[:, -1]
                share = np.where(mine > theirs, 1.0, np.where(mine < theirs, 0.0,
                                 np.where(ended == seat, 1.0, np.where(ended == other, 0.0, 0.5))))
                shares[:, i] = share
                values[:, i] = np.round(share + self.margin_weight * (mine - theirs), 12)
                continue
            for w, row in enumerate(rows):
                ended = int(row[-1])
                share, margin = hand_outcome(list(row[:-1]), seat, ended if ended >= 0 else None, players)
                shares[w, i] = share
                values[w, i] = round(share + self.margin_weight * margin, 12)
        return shares, values

    def _decide(self, candidates: list, shares: np.ndarray, values: np.ndarray) -> Action:
        best, ranked = self.pick(values)
        spent = int(np.isfinite(values).sum())
        self.last = Decision(candidates[best], False, simulations=spent,
                             values=[(candidates[i], _mean(shares[:, i]), int(np.isfinite(values[:, i]).sum()))
                                     for i in ranked], guess=self._guess or {})
        self.decisions += 1
        self.spent += spent
        return candidates[best]

    def pick(self, values: np.ndarray) -> tuple[int, list[int]]:
        """The candidate to play, and all of them best first, from ``values[world, candidate]``.

        Greedy's move (column 0) stays unless another beats it on the same worlds by more than
        :attr:`confidence` standard errors of the paired difference: with few rollouts the best
        mean is often luck, and a search that followed luck would play worse than greedy.

        >>> SearchPlayer(4).pick(np.array([[0.0, 1.0], [1.0, 1.0], [0.0, 1.0], [0.0, 1.0]]))
        (1, [1, 0])
        >>> SearchPlayer(4).pick(np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]))
        (0, [0, 1])
        """
        n = values.shape[1]
        ok = np.isfinite(values)
        means = np.array([values[ok[:, i], i].mean() if ok[:, i].any() else -np.inf for i in range(n)])
        ranked = sorted(range(n), key=lambda i: (-means[i], i))
        best = 0
        if not ok[:, 0].any():  # greedy's move is never legal here (it always is): take the best mean
            return ranked[0], ranked
        for i in ranked:
            if i == 0:
                break
            both = ok[:, 0] & ok[:, i]
            d = values[both, i] - values[both, 0]
            if len(d) >= 2:
                se = d.std(ddof=1) / np.sqrt(len(d))
                if d.mean() > self.confidence * se and d.mean() > 0:
                    best = i
                    break
            elif len(d) == 1 and d[0] > 0 and self.confidence <= 0:
                best = i
                break
        ranked = [best] + [i for i in ranked if i != best]
        return best, ranked

    def budget_for(self, game: type[TurnGame]) -> int:
        """Rollouts a decision in ``game``: the player's own, else the game's default (the best player's:
        ``Variant.bots.best_budget``; else ``Variant.bots.search_budget``, else :data:`DEFAULT_SIMULATIONS`)."""
        if self.simulations is not None:
            return self.simulations
        bots = bots_of(game)
        if self.best_budget and bots.best_budget is not None:
            return bots.best_budget
        return bots.search_budget or DEFAULT_SIMULATIONS

    def _world_rng(self) -> np.random.Generator:
        return np.random.default_rng(int(self.rng.integers(2**63)))

    def candidates(self, view: PlayerView, legal: list) -> list:
        """The moves worth a search, greedy's own first: every action but the plain discards and
        face-down knocks, of which only those with the ``width`` best cards (least deadwood left); of
        more than :data:`MAX_CANDIDATES`, evenly spaced ones (a Rummoli bid's amounts)."""
        game = view.game_type
        greedy_move = self.policy(game).choose(view)
        if self.moves is not None and greedy_move not in legal:  # a menu without greedy's move: its first
            greedy_move = legal[0]
        if bots_of(game).rollout is not None:  # a game of its own bot's (Rummoli): no deadwood to sort by
            others = [a for a in legal if a != greedy_move]
            step = max(1, -(-len(others) // (MAX_CANDIDATES - 1)))
            return [greedy_move] + others[::step][:MAX_CANDIDATES - 1]
        by_card = [a for a in legal if isinstance(a, (Discard, KnockWith))]
        others = [a for a in legal if not isinstance(a, (Discard, KnockWith))]
        keep: set = set()
        if by_card:
            ev = view.evaluator
            hand = list(view.hand)
            left = {}
            for card in {a.card for a in by_card}:
                rest = list(hand)
                rest.remove(card)
                left[card] = ev.deadwood(rest)
            keep = set(sorted(left, key=lambda c: (left[c], -c))[:self.width])
        chosen = [greedy_move] + [a for a in others + by_card
                                  if a != greedy_move and (not isinstance(a, (Discard, KnockWith)) or a.card in keep)]
        return chosen

    def rollout(self, world: TurnGame, action: Action, seat: int, future: int) -> tuple[float, float] | None:
        """How ``seat`` did (:func:`hand_outcome`: share of the others beaten, points margin) with ``action``
        played on a fork of ``world`` and the hand played out by greedy; None if the action is not legal in this world (it always is for a move read
        from the view; kept for moves that depend on hidden cards)."""
        game = world.fork(np.random.default_rng(future))
        before = list(game.scores)
        try:
            game.apply(action)
        except IllegalActionError:
            return None
        greedy = self.policy(type(world))
        play(game, lambda s: greedy, checked=False, until=_hand_over, max_actions=MAX_ROLLOUT_ACTIONS)
        after = list(game.scores)
        ended_by = hand_ender(game.results[-1] if game.results else None)
        sense = 1 if game.HIGHER_SCORE_WINS else -1
        gains = [sense * (a - b) for a, b in zip(after, before)]
        return hand_outcome(gains, seat, ended_by, world.hand_players)


def _hand_over(game: TurnGame) -> bool:
    return game.hand_over


def _mean(column: np.ndarray) -> float:
    ok = np.isfinite(column)
    return float(column[ok].mean()) if ok.any() else float("nan")


def hand_outcome(gains: Sequence, seat: int, ended_by: int | None = None,
                 seats: Sequence[int] | None = None) -> tuple[float, float]:
    """How ``seat`` did in a hand among ``seats`` (those dealt in; default all): its share of the others
    it beat (a tie counts ½, and the seat that ended the hand wins a tie, as a tournament counts
    hands) and its points margin over the others' mean.

    >>> hand_outcome([25, 0], 0), hand_outcome([0, 0], 0), hand_outcome([0, 0], 0, ended_by=0)
    ((1.0, 25.0), (0.5, 0.0), (1.0, 0.0))
    """
    seats = list(seats) if seats else list(range(len(gains)))
    groups = [g for g in (tuple(s for s in group if s in seats) for group in rank_seats(gains, ended_by)) if g]
    rank = next(i for i, g in enumerate(groups) if seat in g)
    others = len(seats) - 1
    if not others:
        return 0.5, 0.0
    below = sum(len(g) for g in groups[rank + 1:])
    share = (below + 0.5 * (len(groups[rank]) - 1)) / others
    margin = gains[seat] - (sum(gains[s] for s in seats) - gains[seat]) / others
    return share, float(margin)


def hand_value(gains: Sequence, seat: int, ended_by: int | None = None,
               seats: Sequence[int] | None = None) -> float:
    """A rollout's value: :func:`hand_outcome`'s share plus :data:`MARGIN_WEIGHT` times its margin.

    >>> hand_value([25, 0], 0), hand_value([0, 25], 0), hand_value([0, 0], 0), hand_value([0, 0], 0, ended_by=0)
    (1.0025, -0.0025, 0.5, 1.0)
    """
    share, margin = hand_outcome(gains, seat, ended_by, seats)
    return round(share + MARGIN_WEIGHT * margin, 12)


__all__ = ["SearchPlayer", "Decision", "best_player", "hand_outcome", "hand_value", "DEFAULT_SIMULATIONS"]
