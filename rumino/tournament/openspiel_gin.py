"""Gin matches against OpenSpiel's bots: hand by hand on the same deals, seats swapped, scored by rules §6.

Each deal is dealt by the one seeding scheme
(:func:`rumino.playing.seeding.new_table`, deal ``index`` of a run seeded
``seed``, dealer seat 1) and replayed card for card in OpenSpiel's
``gin_rummy``: seat 0, our non-dealer, is OpenSpiel's player 0. It is played
twice, our player in seat 0 and then in seat 1. On our seat our player
chooses from our engine's view; on the other seat the OpenSpiel bot chooses
from OpenSpiel's state. Every action is applied to both engines and after
every step the hands, the stock size, the upcard and the discard pile must
agree (an ``AssertionError`` otherwise). The hand is scored by our engine
(rules §6: the knocker's best melds, the defender's best lay-offs); the knock
phase is then played out in OpenSpiel with those melds and lay-offs, and its
deadwood and score must be ours, except where the rules differ (below).

The rules are our Gin with ``wall_knock=True`` (at 2 stock cards the next
player may take the upcard only to knock, OpenSpiel's "wall"), as in the
differential test (``tests/games/gin/test_gin_game.py``). Where one engine
allows a move the other does not, the move is replaced, and each replacement
is counted under ``replaced`` in the result:

* ``knock_refused_by_openspiel``: our player knocks (or goes gin) where
  OpenSpiel's 11-card deadwood is above the true minimum, so OpenSpiel has no
  such knock: the same card is discarded instead (at the wall, where the
  upcard may be taken only to knock: the player passes);
* ``upcard_draw_limit``: a 50th upcard draw in one deal (OpenSpiel ends such a
  deal unscored): the player draws from the stock instead;
* ``not_legal_in_ours``: the bot's move is not legal in our engine (it takes
  the upcard and discards or knocks with that very card, which rules §0.5
  forbid): the move greedy would make from the same seat's view is played.

Ties, as rules §6 scores a hand: only a void hand (nobody knocked before the
wall) is a tie; it counts ½ in the share of hands won. A knock with the
defender's deadwood equal to the knocker's is an undercut under §6 (the
defender wins); OpenSpiel scores it 0, and those hands are counted as
``equal_deadwood_undercuts``.

A match against ``"simple"`` replays exactly from its seed, in any number of
chunks. One against ``"ismcts:K"`` is seeded but does not replay exactly:
OpenSpiel's C++ ISMCTS draws among equally good children in the iteration
order of a hash map, which changes from run to run (8 bots seeded alike gave
2–3 different policies on one state), so its figures are a fresh sample each
run.

OpenSpiel (``pip install open-spiel``) is imported only when a match is played.

For example (OpenSpiel needed, so not a doctest; the bench runs it in full,
``bench/bench_gin_openspiel.py``)::

    r = match_against_openspiel("greedy", "simple", deals=300, seed=7)
    r["hands"], r["share"], r["share_ci95"], r["points_per_hand"]
    # 600 hands, 0.4475 [0.408, 0.487], -2.08 points a hand
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from types import ModuleType
from typing import Callable, Sequence

import numpy as np

from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard, Gin, KnockWith
from rumino.engine.scoring import rank_seats
from rumino.hand.arrange import best_arrangement
from rumino.melds import GIN_MELDS
from rumino.players import GreedyPlayer, make_player
from rumino.playing.seeding import new_table
from rumino.stats import mean_estimate, proportion_estimate
from rumino.variants import find_variant

GIN = find_variant("gin").rules  # the game OpenSpiel's gin_rummy plays (rules §6), read from its row
PASS = find_variant("gin").game.ACTIONS.parse("pass")  # Gin's pass on the upcard

RULES = dataclasses.replace(GIN, wall_knock=True)
"""Our Gin with OpenSpiel's wall: the rules every match is played (and scored) under."""

OPENSPIEL_PARAMS = {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25}
"""OpenSpiel's ``gin_rummy`` set to rules §6's knock limit and bonuses (its defaults too)."""

DEALER = 1  # seat 1 deals, so seat 0 (OpenSpiel's player 0) is offered the upcard first
UPCARD_DRAW_LIMIT = 50  # OpenSpiel ends a deal, unscored, at its 50th upcard draw
ISMCTS_UCT_C = 2.0  # the exploration constant of OpenSpiel's own ISMCTS examples


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise ImportError("a match against OpenSpiel's bots needs OpenSpiel: pip install open-spiel "
                          "(or pip install -e '.[oracles]').") from None
    return pyspiel


def load_pyspiel() -> ModuleType:
    """OpenSpiel's module, or an ImportError that says how to install it (before a match starts)."""
    return _pyspiel()


def parse_their(their: str, simulations: int | None = None) -> tuple[str, int | None, float]:
    """``(kind, simulations, uct_c)`` of an OpenSpiel bot spec: ``"simple"``, ``"ismcts:K"`` or
    ``"ismcts:K:C"`` (K simulations a decision, exploration constant C); ``simulations`` gives K
    for a plain ``"ismcts"``.

    >>> parse_their("simple"), parse_their("ismcts:300"), parse_their("ismcts", simulations=50)
    (('simple', None, 2.0), ('ismcts', 300, 2.0), ('ismcts', 50, 2.0))
    """
    kind, *args = str(their).strip().lower().split(":")
    if kind == "simple" and not args:
        return "simple", None, ISMCTS_UCT_C
    if kind == "ismcts" and len(args) <= 2:
        try:
            k = int(args[0]) if args else simulations
            c = float(args[1]) if len(args) > 1 else ISMCTS_UCT_C
        except ValueError:
            k = None
        if k is not None and simulations is not None and k != simulations:
            raise ValueError(f"{their!r} asks for {k} simulations but simulations={simulations}.")
        if k is not None and k >= 1:
            return "ismcts", k, c
    raise ValueError(f"unknown OpenSpiel bot {their!r}: choose 'simple' (SimpleGinRummyBot) or "
                     f"'ismcts:K' (ISMCTS with K random-rollout simulations a decision, optionally ':C').")


def _seed32(*parts: int) -> int:
    """A 31-bit seed for OpenSpiel's bots, derived from the run's seed scheme."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0] & 0x7FFFFFFF)


def _make_bot(pyspiel, game, kind: str, k: int | None, uct_c: float, player: int, seed: Sequence[int]):
    if kind == "simple":
        return pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
    evaluator = pyspiel.RandomRolloutEvaluator(1, _seed32(*seed, 0))
    return pyspiel.ISMCTSBot(_seed32(*seed, 1), evaluator, uct_c, k, -1,
                             pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


class _Bridge:
    """One of our hands and one OpenSpiel deal kept in step (the mapping of the differential test)."""

    def __init__(self, pyspiel, os_game, game):
        self.sp = pyspiel.gin_rummy
        self.U = self.sp.GinRummyUtils(13, 4, 10)
        self.g = game
        self.state = os_game.new_initial_state()
        self.upcard_draws = 0
        # the deal: player 0's ten cards (our non-dealer), player 1's (the dealer), the upcard
        for card in game.hands[1 - game.dealer] + game.hands[game.dealer] + [game.discard[-1]]:
            self.state.apply_action(card)
        self.check_same()

    def act(self, a: int) -> None:
        assert a in self.state.legal_actions(), (a, self.state.legal_actions(), str(self.state))
        self.state.apply_action(a)

    def check_same(self) -> None:
        g, s = self.g, self.state
        hands = s.hands()
        assert sorted(hands[0]) == sorted(g.hands[0]) and sorted(hands[1]) == sorted(g.hands[1]), "hands differ"
        assert s.stock_size() == len(g.stock), "stock sizes differ"
        if g.phase in ("offer", "turn", "wall"):
            assert s.upcard() == g.discard[-1], "upcards differ"
            assert sorted(s.discard_pile()) == sorted(g.discard[:-1]), "discard piles differ"

    # ------------------------------------------------------------ which of our moves OpenSpiel has

    def knock_allowed(self, card: int) -> bool:
        """Does OpenSpiel allow a knock (or gin) discarding ``card`` now?"""
        legal = self.state.legal_actions()
        if self.g.must_knock:  # after the wall knock OpenSpiel is already in its knock phase
            return card in legal
        hand = self.state.hands()[self.g.turn]
        return self.sp.KNOCK_ACTION in legal and card in self.U.legal_discards(hand, 10)

    def common(self, action, replaced: Counter):
        """``action`` (legal in our engine) if OpenSpiel has it, else its replacement (module docstring)."""
        g = self.g
        if isinstance(action, (KnockWith, Gin)) and not self.knock_allowed(action.card):
            replaced["knock_refused_by_openspiel"] += 1
            return Discard(action.card)
        if action == DRAW_DISCARD and g.phase == "wall" and self.sp.KNOCK_ACTION not in self.state.legal_actions():
            replaced["knock_refused_by_openspiel"] += 1  # the same 11-card deadwood, at the wall: pass
            return PASS
        if (action == DRAW_DISCARD and g.phase == "turn" and self.upcard_draws >= UPCARD_DRAW_LIMIT - 1):
            replaced["upcard_draw_limit"] += 1
            return DRAW_STOCK
        return action

    # ------------------------------------------------------------ an OpenSpiel move in our terms

    def theirs(self, bot, clock: list) -> list | None:
        """The bot's move as our actions (two for a knock at the wall), or None if our engine has no
        such move. A knock is chosen in two OpenSpiel steps (knock, then the card): the card is asked
        on a copy of the state, so nothing is applied before the whole move is known."""
        sp, g, s = self.sp, self.g, self.state
        t = time.process_time()  # CPU seconds, as rumino strength times its players: a busy machine adds none
        a = bot.step(s)
        clock[0] += time.process_time() - t
        clock[1] += 1
        phase = s.current_phase()
        if a == sp.KNOCK_ACTION:
            ahead = s.clone()
            ahead.apply_action(a)
            t = time.process_time()
            card = bot.step(ahead)
            clock[0] += time.process_time() - t
            clock[1] += 1
            kept = list(ahead.hands()[g.turn])
            kept.remove(card)
            knock = Gin(card) if best_arrangement(kept, GIN_MELDS).deadwood == 0 else KnockWith(card)
            moves = [DRAW_DISCARD, knock] if phase == sp.Phase.WALL else [knock]
        elif phase in (sp.Phase.FIRST_UPCARD, sp.Phase.DRAW):
            moves = [DRAW_DISCARD if a == sp.DRAW_UPCARD_ACTION else PASS if a == sp.PASS_ACTION else DRAW_STOCK]
        elif phase == sp.Phase.WALL:
            moves = [PASS]
        else:
            moves = [Discard(a)]
        # legal in our engine? (the second move of a wall knock is tried on a fork)
        if moves[0] not in g.legal_actions():
            return None
        if len(moves) == 2:
            ahead = g.fork(np.random.default_rng(0))
            ahead.apply(moves[0])
            if moves[1] not in ahead.legal_actions():
                return None
        return moves

    # ------------------------------------------------------------ one of our actions in both engines

    def play(self, pick) -> None:
        sp, g = self.sp, self.g
        phase, wall_knock = g.phase, g.must_knock
        g.apply(pick)
        if phase == "offer":
            self.act(sp.DRAW_UPCARD_ACTION if pick == DRAW_DISCARD else sp.PASS_ACTION)
        elif phase == "wall":
            self.act(sp.KNOCK_ACTION if pick == DRAW_DISCARD else sp.PASS_ACTION)
        elif phase == "turn":
            if pick == DRAW_STOCK:
                self.act(sp.DRAW_STOCK_ACTION)
                self.act(g.drawn)  # OpenSpiel's chance node deals the card our stock gave
            else:
                self.upcard_draws += 1
                self.act(sp.DRAW_UPCARD_ACTION)
        elif isinstance(pick, Discard):
            self.act(pick.card)
        else:
            self.finish_knock(pick.card, wall=wall_knock)
        if not g.hand_over:
            self.check_same()

    def finish_knock(self, card: int, wall: bool) -> None:
        """The knock in OpenSpiel as our engine scored it: the discard, the knocker's melds, the
        defender's lay-offs and the defender's own melds."""
        sp, U, r = self.sp, self.U, self.g.results[-1]
        if not wall:
            self.act(sp.KNOCK_ACTION)
        self.act(card)
        for meld in r.melds:
            self.act(sp.MELD_ACTION_BASE + U.meld_to_int(sorted(meld)))
        self.act(sp.PASS_ACTION)
        if r.ending != "gin":
            for c in r.layoffs:
                self.act(c)
            self.act(sp.PASS_ACTION)
        rest = [c for c in r.hands[1 - r.by] if c not in r.layoffs]
        for meld in best_arrangement(rest, GIN_MELDS).melds:
            self.act(sp.MELD_ACTION_BASE + U.meld_to_int(sorted(meld.cards)))
        self.act(sp.PASS_ACTION)

    def check_end(self) -> bool:
        """Both engines ended the hand alike; True for a knock at equal deadwood (§6: an undercut,
        OpenSpiel: 0), where the scores differ by the rules."""
        sp, g, s = self.sp, self.g, self.state
        r = g.results[-1]
        if r.ending == "void" and not s.is_terminal() and s.current_phase() == sp.Phase.WALL:
            s.apply_action(sp.PASS_ACTION)
        assert s.is_terminal(), f"OpenSpiel's deal is not over: {s}"
        theirs = s.returns()[0]
        ours = r.deltas[0] - r.deltas[1]
        if r.ending == "knock" and r.deadwood[0] == r.deadwood[1]:
            assert theirs == 0 and r.undercut, (theirs, r.describe())
            return True
        if r.ending != "void":
            dw = s.deadwood()
            assert (dw[0], dw[1]) == tuple(r.deadwood), (dw, r.deadwood)
        assert ours == theirs, f"our score {ours}, OpenSpiel's {theirs}: {r.describe()}"
        return False


_GAMES: dict = {}  # OpenSpiel's game object, loaded once a process


def play_deal(our_spec: str, their: str, seed: int, index: int, *, simulations: int | None = None) -> list[dict]:
    """Deal ``index`` of the run seeded ``seed`` played twice, our player in seat 0 and then in seat 1:
    one record a hand (``seat``, ``gains`` by seat, ``ending``, ``outcome`` for our player: 1, ½ or 0,
    ``points`` our gain minus theirs, the decisions and seconds of each side, ``replaced``)."""
    pyspiel = _pyspiel()
    kind, k, uct_c = parse_their(their, simulations)
    os_game = _GAMES.get("gin_rummy")
    if os_game is None:
        os_game = _GAMES["gin_rummy"] = pyspiel.load_game("gin_rummy", OPENSPIEL_PARAMS)
    records = []
    for ours in (0, 1):
        game, _ = new_table("gin", ["greedy", "greedy"], seed, index, rules=RULES, dealer=DEALER)
        player = make_player(our_spec, seed=[seed, index, 1, ours])
        bot = _make_bot(pyspiel, os_game, kind, k, uct_c, 1 - ours, [seed, index, 2, 1 - ours])
        bridge = _Bridge(pyspiel, os_game, game)
        greedy = GreedyPlayer()
        mine, yours = [0.0, 0], [0.0, 0]  # seconds, decisions
        replaced: Counter = Counter()
        while not game.hand_over:
            seat = game.to_act
            if seat == ours:
                t = time.process_time()
                pick = player.choose(game.view(seat))
                mine[0] += time.process_time() - t
                mine[1] += 1
                bridge.play(bridge.common(pick, replaced))
                continue
            moves = bridge.theirs(bot, yours)
            if moves is None:  # not a move of our engine: greedy's, and the bot forgets its plan
                replaced["not_legal_in_ours"] += 1
                if kind == "simple":
                    bot.restart()
                moves = [greedy.choose(game.view(seat))]
            if len(moves) == 1:  # a knock the bot chose OpenSpiel has; a 50th upcard draw it ends unscored
                moves = [bridge.common(moves[0], replaced)]
            for move in moves:
                bridge.play(move)
        equal = bridge.check_end()
        r = game.results[-1]
        gains = tuple(int(d) for d in r.deltas)
        top = rank_seats(gains, r.by)[0]
        outcome = 0.5 if len(top) == 2 else 1.0 if top == (ours,) else 0.0
        records.append({"index": index, "seat": ours, "gains": gains, "ending": r.ending, "outcome": outcome,
                        "points": gains[ours] - gains[1 - ours], "equal_deadwood": equal,
                        "our_seconds": mine[0], "our_decisions": mine[1],
                        "their_seconds": yours[0], "their_decisions": yours[1], "replaced": dict(replaced)})
    return records


def summarize(records: Sequence[dict], *, our_spec: str, their: str, seed: int) -> dict:
    """The match's figures from its hand records (in any order: they are sorted first, so a run split
    into chunks gives the same figures as one run)."""
    recs = sorted(records, key=lambda r: (r["index"], r["seat"]))
    n = len(recs)
    wins = sum(r["outcome"] == 1.0 for r in recs)
    losses = sum(r["outcome"] == 0.0 for r in recs)
    ties = n - wins - losses
    share = proportion_estimate(wins + 0.5 * ties, n, seed=seed)
    points = mean_estimate([r["points"] for r in recs], seed=seed)
    replaced: Counter = Counter()
    for r in recs:
        replaced.update(r["replaced"])

    def per_decision(side: str) -> float:
        d = sum(r[f"{side}_decisions"] for r in recs)
        return sum(r[f"{side}_seconds"] for r in recs) / d if d else 0.0

    return {"ours": our_spec, "theirs": their, "seed": seed, "deals": len({r["index"] for r in recs}),
            "hands": n, "wins": wins, "losses": losses, "ties": ties,
            "share": share.value, "share_ci95": [share.lo, share.hi],
            "points_per_hand": points.value, "points_ci95": [points.lo, points.hi],
            "endings": dict(sorted(Counter(r["ending"] for r in recs).items())),
            "equal_deadwood_undercuts": sum(r["equal_deadwood"] for r in recs),
            "replaced": dict(sorted(replaced.items())),
            "our_seconds_per_decision": per_decision("our"), "their_seconds_per_decision": per_decision("their"),
            "our_decisions": sum(r["our_decisions"] for r in recs),
            "their_decisions": sum(r["their_decisions"] for r in recs),
            "rules": "Gin, rules §6, wall_knock=True (OpenSpiel's wall)"}


def match_against_openspiel(our_spec: str, their: str, deals: int, seed: int, *, simulations: int | None = None,
                            progress: Callable[[int, int], None] | None = None) -> dict:
    """``our_spec`` (a player spec: greedy, search:N, …) against OpenSpiel's ``their`` ("simple":
    SimpleGinRummyBot; "ismcts:K": ISMCTS with K random-rollout simulations a decision, seeded) on
    ``deals`` seeded deals, each played twice with the seats swapped (module docstring).

    Returns hands, wins, losses, ties (void hands), the share of hands won (ties ½) with its Wilson
    95% interval, the mean points a hand for our player (our gain minus theirs) with its 95%
    interval, the mean seconds a decision of each side, the endings and the replaced moves.
    ``progress(done, deals)`` is called after every deal.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals is {deals!r}: a match needs at least one deal.")
    parse_their(their, simulations)  # a bad spec fails before any deal
    records = []
    for i in range(deals):
        records += play_deal(our_spec, their, seed, i, simulations=simulations)
        if progress is not None:
            progress(i + 1, deals)
    return summarize(records, our_spec=our_spec, their=their, seed=seed)


__all__ = ["match_against_openspiel", "load_pyspiel", "play_deal", "summarize", "parse_their", "RULES", "OPENSPIEL_PARAMS"]
