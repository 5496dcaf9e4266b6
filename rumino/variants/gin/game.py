"""Gin Rummy, the baseline for comparisons (rules §6).

Two players, ten cards each from one 52-card pack, an upcard that the
non-dealer and then the dealer may take or pass, draw then discard, a knock
at ``knock_max_deadwood`` (10) or less after drawing with a face-down
discard, the defender's lay-offs (none after gin), gin and undercut bonuses,
a void hand when ``void_at_stock`` (2) stock cards remain, and a game to
``game_to`` (100) with a game bonus and a box bonus per hand won.

>>> GIN.knock_max_deadwood, GIN.meld_rules.pack.size
(10, 52)
>>> g = GinGame.new(GIN, 2, seed=3)
>>> g.phase, g.to_act == 1 - g.dealer, [str(a) for a in g.legal_actions()]
('offer', True, ['draw discard', 'pass'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Any, Callable, ClassVar, Iterable, Sequence

from rumino.cards import STANDARD_PACK, format_card, format_hand, parse_hand
from rumino.engine.actions import DRAW_DISCARD, Deal, Discard, Draw, Gin, KnockWith
from rumino.engine.drawdiscard import DrawDiscardGame, TableView, expect
from rumino.engine.drawdiscard import HandResult as _HandResult
from rumino.engine.evaluator import Evaluator
from rumino.engine.protocol import Action, ActionSet, refuse
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.scoring import difference_score
from rumino.errors import IllegalActionError
from rumino.hand.arrange import min_deadwood
from rumino.melds import GIN_MELDS, MeldRules
from rumino.engine.knobs import check_knobs, knob, may_rediscard_pickup

HAND_SIZE = 10


@dataclass(frozen=True, kw_only=True)
class GinRules:
    """Two-player Gin Rummy; bonus sizes vary between sources, so they are knobs (rules §6)."""

    knock_max_deadwood: int = knob(10, section="§6", low=0, high=100, label="Knock limit",
                                   doc="you may knock with this much deadwood or less")
    gin_bonus: int = knob(25, section="§6", low=0, high=100, label="Gin bonus", doc="points for going gin")
    undercut_bonus: int = knob(25, section="§6", choices=(25, 10, 20), label="Undercut bonus",
                               doc="points to the player who undercuts the knocker")
    void_at_stock: int = knob(2, section="§6", low=0, high=10, label="Hand void at",
                              doc="the hand is void, nobody scoring, when this many stock cards remain")
    game_to: int = knob(100, section="§6", low=1, high=10_000, label="Game to", doc="the points that win the game")
    game_bonus: int = knob(100, section="§6", low=0, high=1000, label="Game bonus",
                           doc="added to the winner's total when the game ends (0: no game bonus)")
    box_bonus: int = knob(25, section="§6", low=0, high=100, label="Box bonus",
                          doc="added at the end for every hand a player won (0: no box bonus)")
    wall_knock: bool = knob(False, section="§6", choices=(False, True), label="Knock at the wall",
                            doc="when the stock is down to the void count, the next player may still take the last "
                                "discard, but only to knock or go gin")
    may_rediscard_pickup: bool = may_rediscard_pickup()

    def __post_init__(self):
        check_knobs(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return GIN_MELDS


GIN = GinRules()
PACK = STANDARD_PACK

# ===================================================================== the game
#
# Decisions where rules §6 leaves a point open, each named where it is applied:
#   G1 §6   the first dealer is drawn by high card (the engine's rule); the deal then alternates.
#   G2 §6   the upcard offer: the non-dealer may take the upcard or pass, then the dealer; if both
#           pass, the non-dealer must draw from the stock (the standard rule; OpenSpiel agrees).
#           Whoever takes the upcard discards and the other player plays next.
#   G3 §6   the knocker shows an arrangement of minimum deadwood (OpenSpiel would let him show any
#           arrangement at or under the limit; showing more deadwood never helps him except to block
#           a lay-off, which we do not model). When several minimum arrangements exist, the engine
#           shows for him the one that leaves the defender the most deadwood after lay-offs, as a
#           careful knocker blocking lay-offs would (it is not offered as a decision; among equals,
#           the first in a fixed order of the melds).
#   G4 §6   the defender lays off as well as he can: the lay-offs (onto the knocker's runs, at
#           either end, chained, and the fourth card of a set) and his own melds that leave him
#           the least deadwood. There are no lay-offs after gin.
#   G5 §6   an undercut is a defender's deadwood (after lay-offs) equal to or below the knocker's;
#           a gin cannot be undercut.
#   G6 §6   the hand is void when, after a discard, ``void_at_stock`` cards remain in the stock and
#           nobody knocked (the player who drew the last playable card may still knock or go gin).
#           Knob ``wall_knock``: the next player may first take that discard, but only to knock.
#   G7 §6   the game ends after the hand in which a player reaches ``game_to``; he wins. His total
#           is his score plus ``game_bonus``; every player's total adds ``box_bonus`` per hand won.
#           Only one player scores in a hand, so there is never a tie.
#   G8 §0.5 the card just taken from the discard pile may not be discarded again (nor knocked
#           or ginned with) this turn, unless ``may_rediscard_pickup``.
#   G9 §6   "gin" is a knock that leaves 0 deadwood: it is the action ``gin <card>`` (``knock <card>``
#           is refused then), and it cannot be undercut. The winner of a game deals the next game.

ENDINGS = ("knock", "gin", "void")


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline the upcard offer (or, at the wall, let the hand be void) (rules §6)."""

    word: ClassVar[str] = "pass"
    verb: ClassVar[str] = "pass"


PASS = Pass()
ACTIONS = ActionSet("Gin Rummy", (Draw, Discard, KnockWith, Gin, Pass, Deal))


@dataclass(frozen=True, kw_only=True)
class HandResult(_HandResult):
    """How one Gin hand ended (rules §6): ``melds`` the knocker showed, the defender's ``layoffs``,
    the defender's deadwood before lay-offs (``defender_before``) and who scored (``winner``)."""

    melds: tuple = ()
    layoffs: tuple[int, ...] = ()
    defender_before: int | None = None
    winner: int | None = None
    points: int = 0

    TEXT: ClassVar[dict] = {**_HandResult.TEXT, "void": "the hand is void"}


@dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """Who won the game, the final totals with the bonuses and the boxes (hands won) (rules §6); ``returns``:
    the winner's lead in totals, won by the winner and lost by the loser. Gin has no pot (``payouts_cents``:
    zeros)."""

    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    hands: int

    ZERO_SUM: ClassVar[bool] = True

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        rules = game.rules
        return [("points", "final points", list(game.scores)),
                ("totals", f"final totals with the game bonus ({rules.game_bonus}) and {rules.box_bonus} a box "
                           f"(rules §6)", list(self.totals))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        return f"{win} the game, first to {game.rules.game_to} points."

    def final_points(self, game: Any) -> tuple[int, ...]:
        return self.totals


@dataclass(eq=False, kw_only=True, slots=True)
class GinView(TableView):
    """What a Gin player sees: the table plus the upcard offer, the wall, and the boxes won."""

    offer: bool = False  # deciding whether to take the upcard (or pass)
    must_draw_stock: bool = False  # both passed the upcard: the non-dealer must draw from the stock
    wall: bool = False  # the stock is down to void_at_stock: take the discard only to knock, or pass
    must_knock: bool = False  # took the discard at the wall: must knock or go gin now
    boxes: tuple[int, ...] = ()


def run_span(meld: Sequence[int]) -> tuple[int, int, int]:
    """``(suit, lowest rank, highest rank)`` of a run."""
    ranks = [c % 13 for c in meld]
    return meld[0] // 13, min(ranks), max(ranks)


def layoff_options(meld: tuple[int, ...], hand: set) -> list[tuple[int, ...]]:
    """Every way the defender can lay cards of ``hand`` off onto one of the knocker's melds (G4):
    the fourth card of a set; for a run, a chain below it and a chain above it."""
    if len({c % 13 for c in meld}) == 1:  # a set
        if len(meld) >= 4:
            return [()]
        rank = meld[0] % 13
        fourth = [s * 13 + rank for s in range(4) if s * 13 + rank not in meld and s * 13 + rank in hand]
        return [()] + [(c,) for c in fourth]
    suit, lo, hi = run_span(meld)
    below, above = [()], [()]
    r = lo - 1
    while r >= 0 and suit * 13 + r in hand:
        below.append(below[-1] + (suit * 13 + r,))
        r -= 1
    r = hi + 1
    while r <= 12 and suit * 13 + r in hand:
        above.append(above[-1] + (suit * 13 + r,))
        r += 1
    return [b + a for b in below for a in above]


def gin_melds(cards: Iterable[int]) -> list[tuple[int, ...]]:
    """Every meld (rules §6: a set of 3–4 of a rank, a run of 3+ in a suit, ace low) within ``cards``.

    >>> from rumino.cards import format_hand, parse_hand
    >>> [format_hand(m) for m in gin_melds(parse_hand("5h 6h 7h 8h 8s 8c Kd"))]
    ['5h 6h 7h', '5h 6h 7h 8h', '6h 7h 8h', '8s 8c 8h']
    """
    held = set(cards)
    out = []
    for suit in range(4):
        r = 0
        while r < 13:
            if suit * 13 + r not in held:
                r += 1
                continue
            end = r
            while end + 1 < 13 and suit * 13 + end + 1 in held:
                end += 1
            for a in range(r, end - 1):
                for b in range(a + 2, end + 1):
                    out.append(tuple(suit * 13 + x for x in range(a, b + 1)))
            r = end + 1
    for rank in range(13):
        same = [s * 13 + rank for s in range(4) if s * 13 + rank in held]
        if len(same) >= 3:
            if len(same) == 4:
                out.append(tuple(same))
            out.extend(tuple(x for x in same if x != skip) for skip in (same if len(same) == 4 else [None]))
    return out


def best_arrangements(cards: Iterable[int]) -> tuple[int, list[tuple[tuple[int, ...], ...]]]:
    """``(minimum deadwood, every set of disjoint melds reaching it)`` of a Gin hand (rules §0.3).

    A small exact search over the hand's melds (:func:`gin_melds`); the tests check it against
    :func:`rumino.hand.arrange.all_best_arrangements`.

    >>> from rumino.cards import parse_hand
    >>> dw, ways = best_arrangements(parse_hand("5h 6h 7h 8h 8s 8c 8d As Ac 2c"))
    >>> dw, len(ways)
    (4, 2)
    """
    cards = list(cards)
    values = GIN_MELDS.values
    total = sum(int(values[c]) for c in cards)
    melds = gin_melds(cards)
    masks = [sum(1 << c for c in m) for m in melds]
    worth = [sum(int(values[c]) for c in m) for m in melds]
    best = [0, []]

    def search(i: int, used: int, covered: int, chosen: list) -> None:
        if covered > best[0]:
            best[0], best[1] = covered, [tuple(chosen)]
        elif covered == best[0]:
            best[1].append(tuple(chosen))
        for j in range(i, len(melds)):
            if not masks[j] & used:
                chosen.append(melds[j])
                search(j + 1, used | masks[j], covered + worth[j], chosen)
                chosen.pop()

    search(0, 0, 0, [])
    return total - best[0], best[1]


def best_layoffs(defender: Sequence[int], knocker_melds: Iterable[Sequence[int]], ev: Evaluator) -> tuple[int, tuple[int, ...]]:
    """The defender's least deadwood after laying off onto ``knocker_melds`` and melding the rest:
    ``(deadwood, cards laid off)`` (rules §6, G4). Exact: every combination of lay-offs is tried.

    >>> from rumino.cards import parse_hand
    >>> from rumino.engine.evaluator import evaluator_for
    >>> ev = evaluator_for(GIN)
    >>> dw, laid = best_layoffs(parse_hand("9h 10h 4c 4d Kc Ks 2s 3d 5c 8c"), [parse_hand("6h 7h 8h")], ev)  # 65 before
    >>> dw, format_hand(laid)
    (46, '9h 10h')
    """
    hand = set(defender)
    best = (ev.deadwood(tuple(defender)), ())
    options = [layoff_options(tuple(m), hand) for m in knocker_melds]
    for combo in product(*options):
        laid = [c for part in combo for c in part]
        if not laid or len(set(laid)) != len(laid):
            continue
        rest = tuple(c for c in defender if c not in laid)
        dw = ev.deadwood(rest)
        if dw < best[0]:
            best = (dw, tuple(laid))
    return best


class GinGame(DrawDiscardGame):
    """One game of Gin Rummy, from the first deal to ``game_to`` points (rules §6).

    Phases: ``offer`` (the upcard offer: take it with ``draw discard`` or ``pass``),
    ``turn`` (draw), ``discard`` (discard, ``knock <card>`` or ``gin <card>``), ``wall``
    (with ``wall_knock``: take the last discard to knock, or ``pass``), ``between_hands``,
    ``game_over``.

    >>> from rumino.cards import parse_hand
    >>> g = GinGame.new(GIN, 2, seed=1, dealer=1)
    >>> g.apply(PASS); g.apply(PASS); [str(a) for a in g.legal_actions()]
    ['draw stock']
    """

    NAME = "Gin Rummy"
    ENDINGS = ENDINGS
    ACTIONS = ACTIONS
    RULES_CLASS = GinRules
    PACK = PACK
    HAND_SIZE = HAND_SIZE
    MIN_PLAYERS, MAX_SEATS = 2, 2
    VIEW = GinView
    SECTIONS = {"deal": "§6", "turn": "§6", "end": "§6"}
    HANDLERS = {KnockWith: "_do_knock", Gin: "_do_gin", Pass: "_do_pass"}
    PHASE_ACTIONS = {"offer": (Draw, Pass), "discard": (Discard, KnockWith, Gin), "wall": (Draw, Pass)}
    PHASE_RULE = {"offer": "§6", "wall": "§6"}
    PHASE_WHAT = {"offer": "player {p} is offered the upcard",
                  "wall": "the stock is down to its last cards and player {p} may take the discard only to knock"}
    PHASE_CHOICES = {"offer": "draw discard (take the upcard) or pass",
                     "discard": "discard a card, knock with a card face down, or go gin with a card",
                     "wall": "draw discard (to knock at once) or pass (the hand is void)"}
    IN_HAND_PHASES = ("offer", "turn", "discard", "wall")
    GIN_IS = "is every card in melds"  # the end of the template's gin refusal (G9)

    # ----------------------------------------------------------------- hooks

    def setup(self) -> None:
        self.offer_queue: list[int] = []
        self.passed = 0  # players who passed the upcard this hand
        self.must_knock = False
        self.boxes = [0, 0]
        self._inv_boxes = (0, [0, 0])  # check_game_invariants' count of hands won: (results seen, wins)

    def after_deal(self, order: Sequence[int]) -> None:
        # G2: the non-dealer (order[0]) is offered the upcard first, then the dealer
        self.offer_queue = list(order)
        self.passed = 0
        self.must_knock = False
        self.turn = order[0]
        self.phase = "offer"

    def actor(self, phase: str) -> int | None:
        if phase == "offer":
            return self.offer_queue[0]
        return self.turn  # the wall

    def phase_actions(self, phase: str) -> list:
        if phase == "offer":
            return [DRAW_DISCARD, PASS]
        # the wall: the discard may be taken only if it lets the player knock or go gin
        return ([DRAW_DISCARD] if self._wall_take_ok(self.turn) else []) + [PASS]

    def may_take_discard(self, seat: int) -> bool:
        return self.passed != 2  # G2: after both passed the upcard, the first turn draws from the stock

    def discard_choices(self, seat: int, forbidden: int | None) -> list[int]:
        if self.must_knock:
            return []  # G6: the discard taken at the wall is knocked (or gone gin) with, never just discarded
        return super().discard_choices(seat, forbidden)

    def _value_after_taking(self, seat: int) -> int:
        top = self.discard[-1]
        forbidden = None if self.rules.may_rediscard_pickup else top
        return self._ev.after_draw(self.hands[seat] + [top], forbidden)[0]

    def _wall_take_ok(self, seat: int) -> bool:
        return self._value_after_taking(seat) <= self._limit

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        """The template's gins and knocks, one action a card in card order: a discard that leaves
        0 deadwood is a gin, never a knock (G9).

        >>> g = GinGame.new(GIN, 2, seed=1, dealer=1)
        >>> g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="7h")
        >>> g.apply(DRAW_DISCARD); [str(a) for a in g.legal_actions()][:2]
        ['gin 2c', 'knock 4h']
        """
        out = super().after_draw_actions(seat, forbidden)
        gins = {a.card for a in out if type(a) is Gin}
        return sorted((a for a in out if type(a) is Gin or a.card not in gins), key=lambda a: a.card)

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        """Gin's own refusals (the upcard offer, the forced stock draw, the wall, a knock that is a gin);
        the knock limit and gin's 0 deadwood are the template's checks."""
        kind = type(action)
        if phase == "turn" and kind is Draw and action.source == "discard" and self.passed == 2:
            raise refuse(action, player=actor, phase=phase, rule="§6",
                         reason="both players passed the upcard, so the non-dealer must draw from the stock")
        if phase == "offer" and kind is Draw and action.source != "discard":
            raise refuse(action, player=actor, phase=phase, rule="§6",
                         reason="the upcard is on offer: take it (draw discard) or pass")
        if phase == "wall" and kind is Draw:
            if action.source != "discard":
                raise refuse(action, player=actor, phase=phase, rule="§6",
                             reason=f"the stock is down to {len(self.stock)} cards (void_at_stock="
                                    f"{self.rules.void_at_stock}): no more stock draws")
            value = self._value_after_taking(actor)
            if value > self._limit:
                raise refuse(action, player=actor, phase=phase, rule="§6",
                             reason=f"at the wall the discard may be taken only to knock; with it player {actor} "
                                    f"would have {value} deadwood, the limit is {self._limit}")
        if phase == "discard" and kind is Discard and self.must_knock:
            raise refuse(action, player=actor, phase=phase, rule="§6",
                         reason="the discard was taken at the wall, so the player must knock or go gin now")
        super().check_action(action, actor, phase)
        if kind is KnockWith and self._kept_deadwood(self.hands[actor], action.card) == 0:
            raise refuse(action, player=actor, phase=phase, rule="§6",
                         reason=f"after discarding {format_card(action.card)} player {actor} has gin: "
                                f"go gin ('gin {format_card(action.card)}') rather than knock")

    def view_fields(self, seat: int) -> dict:
        ph, mine = self.phase, self.to_act == seat
        return dict(offer=ph == "offer" and mine, must_draw_stock=ph == "turn" and mine and self.passed == 2,
                    wall=ph == "wall" and mine, must_knock=ph == "discard" and mine and self.must_knock,
                    boxes=tuple(self.boxes))

    def stock_ends_hand(self) -> bool:
        return len(self.stock) <= self.rules.void_at_stock

    def on_discard(self, seat: int, card: int) -> None:
        self.passed = 0  # the offer (and a forced stock draw) is over
        if self.stock_ends_hand():  # G6
            if self.rules.wall_knock:
                self.turn = 1 - seat
                self.phase = "wall"
                return
            self.end_hand("void", None, detail=f"{len(self.stock)} cards left in the stock")
            return
        self.phase = "turn"
        self.turn = 1 - seat

    # ----------------------------------------------------------------- Gin's actions

    def on_draw(self, seat: int, card: int, source: str) -> None:
        """The upcard taken ends the offer (G2); the discard taken at the wall must be knocked with (G6)."""
        if self.phase == "offer":
            self.offer_queue = []
        elif self.phase == "wall":
            self.must_knock = True

    def _do_pass(self, action: Pass) -> None:
        if self.phase == "wall":
            self.history.append((self.turn, action))
            self.end_hand("void", None, detail="nobody knocked at the wall")
            return
        seat = self.offer_queue.pop(0)
        self.history.append((seat, action))
        self.saw(seat, "pass", self.discard[-1])
        self.passed += 1
        if self.offer_queue:
            self.turn = self.offer_queue[0]
        else:  # G2: both passed; the non-dealer draws from the stock
            self.turn = 1 - self.dealer
            self.phase = "turn"

    def _do_knock(self, action: KnockWith) -> None:
        self.discard_and_end(action, "knock")

    def _do_gin(self, action: Gin) -> None:
        self.discard_and_end(action, "gin")

    # ----------------------------------------------------------------- scoring (§6) and the game's end

    def knocker_melds(self, cards: Iterable[int], defender: Sequence[int]) -> tuple[tuple[tuple[int, ...], ...], int, int, tuple[int, ...]]:
        """G3: ``(melds shown, knocker's deadwood, defender's deadwood after lay-offs, lay-offs)``.

        Among arrangements that leave the defender the same deadwood, the first in a fixed order
        (melds as sorted tuples), so the result never depends on the order of a search."""
        kd, ways = best_arrangements(cards)
        ways = sorted(tuple(sorted(tuple(sorted(m)) for m in w)) for w in ways)
        if kd == 0:  # gin: no lay-offs (G4)
            return ways[0], 0, self._ev.deadwood(defender), ()
        best = None
        for melds in ways:
            dd, laid = best_layoffs(defender, melds, self._ev)
            if best is None or dd > best[2]:
                best = (melds, kd, dd, laid)
        return best

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:
        players = self.hand_players
        deltas = [0, 0]
        if ending == "void":
            return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=None,
                              detail=detail, deadwood=(None, None), deltas=(0, 0), scores=tuple(self.scores), hands={})
        d = 1 - by
        melds, kd, dd, laid = self.knocker_melds(self.hands[by], self.hands[d])
        before = self._ev.deadwood(self.hands[d])
        gin = ending == "gin"
        who, points = difference_score(kd, dd, gin=gin, gin_bonus=self.rules.gin_bonus,
                                       undercut_bonus=self.rules.undercut_bonus)
        winner = by if who == "knocker" else d
        deltas[winner] = points
        self.scores[winner] += points
        self.boxes[winner] += 1
        deadwood = [None, None]
        deadwood[by], deadwood[d] = kd, dd
        undercut = who == "defender"
        if gin:
            detail = f"gin: {dd} + {self.rules.gin_bonus}"
        elif undercut:
            detail = f"undercut: {kd} - {dd} + {self.rules.undercut_bonus} to player {d}"
        else:
            detail = f"{dd} - {kd}"
        if laid:
            detail += f"; player {d} laid off {format_hand(laid)}"
        return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                          detail=detail, deadwood=tuple(deadwood), deltas=tuple(deltas), scores=tuple(self.scores),
                          hands={p: tuple(self.hands[p]) for p in players}, undercut=undercut, melds=melds,
                          layoffs=laid, defender_before=before, winner=winner, points=points)

    def after_hand(self, result: HandResult) -> None:
        self.must_knock = False
        self.offer_queue = []
        self.passed = 0
        if result.winner is not None and self.scores[result.winner] >= self.rules.game_to:
            self.end_game((result.winner,), "game_to")
            return
        self.phase = "between_hands"

    def end_game(self, winners: Sequence[int], how: str) -> None:
        """G7: the winner's total adds the game bonus; both add the box bonus per hand won."""
        w = winners[0]
        totals = [self.scores[p] + self.rules.box_bonus * self.boxes[p] for p in range(2)]
        totals[w] += self.rules.game_bonus
        winners, payouts = self.finish(winners, how)
        lead = totals[w] - max(totals[p] for p in range(2) if p != w)
        self.result = GameResult(winners=winners, how=how, next_dealer=w, payouts_cents=tuple(payouts),
                                 returns=tuple(lead if p == w else -lead for p in range(2)), totals=tuple(totals),
                                 boxes=tuple(self.boxes), hands=self.hand_number)

    # ----------------------------------------------------------------- positions, snapshots and invariants

    def position_refusal(self, discard: str | Iterable | None) -> str | None:
        """A position may be set at the start of a turn, and also during the upcard offer before anyone has
        passed (``discard`` is then the upcard alone).

        >>> from rumino.cards import format_card
        >>> g = GinGame.new(GIN, 2, seed=1, dealer=1)
        >>> g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="7h")
        >>> g.phase, format_card(g.discard[-1]), g.legal_actions()[0]
        ('offer', '7h', Draw(source='discard'))
        """
        if self.phase == "offer" and self.passed == 0:
            if discard is not None and len(parse_hand(discard)) != 1:
                return "during the upcard offer the discard pile is the upcard alone."
            return None
        return super().position_refusal(discard)

    def check_score(self, seat: int, value: int) -> None:
        if not 0 <= value < self.rules.game_to:
            raise IllegalActionError(f"a score in a game still going is from 0 to {self.rules.game_to - 1}; "
                                     f"seat {seat} would have {value}.")

    def snapshot_extra(self) -> tuple:
        return (tuple(self.offer_queue), self.passed, self.must_knock, tuple(self.boxes))

    def check_game_invariants(self, deep: bool = True) -> None:
        """Gin's own invariants: two seats, boxes equal the hands won, the offer and wall states."""
        expect(self.n_seats == 2, "Gin is for two players")
        # the hands won, counted incrementally (each result once), so the check stays O(1) per action
        done, won = self._inv_boxes
        if done < len(self.results):
            won = list(won)
            for r in self.results[done:]:
                if r.winner is not None:
                    won[r.winner] += 1
            self._inv_boxes = (len(self.results), won)
        expect(won == self.boxes, f"boxes {self.boxes} differ from the hands won {won}")
        if self.phase == "offer":
            expect(len(self.discard) == 1 and self.offer_queue and self.offer_queue[0] == self.turn,
                   "the upcard offer is out of step")
        if self.phase == "wall":
            expect(len(self.stock) <= self.rules.void_at_stock and self.rules.wall_knock, "a wall without its rule")
        if self.phase in ("turn", "discard"):
            expect(len(self.stock) > self.rules.void_at_stock or self.phase == "discard",
                   "a turn with the stock at the void limit")
        if self.phase == "game_over":
            expect(max(self.scores) >= self.rules.game_to, "the game ended before anyone reached game_to")
        else:
            expect(max(self.scores) < self.rules.game_to, "a player reached game_to but the game goes on")

    def check_result(self, r: HandResult, before: list, deep: bool) -> None:
        """One hand result against rules §6, from deadwood recomputed by :mod:`rumino.hand.arrange` if ``deep``."""
        rules = self.rules
        if r.ending == "void":
            expect(r.deltas == (0, 0) and r.winner is None, f"hand {r.number}: a void hand scored")
            return
        k, d = r.by, 1 - r.by
        kd, dd = r.deadwood[k], r.deadwood[d]
        if deep:
            expect(min_deadwood(r.hands[k], GIN_MELDS) == kd, f"hand {r.number}: the knocker's deadwood is wrong")
            expect(min_deadwood(r.hands[d], GIN_MELDS) == r.defender_before,
                   f"hand {r.number}: the defender's deadwood is wrong")
            shown = [c for m in r.melds for c in m]
            expect(sorted(shown) == sorted(c for c in r.hands[k] if c in shown) and len(set(shown)) == len(shown)
                   and all(min_deadwood(m, GIN_MELDS) == 0 for m in r.melds)
                   and sum(GIN_MELDS.values[c] for c in r.hands[k] if c not in shown) == kd,
                   f"hand {r.number}: the knocker's melds do not give his deadwood")
            rest = [c for c in r.hands[d] if c not in r.layoffs]
            expect(set(r.layoffs) <= set(r.hands[d]) and min_deadwood(rest, GIN_MELDS) == dd,
                   f"hand {r.number}: the defender's deadwood after lay-offs is wrong")
        expect(dd <= r.defender_before, f"hand {r.number}: lay-offs raised the defender's deadwood")
        if r.ending == "gin":
            expect(kd == 0 and not r.layoffs and r.winner == k and r.points == dd + rules.gin_bonus,
                   f"hand {r.number}: bad gin score")
        else:
            expect(0 < kd <= rules.knock_max_deadwood, f"hand {r.number}: knock outside 1..limit")
            if dd > kd:
                expect(r.winner == k and r.points == dd - kd and not r.undercut, f"hand {r.number}: bad knock score")
            else:
                expect(r.winner == d and r.points == kd - dd + rules.undercut_bonus and r.undercut,
                       f"hand {r.number}: bad undercut score")
        expect(r.deltas[r.winner] == r.points and r.deltas[1 - r.winner] == 0, f"hand {r.number}: bad deltas")


__all__ = ["GinRules", "GIN", "PACK", "GinGame", "GinView", "HandResult", "GameResult", "Pass", "PASS", "ACTIONS",
           "best_layoffs", "layoff_options", "gin_melds", "best_arrangements", "ENDINGS"]
