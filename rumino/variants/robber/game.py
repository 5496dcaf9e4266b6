"""Robber Rummy, *Räuber-Rommé*: Rommé with table rearrangement, the ancestor of Rummikub (rules §4).

>>> ROBBER.discard_pile, ROBBER.meld_rules.set_suits
(False, 'distinct')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, ClassVar, Iterable, Sequence

from rumino.cards import JOKER, format_hand, parse_hand, to_counts
from rumino.engine.actions import DRAW_STOCK, Discard, Draw
from rumino.engine.drawdiscard import HandResult, expect
from rumino.engine.melded import MeldedGame, MeldedView
from rumino.engine.protocol import Action, ActionSet, refuse
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.table import next_in
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.hand.arrange import max_opening
from rumino.melds import ROBBER_MELDS, Meld, MeldRules, candidate_melds
from rumino.table.melds import NAMED, canonical, check_table, meld_tokens, parse_token, read_meld, token_text
from rumino.engine.knobs import check_knobs, knob
from rumino.variants.romme.rules import romme_meld_rules

HAND_SIZE = 13


@dataclass(frozen=True, kw_only=True)
class RobberRules:
    """The rules of Robber Rummy; every field is a knob of rules §4 and §7 (RR1–RR6)."""

    hand_size: int = knob(13, section="§4.1", choices=(13, 12, 11), label="Cards each",
                          doc="cards dealt to each player")
    n_jokers: int = knob(6, section="§4.1", choices=(6, 5, 4, 3, 2), label="Jokers in the pack",
                         doc="jokers shuffled in with the two decks")
    ace: str = knob("both", section="§4.2", choices=("both", "around"), label="Ace",
                    words={"both": "low or high", "around": "also round the corner"},
                    doc="A-2-3 and Q-K-A are runs; round the corner also allows K-A-2")
    joker_rules: str = knob("seed", section="§3.2", choices=("seed", "one_per_meld", "lenient"),
                            label="Jokers in a meld",
                            words={"seed": "2 naturals, no 3 jokers in a row", "one_per_meld": "one a meld",
                                   "lenient": "1 natural, no 3 in a row"},
                            doc="the Rommé limits on jokers in one meld")
    opening_min: int = knob(40, section="§4.3", choices=(40, 30, 35, 42, 50), label="Opening minimum",
                            doc="the points a player's first melds must total, from his own hand")
    discard_pile: bool = knob(False, section="§4.3", choices=(False, True), label="Play with a discard pile",
                              words={False: "place or draw one card", True: "a Rommé turn with a discard"},
                              doc="without one a turn places cards or draws one; with one it is a Rommé turn ending "
                                  "in a discard")
    illegal_manipulation_penalty: str = knob("reject", section="§4.3", choices=("reject", "draw3"),
                                             label="A wrong rearrangement",
                                             words={"reject": "is refused", "draw3": "is undone, and 3 cards drawn"},
                                             doc="what happens when a player leaves the table in a state that is "
                                                 "not all melds")
    pass_when_stock_empty: str = knob("only_if_cannot_place", section="§4.3", choices=("only_if_cannot_place", "any"),
                                      label="Pass on an empty stock",
                                      words={"only_if_cannot_place": "only if you cannot place", "any": "always"},
                                      doc="with the stock empty (and no discard pile), who may pass instead of "
                                          "placing")
    scoring: str = knob("none", section="§4.4", choices=("none", "romme_penalties"), label="Scoring",
                        words={"none": "the winner only", "romme_penalties": "Rommé penalties"},
                        doc="only the winner counts, or the others pay Rommé penalties")
    joker_penalty: int = knob(20, section="§3.3", choices=(20, 25, 30), label="Joker left in hand",
                              doc="penalty points for a joker left in hand")
    ace_penalty: int = knob(11, section="§3.3", choices=(11, 10, 15), label="Ace left in hand",
                            doc="penalty points for an ace left in hand")

    def __post_init__(self):
        check_knobs(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return romme_meld_rules(ROBBER_MELDS, n_jokers=self.n_jokers, ace=self.ace, joker_rules=self.joker_rules,
                                joker_penalty=self.joker_penalty, ace_penalty=self.ace_penalty)


ROBBER = RobberRules()
PACK = ROBBER_MELDS.pack


# ====================================================================== the game (rules §4)
#
# Decisions where rules §4 is open (a careful player's reading; each is also said where it acts):
#   D1 §4.4  a game is one deal: it ends when a player empties his hand ("out") or, with no stock
#            left, when every player in the hand passes in a row ("blocked": the lowest penalty
#            total of §3.3 wins, ties shared). Scores: 0 with scoring="none"; with
#            "romme_penalties" every player but the one who went out scores minus his penalty.
#   D2 §4.3  the opening turn lays new melds from the player's own hand only (their §3.3 values
#            summed reach opening_min) and leaves every table meld as it was; manipulation starts
#            with the player's next turn (Rummikub: no manipulation in the initial meld).
#   D3 §4.3  a placement is written as the whole table after the move, meld by meld
#            ("place 5c 6c 7c | 7c 8c 9c"), a joker with the card it stands for ("JK(8d)"), so a
#            record replays it exactly and the jokers are identified (§4.2).
#   D4 §4.3  illegal_manipulation_penalty: an action that cannot even be attempted (a card the
#            player does not hold, a word that is not a card, the wrong moment) is refused under
#            both settings; a placement that breaks (i)–(iii) or the opening rule is refused under
#            "reject", and under "draw3" it is taken as an attempt: the table stays as it was and
#            the player draws 3 cards (fewer if the stock holds fewer); it ends his turn (no
#            discard pile) or his placing for the turn (with a discard pile he still discards).
#   D5 §4.3  with the stock empty (no discard pile) only a player who cannot place passes: the
#            knob pass_when_stock_empty="only_if_cannot_place" (the default) refuses the pass of a
#            player the exact table solver finds a placement for (before opening: an opening from
#            his own hand, D2), and the listed actions then hold a placement and no pass; "any" is
#            the house rule that lets anyone pass. Nobody may pass while the stock holds a card
#            (§4.5.5: he draws). Under draw3 an illegal placement on an empty stock draws nothing
#            and ends the turn like a pass (D4). A hand still ends: with the stock empty every turn
#            either places a card or is a pass, and a round of passes blocks it.
#   D6 §4.3  discard_pile=True: 13 cards each and an upcard, the dealer's left starts; a turn is
#            draw, at most one placement, discard; going out by placing the last card needs no
#            discard (Rommé's default). The stock is not rebuilt (a reshuffle could make a hand
#            endless): when the stock is empty at the end of a turn the hand ends as "blocked".
#            The card just taken from the pile may not be discarded again (§0.5) unless it is
#            the only card left.

ENDINGS = ("out", "blocked")


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Lay cards from the hand and rearrange the table (rules §4.3): ``table`` is the whole table
    after the move, meld by meld, as tokens (a card id; ``53 + c`` for a joker standing for ``c``).

    >>> a = Place.parse_args("5c 6c 7c | 7c 8c JK(9c)".split())
    >>> str(a), Place.parse_args(str(a).split()[1:]) == a
    ('place 5c 6c 7c | 7c 8c JK(9c)', True)
    """

    table: tuple[tuple[int, ...], ...]
    word: ClassVar[str] = "place"
    verb: ClassVar[str] = "place cards on the table"
    open_universe: ClassVar[bool] = True  # placements depend on the position: a fixed list cannot hold them all

    def notation(self) -> str:
        return "place " + " | ".join(" ".join(token_text(t) for t in m) for m in self.table)

    @classmethod
    def parse_args(cls, args: list[str]) -> Place:
        groups = [g.split() for g in " ".join(args).split("|")]
        if not args or any(not g for g in groups):
            raise InvalidCardError("'place' takes the whole table after the move, melds separated by '|', "
                                   "such as 'place 5c 6c 7c | 7c 8c 9c'.")
        return cls(tuple(tuple(parse_token(t) for t in g) for g in groups))

    @classmethod
    def of(cls, melds: Iterable[Meld]) -> "Place":
        """The placement that leaves ``melds`` (:class:`~rumino.melds.Meld` readings) on the table."""
        return cls(tuple(meld_tokens(m) for m in melds))

    @classmethod
    def examples(cls) -> list:
        """Placements no position allows (three copies of a card of a two-deck pack), for refusal tests."""
        return [cls((tuple(parse_hand("2c 2c 2c")),)), cls((tuple(parse_hand("Kh Kh Kh")) + (NAMED + 12,),))]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Place nothing when the stock is empty (rules §4.3)."""

    word: ClassVar[str] = "pass"
    verb: ClassVar[str] = "pass"


PASS = Pass()
ACTIONS = ActionSet("Robber Rummy", (Draw, Discard, Place, Pass))


@dataclass(frozen=True)
class Verdict:
    """What a placement would do: ``ok`` (legal), else ``malformed`` (refused under every setting)
    or a rule broken (refused, or penalised under ``draw3``); ``melds`` and ``placed`` when ok."""

    ok: bool
    reason: str = ""
    rule: str = "§4.3"
    malformed: bool = False
    melds: tuple = ()
    placed: tuple = ()


@dataclass(frozen=True, kw_only=True)
class RobberHandResult(HandResult):
    """How the deal ended (``out`` or ``blocked``); ``deadwood`` holds each player's §3.3 penalty."""

    TEXT: ClassVar[dict] = {"out": "{who} went out", "blocked": "the hand is blocked"}


@dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """The end of a game of Robber Rummy: who won, how (``out`` or ``blocked``), the penalties left in hand
    (``returns``: each seat loses its penalty)."""

    penalties: tuple
    hands: int

    UNIT: ClassVar[str] = "penalty points"

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        out = [("penalties", "penalties left in hand", list(self.penalties))]
        if game.rules.scoring != "none":
            out.append(("scores", "final scores", list(game.scores)))
        return out

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        if self.how == "out":
            return f"{win}, having gone out."
        low = min(p for p in self.penalties if p is not None)
        return f"{win} with the lowest penalty, {low} (nobody can place and the stock is empty)."


@dataclass(eq=False, kw_only=True, slots=True)
class RobberView(MeldedView):
    """What a Robber player sees: the table melds (every joker named), who has opened, whether he
    has placed this turn, and how many players have passed in a row."""

    placed_this_turn: bool = False
    passes: int = 0
    may_place: bool = False  # the engine's word: this seat may place now (RobberGame.may_place_now)

    @property
    def table_text(self) -> str:
        """The table meld by meld, numbered from 0, every joker with the card it stands for (the
        terminal shows it; Rommé's view describes its table itself)."""
        return "\n".join(f"  [{i}] {' '.join(token_text(t) for t in meld_tokens(m))}"
                         for i, m in enumerate(self.table)) or "  (empty)"


class RobberGame(MeldedGame):
    """One game (one deal) of Robber Rummy (rules §4; the decisions D1–D6 are in the module).

    Phases: ``turn`` (without a discard pile: ``place …``, ``draw stock``, or ``pass`` on an empty
    stock; with one: draw), ``discard`` (with a discard pile: at most one ``place …``, then
    ``discard``), ``game_over``.

    >>> g = RobberGame.new(ROBBER, 2, seed=3)
    >>> g.set_position(hands={g.turn: "7c Kd"}, table=["5c 6c 7c 8c 9c"], opened={g.turn: True})
    >>> g.apply(Place.parse_args("5c 6c 7c | 7c 8c 9c".split()))
    >>> [str(m) for m in g.table], g.check_invariants()
    (['5c 6c 7c', '7c 8c 9c'], None)
    """

    NAME = "Robber Rummy"
    ENDINGS = ENDINGS
    ACTIONS = ACTIONS
    RULES_CLASS = RobberRules
    PACK = PACK
    HAND_SIZE = HAND_SIZE
    MIN_PLAYERS, MAX_SEATS = 2, 6
    VIEW = RobberView
    SECTIONS = {"deal": "§4.1", "turn": "§4.3", "end": "§4.4"}
    HANDLERS = {Place: "_do_place", Pass: "_do_pass"}
    PHASE_ACTIONS = {"turn": (Draw, Place, Pass), "discard": (Discard, Place)}
    # for rumino.compare: a turn without a draw is a placement or a pass (the first action of a player's turn), and
    # a game with the solver bot costs ~50 times a typical game's CPU (about 0.6 s), so profiles play fewer of them
    TURN_ACTIONS = (Place, Pass)
    PLAY_COST = 50
    PHASE_WHAT = {"discard": "player {p} has drawn and may place, then must discard"}
    PHASE_CHOICES = {"turn": "place cards, draw stock, or pass when the stock is empty (with a discard pile: "
                             "draw stock or draw discard)",
                     "discard": "place cards (once), or discard a card"}
    CANONICAL_TABLE = True  # D3: a placement is written in canonical readings, so the table is too
    BUTTONS = (("stock", DRAW_STOCK, "Draw stock", "draw the top card of the stock"),
               ("pass", PASS, "Pass", "place nothing (the stock is empty)"))

    # ----------------------------------------------------------------- set-up and deal

    def setup(self) -> None:
        super().setup()  # the table; the pack follows the rules' n_jokers (§4.1) through the template
        self._stock_exhausted = "end_and_score"  # D6: the stock is never rebuilt
        self.passes = 0
        self.placed_this_turn = False
        self.penalty_draws = 0  # draw3 penalties taken (D4)
        self._judged: tuple | None = None  # (history length, action, verdict): check then apply judges once
        self._found: tuple | None = None  # (position key, placement or None): the D5 check, once a turn

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size

    @property
    def upcards(self) -> int:
        return 1 if self.rules.discard_pile else 0  # D6: no discard pile, no upcard

    # ----------------------------------------------------------------- judging a placement (§4.3)

    def judge(self, seat: int, action: Place) -> Verdict:
        """Would ``action`` be a legal placement for ``seat`` now? (never changes the state)"""
        mr = self.rules.meld_rules
        if not isinstance(action.table, tuple) or not all(isinstance(m, tuple) for m in action.table):
            return Verdict(False, f"{action.table!r} is not a table: a tuple of melds, each a tuple of cards",
                           malformed=True)
        for m in action.table:
            for t in m:
                if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < NAMED + 52:
                    return Verdict(False, f"{t!r} is not a card", malformed=True)
        new = Counter(JOKER if t >= JOKER else t for m in action.table for t in m)
        old = Counter(c for m in self.table for c in m.cards)
        placed, missing = new - old, old - new
        short = placed - Counter(self.hands[seat])
        if short:
            return Verdict(False, f"player {seat} does not hold {format_hand(sorted(short.elements()))}",
                           malformed=True)
        if missing:
            return Verdict(False, f"{format_hand(sorted(missing.elements()))} would leave the table: every card on "
                                  f"the table stays on the table, jokers too", "§4.3 (ii)")
        if not placed:
            return Verdict(False, "a placement must add at least one card from the hand", "§4.3 (i)")
        melds = []
        for m in action.table:
            try:
                melds.append(read_meld(m, mr))
            except InvalidMeldError as err:
                return Verdict(False, f"every table card must end the turn in a valid meld: "
                                      f"{str(err).rstrip('.')}", "§4.3 (iii)")
        try:
            check_table(melds, mr)
        except IllegalActionError as err:  # pragma: no cover - the counts were checked above
            return Verdict(False, str(err).rstrip("."), "§4.3 (iii)")
        if not self.opened[seat]:  # D2: the opening is laid from the hand, the table untouched
            kept = Counter(melds)
            kept.subtract(Counter(self.table))
            if any(v < 0 for v in kept.values()):
                return Verdict(False, f"player {seat} has not opened, so he may not touch the table melds", "§4.3")
            value = sum(m.opening_value() * k for m, k in kept.items() if k > 0)
            if value < self.rules.opening_min:
                return Verdict(False, f"the opening melds total {value}, below the minimum "
                                      f"{self.rules.opening_min}, laid from the player's own hand", "§4.3")
        return Verdict(True, melds=tuple(melds), placed=tuple(sorted(placed.elements())))

    def _verdict(self, seat: int, action: Place) -> Verdict:
        try:
            key = (len(self.history), action)
            hash(key)
        except TypeError:  # a hand-made Place holding lists: judged (and refused) without the cache
            return self.judge(seat, action)
        if self._judged is not None and self._judged[0] == key:
            return self._judged[1]
        v = self.judge(seat, action)
        self._judged = (key, v)
        return v

    # ----------------------------------------------------------------- checks

    def stock_refusal(self) -> tuple[str, str]:
        return "§4.3", "the stock is empty" + ("" if self.rules.discard_pile else ": a player who places nothing passes")

    def may_place_now(self, phase: str) -> bool:
        """Whether the player to act may place in ``phase`` (§4.3): once a turn, and with a discard
        pile only after drawing. :meth:`check_action` gives the reason when he may not."""
        if phase not in ("turn", "discard") or self.placed_this_turn:
            return False
        return not (self.rules.discard_pile and phase == "turn")

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        kind = type(action)
        dp = self.rules.discard_pile
        if kind is Pass:
            if dp:
                raise refuse(action, player=actor, phase=phase, rule="§4.3",
                             reason="with a discard pile a turn begins with a draw; there is no passing")
            if self.stock:
                raise refuse(action, player=actor, phase=phase, rule="§4.5.5",
                             reason=f"the stock holds {len(self.stock)} card(s): a player who places nothing "
                                    f"must draw one card")
            if not self.may_pass_now(actor):
                raise refuse(action, player=actor, phase=phase, rule="§4.3",
                             reason="the stock is empty, but a card from this hand can go onto the table "
                                    "(rearranging it if need be): only a player who cannot place may pass "
                                    "(house rule: pass_when_stock_empty='any')")
        elif kind is Place:
            if dp and phase == "turn":
                raise refuse(action, player=actor, phase=phase, rule="§4.3",
                             reason="with a discard pile the turn begins with a draw; place after drawing")
            if self.placed_this_turn:
                raise refuse(action, player=actor, phase=phase, rule="§4.3",
                             reason="player has already placed this turn; now discard")
            v = self._verdict(actor, action)
            if not v.ok and (v.malformed or self.rules.illegal_manipulation_penalty == "reject"):
                raise refuse(action, player=actor, phase=phase, rule=v.rule, reason=v.reason)

    def forbidden(self) -> int | None:
        """The template's §0.5 card, but never the player's last card (D6: he may always go out with it)."""
        f = super().forbidden()
        return None if f is not None and len(self.hands[self.turn]) == 1 else f  # D6

    # ----------------------------------------------------------------- legal actions

    def listed_places(self, seat: int) -> list[Place]:
        """The placements :meth:`legal_actions` lists: each meld the hand can lay as a new meld
        (opened), or the largest opening from the hand and each single meld that opens (not opened).
        Every other legal rearrangement is accepted by :meth:`check` too, but they are too many to list."""
        hand = self.hands[seat]
        mr = self.rules.meld_rules
        out: list[Place] = []
        if self.opened[seat]:
            for cand in candidate_melds(to_counts(hand), mr):
                out.append(Place.of(self.table + (canonical(cand.reading),)))
        else:
            best = max_opening(hand, mr)
            if best.value >= self.rules.opening_min:
                out.append(Place.of(self.table + tuple(canonical(m) for m in best.melds)))
                for cand in candidate_melds(to_counts(hand), mr):
                    if cand.opening >= self.rules.opening_min:
                        out.append(Place.of(self.table + (canonical(cand.reading),)))
        return list(dict.fromkeys(out))

    def placement_found(self, seat: int) -> Place | None:
        """A legal placement for ``seat`` now, or None when he cannot place anything (§4.3, D5).

        Exact: before opening, the largest opening from his own hand (D2); after, the table solver's
        best rearrangement of the whole table with his hand (:func:`rumino.table.solver.find_placement`).
        Asked only where a pass is decided (on an empty stock), and kept for the rest of the turn."""
        key = (len(self.history), seat, tuple(self.hands[seat]), tuple(self.table))
        if self._found is not None and self._found[0] == key:
            return self._found[1]
        hand = self.hands[seat]
        mr = self.rules.meld_rules
        found = None
        if not self.opened[seat]:
            best = max_opening(hand, mr)
            if best.value >= self.rules.opening_min:
                found = Place.of(self.table + tuple(canonical(m) for m in best.melds))
        else:
            from rumino.table.solver import find_placement  # imported when first needed: the solver is heavy
            sol = find_placement([c for m in self.table for c in m.cards], hand, mr)
            if sol is not None:
                found = Place.of(tuple(canonical(m) for m in sol.melds))
        self._found = (key, found)
        return found

    def may_pass_now(self, seat: int) -> bool:
        """Whether ``seat`` may pass at the start of his turn (no discard pile): only on an empty stock,
        and under the default ``pass_when_stock_empty`` only if he cannot place (§4.3, D5)."""
        if self.rules.discard_pile or self.stock:
            return False
        return self.rules.pass_when_stock_empty == "any" or self.placement_found(seat) is None

    def start_of_turn_actions(self, seat: int) -> list:
        """Without a discard pile a turn is a placement (the listed ones), a draw (the template lists it while
        the stock holds a card) or, on an empty stock, a pass for a player who cannot place (D5); with a
        discard pile it begins with a draw."""
        if self.rules.discard_pile:
            return []
        places = self.listed_places(seat)
        if self.stock:
            return places
        if self.rules.pass_when_stock_empty == "any":
            return places + [PASS]
        if places:  # D5: he can place, so he may not pass
            return places
        if not self.opened[seat]:  # the list holds his opening whenever he has one (D2)
            return [PASS]
        found = self.placement_found(seat)  # a rearrangement the list does not hold, or nothing
        return [found] if found is not None else [PASS]

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        """With a discard pile, after the draw: the listed placements, once a turn, before the discards."""
        return [] if self.placed_this_turn else self.listed_places(seat)

    # ----------------------------------------------------------------- doing

    def _do_place(self, action: Place) -> None:
        seat = self.turn
        v = self._verdict(seat, action)
        self._judged = None
        self.history.append((seat, action))
        if not v.ok:  # D4: draw3 — the table stays as it was, the player draws up to 3 cards
            k = min(3, len(self.stock))
            for _ in range(k):
                self.hands[seat].append(self.stock.pop())
            self._moved[seat] += k
            self.penalty_draws += 1
            self._dw.pop(seat, None)
            if self.rules.discard_pile:
                self.placed_this_turn = True
                return
            self.passes = self.passes + 1 if not k else 0
            self.next_turn()
            return
        hand = self.hands[seat]
        for c in v.placed:
            hand.remove(c)
        self.let_go(seat, v.placed)  # placed on the open table
        self._moved[seat] -= len(v.placed)
        self._dw.pop(seat, None)
        self.table = v.melds
        self.opened[seat] = True
        self.passes = 0
        if not hand:
            self.end_hand("out", seat, f"player {seat} placed his last card")
            return
        if self.rules.discard_pile:
            self.placed_this_turn = True
            return
        self.next_turn()

    def on_draw(self, seat: int, card: int, source: str) -> None:
        self._moved[seat] += 1
        self.passes = 0

    def draw_ends_turn(self) -> bool:
        return not self.rules.discard_pile  # without a discard pile a draw is the whole turn (§4.3)

    def _do_pass(self, action: Pass) -> None:
        self.history.append((self.turn, action))
        self.passes += 1
        self.next_turn()

    def on_discard(self, seat: int, card: int) -> None:
        self._moved[seat] -= 1
        if not self.hands[seat]:
            self.end_hand("out", seat, f"player {seat} discarded his last card")
            return
        self.next_turn()

    def next_turn(self) -> None:
        """The next player's turn, or the end of a blocked hand: every player passed in a row (without a
        discard pile), or the stock ran out (with one)."""
        self.placed_this_turn = False
        self.pickup = None
        self.drawn = None
        n_in = sum(self.in_hand)
        if not self.rules.discard_pile and self.passes >= n_in:
            self.end_hand("blocked", None, "every player passed in a row")
            return
        if self.rules.discard_pile and not self.stock:
            self.end_hand("blocked", None, "the stock ran out")
            return
        self.phase = "turn"
        self.turn = next_in(self.turn, self.in_hand)

    # ----------------------------------------------------------------- scoring (§4.4, D1)

    def penalty(self, seat: int) -> int:
        """The §3.3 penalty of ``seat``'s hand (ace ``ace_penalty``, joker ``joker_penalty``)."""
        values = self.rules.meld_rules.values
        return int(sum(int(values[c]) for c in self.hands[seat]))

    def score_hand(self, ending: str, by: int | None, detail: str) -> RobberHandResult:
        players = self.hand_players
        pen: list = [None] * self.n_seats
        deltas = [0] * self.n_seats
        for p in players:
            pen[p] = self.penalty(p)
            if self.rules.scoring == "romme_penalties" and p != by:
                deltas[p] = -pen[p]
            self.scores[p] += deltas[p]
        if ending == "out":
            self._winners = (by,)
        else:
            low = min(pen[p] for p in players)
            self._winners = tuple(p for p in players if pen[p] == low)
        return RobberHandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                                detail=detail, deadwood=tuple(pen), deltas=tuple(deltas), scores=tuple(self.scores),
                                hands={p: tuple(self.hands[p]) for p in players})

    def after_hand(self, result: RobberHandResult) -> None:
        self.placed_this_turn = False
        self.end_game(self._winners, result.ending)

    def end_game(self, winners: Sequence[int], how: str) -> None:
        winners, payouts = self.finish(winners, how)
        penalties = self.results[-1].deadwood
        self.result = GameResult(winners=winners, how=how, next_dealer=winners[0], payouts_cents=tuple(payouts),
                                 returns=tuple(-(p or 0) for p in penalties), penalties=penalties,
                                 hands=self.hand_number)

    # ----------------------------------------------------------------- views, positions, snapshots

    def view_hand_size(self, seat: int) -> int:
        """Hands change size in Robber: a view's hand size is what the seat holds between turns now."""
        return len(self.hands[seat]) - (1 if self.phase == "discard" and self.turn == seat else 0)

    def view_fields(self, seat: int) -> dict:
        return dict(super().view_fields(seat), passes=self.passes,
                    placed_this_turn=self.placed_this_turn and self.turn == seat,
                    may_place=self.turn == seat and self.may_place_now(self.phase))

    def snapshot_extra(self) -> tuple:
        return super().snapshot_extra() + (self.passes, self.placed_this_turn, self.penalty_draws,
                                           tuple(self._moved))

    def read_table_meld(self, text: str) -> Meld:
        try:
            return read_meld(Place.parse_args(str(text).split()).table[0], self.rules.meld_rules)
        except InvalidMeldError as err:
            raise IllegalActionError(f"the table meld {text!r} is not valid: {err}") from None

    def position_refusal(self, discard: str | Iterable | None) -> str | None:
        if discard is not None and parse_hand(discard) and not self.rules.discard_pile:
            return "this game is played without a discard pile (discard_pile=False)."
        return super().position_refusal(discard)

    def after_layout(self) -> None:
        self._base = [len(h) for h in self.hands]  # cards held after the deal, for the invariants
        self._moved = [0] * self.n_seats  # cards in (draws) minus cards out (placed, discarded) since then
        self.passes = 0
        self.placed_this_turn = False
        self._judged = None
        self._found = None

    # ----------------------------------------------------------------- invariants (the template's, and these)

    def expected_hand_size(self, seat: int) -> int:
        """What the seat's actions leave it: the cards dealt, plus its draws, less what it placed or discarded."""
        return self._base[seat] + self._moved[seat]

    def check_result(self, r: RobberHandResult, before: list, deep: bool) -> None:
        """The penalties scored as rules §4.4 says: nothing under ``scoring="none"``, else every player but the
        one who went out loses his penalty."""
        if self.rules.scoring == "none":
            expect(not any(r.deltas), "a score with scoring='none'")
        else:
            expect(all(r.deltas[p] == (0 if p == r.by else -r.deadwood[p]) for p in r.players),
                   f"hand {r.number}: the penalties are not scored as rules §4.4 says")

    def check_game_invariants(self, deep: bool) -> None:
        """The table (every meld a valid reading, §4.2, §4.3 (iii)), the turn and the passes, and the one
        result: the player out, or the lowest penalty of a blocked hand."""
        super().check_game_invariants(deep)
        if self.phase in ("turn", "discard"):
            expect(bool(self.hands[self.turn]), f"seat {self.turn} acts with no cards")
            expect(self.passes < sum(self.in_hand), "every player passed but the hand goes on")
            expect(not self.passes or not self.stock, "a pass with cards in the stock")
            if self.rules.discard_pile:
                expect(self.stock or self.phase == "discard", "a turn begins with the stock empty")
            else:
                expect(not self.discard and self.phase == "turn", "a discard pile in a game without one")
        if self.phase == "game_over":
            res, last = self.result, self.results[-1]
            expect(res is not None and len(self.results) == 1, "the game is over without its one result")
            if last.ending == "out":
                expect(res.winners == (last.by,) and not self.hands[last.by], "the winner still holds cards")
            else:
                low = min(last.deadwood[p] for p in last.players)
                expect(set(res.winners) == {p for p in last.players if last.deadwood[p] == low},
                       "a blocked hand is not won by the lowest penalty")

__all__ = ["RobberRules", "ROBBER", "PACK", "RobberGame", "RobberView", "Place", "Pass", "PASS", "ACTIONS",
           "GameResult", "RobberHandResult", "Verdict", "ENDINGS", "read_meld", "meld_tokens", "HAND_SIZE"]
