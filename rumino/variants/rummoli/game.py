"""Rummoli: the Irwin Toy poker-then-stops game with a 9-section play sheet (rules §2).

Rummoli has no melds: its "rummy" phase is a stops game, so it has no meld
rules and no deadwood (``RUMMOLI.meld_rules`` is ``None``). It is not a
draw-and-discard game either, so :class:`RummoliGame` stands on the turn game
every game shares (:class:`~rumino.engine.base.TurnGame`: seats, seeds, dispatch,
views, snapshots, card invariants), keeps its chips in the integer ledger
(:mod:`rumino.engine.ledger`, the sheet as its pot) and is seeded by the one scheme
(:mod:`rumino.playing.seeding`).

>>> RUMMOLI.initial_chips, len(SECTIONS)
(100, 9)
>>> from rumino.engine.protocol import play
>>> from rumino.players import make_players
>>> g = play(RummoliGame.new(RUMMOLI, 4, seed=3), make_players("default,default,random,random", seed=1))
>>> g.game_over, sum(g.chips) == 4 * RUMMOLI.initial_chips, sum(g.board)
(True, True, 0)

One deal, step by step
----------------------
``new`` cuts for the first dealer (high card, ace high, §2.1), takes the antes
(one chip on each of the nine sections from every player, §2.1) and deals all
52 cards to the players and the widow. Then, in phases:

``widow``
    the dealer ``swap`` s his hand unseen for the widow or keeps it: ``keep`` offers the
    widow for auction, ``keep unsold`` does not (§2.3: the sale is his choice; with
    ``widow_auction="none"`` there is only ``keep``);
``auction``
    if he kept it and offered the widow, the others ``bid N`` or ``pass`` for it (open
    ascending or sealed, ``widow_auction``); the winner pays the dealer and swaps. The hand
    given up (or the unsold widow) is the dead hand;
``betting``
    with ``poker_method="betting"``: ``check``, ``bet``, ``call``, ``raise``, ``fold``
    at fixed limit (``bet_size``, ``raise_cap`` raises); with the default showdown
    there is no decision: the best five cards of every hand are compared at once (§2.4);
``stops``
    ``play CARD``: the poker winner leads his lowest card, the holder of the next
    higher card of the suit must play it, the last player changes colour after a stop
    (§2.5); pay cards and the A♦K♦ and 7-8-9 combinations take their sections;
``claim``
    with ``manual_claims``: ``claim`` the sections just earned, or ``forgo`` them;
``between_deals``
    the next dealer ``deal`` s.

Decisions where the rules are open (each a careful player's choice, written here)
--------------------------------------------------------------------------
* **The end of a game** (§2.6 leaves it to the table): the game lasts ``rounds``
  rounds of the deal (each player deals ``rounds`` times: ``rounds × N`` deals; the
  first dealer's advantage is shared out), and ends earlier when fewer than two
  players can play a deal. "Until one player has all the chips" is ``rounds`` set
  high (the limit of the evening). At the end the chips left on the sheet go to one
  player by ``final_sweep``; the player(s) with the most chips win.
* **Who takes part in the final sweep:** every player still in the game (one who
  sits out for want of the ante still cuts; an eliminated one does not). Ties re-cut
  (``cut``) or are dealt again (``poker_deal``) among the tied players.
* **A player short of the ante** (``short_ante``): ``sit_out`` (default, §2.6) — he
  is not dealt in while he cannot pay 9 chips; ``eliminated`` — he leaves the game;
  ``partial`` — he antes one chip per section, in the sheet's order, as far as his
  chips go, and plays (with no chips left he is out).
* **Nobody pays what he does not have:** a payment (per-card payments, deadlock,
  fines) is capped at the payer's chips; the rest is forgiven. In the betting a
  player may bet, raise or call only if he can pay the whole amount (no all-in,
  so no side pots); one who cannot call may only fold.
* **The widow auction is the dealer's choice** (§2.3 says he *may* auction it): a dealer
  who keeps his hand either offers the widow (``keep``, the notation records always had)
  or leaves it unsold (``keep unsold``): it is then the dead hand at once. Both are offered
  whenever the rules have an auction, even when nobody turns out to be allowed to bid
  (under ``widow_paycard_restriction`` that depends on the others' hidden cards, which
  the dealer's choices must not reveal); an offer nobody may take leaves the widow unsold.
  A player holding a pay card under ``widow_paycard_restriction`` is not asked to bid; the
  pay cards are the seven cards drawn on the sheet (10♠ J♦ Q♣ K♥ A♠ A♦ K♦; a 7, 8 or 9
  alone pays nothing). In the sealed auction each player bids once (or passes); the
  highest bid wins, a tie goes to the bidder nearest the dealer's left.
* **What a bid may be:** §2.3 gives a minimum (1 chip) and, in the open auction, a step
  (more than the bid before), but no maximum, so the chips on the sheet do not cap a bid
  (an earlier version of the engine capped them there; the rules set no such limit). The one
  bound is the bidder's own chips: the winner pays his bid in full to the dealer, and
  nobody pays what he does not have (the note above), so a bid above his chips is refused
  rather than forgiven in part. The bid goes from the buyer to the dealer and nowhere else,
  so every chip stays with a player or on the sheet.
* **One betting round** (the hands are not changed, so there is nothing to bet on
  twice); the player on the dealer's left opens. A bet is not a raise: ``raise_cap``
  counts the raises after it.
* **Change of colour** (§2.5.4): under ``irwin`` the duty passes left to the first
  player holding the other colour; nobody: deadlock. Under ``fine_per_pass`` the last
  player and each player after him who cannot change colour pays 1 chip onto the
  Rummoli section, going round once; nobody: deadlock. Under ``any_colour_fallback``
  the duty passes left as under ``irwin``, and when nobody holds the other colour
  the last player leads his lowest card of any colour (so no deadlock).
* **Manual claims** (§2.5.5): after a paying card the player is asked at once
  (``claim`` or ``forgo``); forgone chips stay on their sections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, ClassVar, Iterable

import numpy as np

from rumino.cards import STANDARD_PACK, format_card, format_hand, parse_hand
from rumino.engine.actions import Deal
from rumino.engine.base import TurnGame
from rumino.engine.ledger import POT, Ledger
from rumino.engine.protocol import Action, ActionSet, PlayerView, one_card, phase_words, refuse
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.words import plural
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.hand.poker import describe as describe_poker, evaluate_batch, hand_value
from rumino.engine.knobs import check_knobs, knob

# rules §2.2, the play sheet.
SECTIONS = ("rummoli", "poker", "10s", "Jd", "Qc", "Kh", "As", "Ad+Kd", "7-8-9")
RUMMOLI_SECTION, POKER_SECTION, AK_SECTION, SEQ_SECTION = 0, 1, 7, 8


@dataclass(frozen=True, kw_only=True)
class RummoliRules:
    """The rules of Rummoli; every field is a knob of rules §2.7 (and §2.6 for the length of a game)."""

    initial_chips: int = knob(100, section="§2.1", low=9, high=1_000_000, label="Chips at the start",
                              doc="chips each player starts the game with")
    widow_deal_position: str = knob("last", section="§2.1", choices=("last", "first"),
                                    label="Widow's card each round",
                                    words={"last": "dealt last", "first": "dealt first"},
                                    doc="when the widow takes its card in each round of the deal")
    widow_paycard_restriction: bool = knob(False, section="§2.3", choices=(False, True),
                                           label="Pay-card holders keep their hand",
                                           doc="a player who holds a pay card may not swap for the widow or bid on "
                                               "it")
    widow_auction: str = knob("open", section="§2.3", choices=("open", "sealed", "none"), label="Widow sale",
                              words={"open": "open bidding", "sealed": "sealed bids", "none": "not sold"},
                              doc="how the widow is sold")
    poker_method: str = knob("showdown", section="§2.4", choices=("showdown", "betting"), label="Poker pot won by",
                             words={"showdown": "a showdown", "betting": "a betting round"},
                             doc="how the poker pot is won")
    bet_size: int = knob(1, section="§2.4", low=1, high=100, label="Bet size", doc="the fixed bet or raise, in chips")
    raise_cap: int = knob(3, section="§2.4", low=0, high=20, label="Raises per round",
                          doc="raises allowed in the betting round")
    colour_change_rule: str = knob("irwin", section="§2.5", choices=("irwin", "fine_per_pass", "any_colour_fallback"),
                                   label="Leader cannot change colour",
                                   words={"irwin": "the lead passes on",
                                          "fine_per_pass": "the lead passes on, a chip a pass",
                                          "any_colour_fallback": "the lead passes on, then any colour"},
                                   doc="when the player who must change colour holds none of the other colour, the "
                                       "lead passes left to the first player who does; a fine of 1 chip each for "
                                       "those who cannot, or, when nobody can, the lowest card of any colour")
    manual_claims: bool = knob(False, section="§2.5", choices=(False, True), label="Claim pay cards aloud",
                               doc="a pay card must be claimed at once, or its chips stay on the sheet")
    final_sweep: str = knob("cut", section="§2.6", choices=("cut", "poker_deal"), label="Chips left at the end go",
                            words={"cut": "to the winner of a cut", "poker_deal": "to the winner of a poker deal"},
                            doc="who takes the chips still on the sheet when the game ends")
    rounds: int = knob(1, section="§2.6", low=1, high=10_000, label="Rounds of the deal",
                       doc="each player deals this many times in a game")
    short_ante: str = knob("sit_out", section="§2.6", choices=("sit_out", "eliminated", "partial"),
                           label="A player short of the ante",
                           words={"sit_out": "sits out the deal", "eliminated": "is out of the game",
                                  "partial": "antes what he has"},
                           doc="what happens to a player who cannot pay the 9-chip ante")

    def __post_init__(self):
        check_knobs(self)

    @property
    def meld_rules(self) -> None:
        return None


RUMMOLI = RummoliRules()
PACK = STANDARD_PACK

# --------------------------------------------------------------------------- cards in Rummoli's order

# ids are suit * 13 + rank, rank 0 = ace (rumino.cards). Rummoli's ace is high (§2.1): strength 0 = 2 … 12 = ace.
STRENGTH = tuple((c % 13 - 1) % 13 for c in range(52))
RED = tuple(c // 13 in (2, 3) for c in range(52))  # ♦ ♥
SINGLE_PAY = {9: 2, 36: 3, 24: 4, 51: 5, 0: 6}  # 10♠ J♦ Q♣ K♥ A♠ → their sections (§2.2)
KD, AD = 38, 26
PAY_CARDS = frozenset((*SINGLE_PAY, KD, AD))  # the cards drawn on the sheet (widow_paycard_restriction)


def next_up(c: int) -> int | None:
    """The next higher card of the same suit, or None after the ace (the suit is closed, §2.5.3).

    >>> format_card(next_up(38)), next_up(26)   # K♦ → A♦; after A♦ nothing
    ('Ad', None)
    """
    r = c % 13
    if r == 0:
        return None
    return c - 12 if r == 12 else c + 1


def hand_sizes(n_players: int) -> tuple[int, ...]:
    """The hand sizes in deal order, widow last (rules §2.1 table): 52 cards over N + 1 hands.

    >>> hand_sizes(4), hand_sizes(2)
    ((11, 11, 10, 10, 10), (18, 17, 17))
    """
    k = n_players + 1
    q, r = divmod(52, k)
    return tuple(q + 1 if i < r else q for i in range(k))


@lru_cache(maxsize=None)
def _five_of(n: int) -> np.ndarray:
    """The positions of every five of ``n`` cards, as :func:`itertools.combinations` lists them (made once
    a size: a showdown of 18 cards has 8,568 fives)."""
    if not 5 <= n <= 18:
        raise ValueError(f"a poker hand is 5 to 18 cards, not {n} (rules §2.4).")
    return np.array(list(combinations(range(n), 5)), dtype=np.int64)


def best_five(cards: Iterable[int]) -> tuple[int, ...]:
    """The five cards a player shows at the poker showdown: a best five-card hand of ``cards`` (5 … 18 cards,
    §2.4), highest ranks first. Several sets can tie; the first in card order is shown.

    >>> from rumino.cards import parse_hand
    >>> format_hand(best_five(parse_hand("2c 7h 7s 9d Kc 7c 9s Ah")))
    '7s 7c 7h 9s 9d'
    """
    hand = np.array(sorted(cards), dtype=np.int64)
    combos = hand[_five_of(len(hand))]  # every five, in the order combinations() gives them
    best = combos[int(np.argmax(evaluate_batch(combos)))]
    counts = {}
    for c in best:
        counts[c % 13] = counts.get(c % 13, 0) + 1
    return tuple(int(c) for c in sorted(best, key=lambda c: (-counts[c % 13], -STRENGTH[c], c // 13)))


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """The dealer takes the widow unseen; his own hand becomes the dead hand (§2.3)."""
    word: ClassVar[str] = "swap"
    verb: ClassVar[str] = "swap with the widow"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """The dealer keeps his hand (§2.3). ``keep`` offers the widow for auction when the rules have one;
    ``keep unsold`` (``sell=False``) does not: the widow is the dead hand at once. Selling is his choice."""
    sell: bool = True
    word: ClassVar[str] = "keep"
    verb: ClassVar[str] = "keep the hand"

    def notation(self) -> str:
        return "keep" if self.sell else "keep unsold"

    @classmethod
    def parse_args(cls, args: list[str]) -> Keep:
        if not args:
            return cls()
        if len(args) == 1 and args[0].lower() == "unsold":
            return cls(sell=False)
        raise InvalidCardError("'keep' takes nothing (sell the widow) or 'unsold' (no sale): 'keep unsold'.")

    @classmethod
    def examples(cls) -> list[Keep]:
        return [cls(), cls(sell=False)]


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``amount`` chips for the widow (§2.3)."""
    amount: int
    word: ClassVar[str] = "bid"
    verb: ClassVar[str] = "bid"
    MAX_EXAMPLE: ClassVar[int] = 600  # the conformance test's universe: 4 players × at most 150 chips

    def notation(self) -> str:
        return f"bid {self.amount}"

    @classmethod
    def parse_args(cls, args: list[str]) -> Bid:
        if len(args) != 1 or not args[0].isdigit() or len(args[0]) > 9:
            raise InvalidCardError("'bid' takes a whole number of chips, such as 'bid 3'.")
        return cls(int(args[0]))

    @classmethod
    def examples(cls) -> list[Bid]:
        return [cls(k) for k in range(0, cls.MAX_EXAMPLE + 1)]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Make no bid for the widow (§2.3)."""
    word: ClassVar[str] = "pass"
    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Check(Action):
    """Bet nothing while nobody has bet (§2.4)."""
    word: ClassVar[str] = "check"
    verb: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Open the betting with ``bet_size`` chips (§2.4)."""
    word: ClassVar[str] = "bet"
    verb: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the current bet (§2.4)."""
    word: ClassVar[str] = "call"
    verb: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Match the bet and raise it by ``bet_size`` (§2.4)."""
    word: ClassVar[str] = "raise"
    verb: ClassVar[str] = "raise"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """Give up the poker pot (the cards are still played in the stops, §2.4–§2.5)."""
    word: ClassVar[str] = "fold"
    verb: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` face up in the stops (§2.5)."""
    card: int
    word: ClassVar[str] = "play"
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args: list[str]) -> Play:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Take the sections just earned (``manual_claims``, §2.5.5)."""
    word: ClassVar[str] = "claim"
    verb: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Forgo(Action):
    """Leave the sections just earned on the sheet (``manual_claims``, §2.5.5)."""
    word: ClassVar[str] = "forgo"
    verb: ClassVar[str] = "forgo the claim"


SWAP, KEEP, PASS, CHECK, BET, CALL, RAISE, FOLD, CLAIM, FORGO, DEAL = (
    Swap(), Keep(), Pass(), Check(), Bet(), Call(), Raise(), Fold(), Claim(), Forgo(), Deal())
KEEP_UNSOLD = Keep(sell=False)  # the dealer keeps his hand and does not auction the widow (§2.3)
ACTIONS = ActionSet("Rummoli", (Swap, Keep, Bid, Pass, Check, Bet, Call, Raise, Fold, Play, Claim, Forgo, Deal))

PHASES = {
    "widow": ((Swap, Keep), "§2.3", "the dealer decides whether to swap his hand for the widow, and if he "
              "keeps it whether to auction the widow", "swap or keep (keep: offer the widow for auction; keep unsold: no sale)"),
    "auction": ((Bid, Pass), "§2.3", "the widow is being auctioned", "bid N or pass"),
    "betting": ((Check, Bet, Call, Raise, Fold), "§2.4", "the poker pot is being bet",
                "check, bet, call, raise or fold"),
    "stops": ((Play,), "§2.5", "the stops are being played", "play a card"),
    "claim": ((Claim, Forgo), "§2.5", "a pay card or combination was just played", "claim or forgo"),
    "between_deals": ((Deal,), "§2.1", "the deal is over and the next dealer deals", "deal"),
    "game_over": ((), "§2.6", "the game is over", "none"),
}


# --------------------------------------------------------------------------- results and views


@dataclass(frozen=True)
class DealResult:
    """What happened in one deal: the widow, the poker pot, the sections won, and how it ended.

    ``won`` lists ``(section, seat, chips)`` in the order they were taken; ``payments``
    is what each seat received (+) or paid (−) when a player went out; ``deadlock`` what
    each seat put on the Rummoli section at a deadlock; ``fines`` the chips paid under
    ``fine_per_pass``; ``chips`` every seat's chips after the deal.
    """

    number: int
    dealer: int
    players: tuple[int, ...]
    widow_to: int | None
    widow_how: str  # "swap", "auction", "unsold"
    bid: int
    poker_how: str  # "showdown" or "fold"
    poker_winners: tuple[int, ...]
    poker_values: tuple
    poker_won: int
    won: tuple
    ending: str  # "rummoli" or "deadlock"
    out: int | None
    payments: tuple[int, ...]
    deadlock: tuple[int, ...]
    fines: tuple[int, ...]
    chips: tuple[int, ...]
    played: tuple

    @property
    def by(self) -> int | None:
        """Who ended the deal, as every hand's result says it: the player who went out (None at a deadlock)."""
        return self.out

    def describe(self) -> str:
        if self.ending == "rummoli":
            return f"deal {self.number}: player {self.out} went out and takes the Rummoli section"
        return f"deal {self.number}: deadlock, nobody could change colour"


@dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """Who won (most chips), how the game ended (``"rounds"``: the agreed deals were played; ``"last_player"``:
    fewer than two could play), each seat's chips and what it won or lost (``returns``), and the final sweep
    of the sheet (§2.6).

    ``pool_cents`` and ``payouts_cents`` are the names records read; here they hold chips: the chips swept
    from the sheet at the end (:attr:`swept`) and who took them (:attr:`payouts`).
    """

    swept_by: int | None
    sweep_draws: tuple
    chips: tuple[int, ...]

    UNIT: ClassVar[str] = "chips"
    ZERO_SUM: ClassVar[bool] = True
    PERIOD: ClassVar[str] = "deal"

    @property
    def swept(self) -> int:
        return self.pool_cents

    @property
    def payouts(self) -> tuple[int, ...]:
        return self.payouts_cents

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        return [("chips", "final chips", list(self.chips))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        how = "" if self.how == "rounds" else " (fewer than two players could go on)"
        return f"{win} with the most chips, {max(self.chips)}{how}."

    def afterword(self, game: Any, name: Callable[[int], str], you: int | None = None) -> list[str]:
        """The final sweep (§2.6), if chips were left on the sheet."""
        if not self.swept or self.swept_by is None:
            return []
        rounds = []
        for draws in self.sweep_draws:  # every round, ties drawn again among the tied
            if game.rules.final_sweep == "cut":
                rounds.append(", ".join(f"{name(p)} {format_card(c, unicode=True)}" for p, c in draws))
            else:
                rounds.append(", ".join(f"{name(p)} {describe_poker(hand_value(h))}" for p, h in draws))
        how = ("the highest card of a cut takes them, ace high" if game.rules.final_sweep == "cut"
               else "the best of a five-card poker hand dealt to each takes them")
        shown = "; a tie, again: ".join(rounds)
        return [f"the final sweep: {plural(self.swept, 'chip')} were left on the sheet, and {how} (rules §2.6): "
                f"{shown} — {name(self.swept_by)} {'take' if self.swept_by == you else 'takes'} them"]


@dataclass
class StopsKnowledge:
    """Where the hidden cards must or cannot lie during the stops (:meth:`RummoliGame.stops_knowledge`):
    ``fixed[seat]``, cards in that hand; ``barred[seat]``, cards it cannot hold; ``dead``, cards in the
    dead hand; ``some[seat]``, cards of which that hand holds at least one (the colour a waiting leader
    was asked for)."""

    fixed: dict
    barred: dict
    dead: set
    some: dict = field(default_factory=dict)


@dataclass(eq=False, kw_only=True, slots=True)
class RummoliView(PlayerView):
    """What one player sees: the sheet, everyone's chips, the stops so far, the poker result.

    ``board`` lists the chips on each section in :data:`SECTIONS` order (``board_chips`` as a
    dict, what :func:`rumino.render.rummoli.board_svg` takes). The dead hand and the widow
    stay unseen (only their sizes); sealed bids stay secret.
    """

    rules: Any
    action_set: ActionSet
    dealer: int
    hand_number: int
    deals_total: int
    chips: tuple[int, ...]
    board: tuple[int, ...]
    in_game: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    widow_size: int
    dead_size: int
    widow_to: int | None
    high_bid: int
    high_bidder: int | None
    bidders: tuple[int, ...]
    bet_level: int
    committed: tuple[int, ...]
    raises: int
    folded: tuple[bool, ...]
    poker_winners: tuple[int, ...]
    poker_values: tuple
    played: tuple  # ((seat, card), …) this deal, in order
    runs: tuple  # the stops as runs: ((seat, card), …) per lead
    need: int | None  # the card that must be played now (a continuation), or None at a lead
    lead_colour: str | None  # "red"/"black" at a change of colour, None at the opening lead (or any colour)
    claimable: tuple[str, ...]
    widow_how: str = "unsold"  # "swap", "auction" or "unsold" (so far this deal)
    poker_how: str = ""  # "showdown" or "fold" once the poker pot is won
    poker_shown: tuple = ()  # the five cards each player showed at the showdown (None: not shown)
    last_result: Any = None
    result: Any = None

    @property
    def board_chips(self) -> dict[str, int]:
        return dict(zip(SECTIONS, self.board))

    @property
    def hand_in_order(self) -> list[int]:
        """The hand as a player holds it in the stops: by suit, each suit from the 2 up to the ace (ace high)."""
        return sorted(self.hand, key=lambda c: (c // 13, STRENGTH[c]))

    @property
    def my_chips(self) -> int:
        return self.chips[self.seat]

    def describe(self, *, unicode: bool = True) -> str:
        """A few lines for a person at the terminal."""
        fmt = lambda cards: format_hand(sorted(cards, key=lambda c: (c // 13, STRENGTH[c])), unicode=unicode)  # noqa
        lines = [f"deal {self.hand_number} of {self.deals_total} · dealer P{self.dealer} · {phase_words(self.phase)}"]
        lines.append("chips: " + "  ".join(f"P{p}{'*' if p == self.seat else ''}={c}"
                                           + ("" if self.in_game[p] else " (out)") for p, c in enumerate(self.chips)))
        lines.append("sheet: " + "  ".join(f"{k}={v}" for k, v in zip(SECTIONS, self.board)))
        if self.hand:
            poker = self.phase in ("widow", "auction", "betting") and len(self.hand) >= 5
            lines.append(f"your hand: {fmt(self.hand)}   (poker: {describe_poker(hand_value(tuple(self.hand)))})"
                         if poker else f"your hand: {fmt(self.hand)}")
        if self.phase == "auction":
            lines.append(f"widow auction: high bid {self.high_bid}"
                         + (f" by P{self.high_bidder}" if self.high_bidder is not None else ""))
        if self.phase == "betting":
            lines.append(f"betting: level {self.bet_level}, you have put in {self.committed[self.seat]}")
        if self.poker_winners:
            lines.append("poker pot won by " + ", ".join(f"P{p} ({describe_poker(self.poker_values[p])})"
                                                          for p in self.poker_winners))
        if self.runs:
            last = self.runs[-1]
            lines.append("this run: " + " ".join(f"{format_card(c, unicode=unicode)}(P{s})" for s, c in last))
        if self.claimable:
            lines.append(f"you may claim: {', '.join(self.claimable)}")
        if self.my_turn:
            items = [f"[{i}] {a}" for i, a in enumerate(self.legal_actions, 1)]
            bids = [i for i, a in enumerate(self.legal_actions) if isinstance(a, Bid)]
            if len(bids) > 4:  # bids run up to the bidder's chips (§2.3): show the first and the last
                items[bids[1]:bids[-1]] = ["…"]
            lines.append("choices: " + "  ".join(items))
        return "\n".join(lines)


class BoardLedger(Ledger):
    """The chip ledger with the sheet as its pot: chips go onto sections and come off them in part
    (its :meth:`~rumino.engine.ledger.Ledger.check` says "pot" for the sheet).

    >>> led = BoardLedger(2); led.pay_in(0, 9, "ante"); led.take(1, 4, "win:10s"); led.check(); led.pot
    5
    """

    __slots__ = ()

    def take(self, seat: int, amount: int, reason: str) -> None:
        """``seat`` takes ``amount`` chips off the sheet (a section won, the final sweep)."""
        amount = self._amount(amount)
        if amount > self.pot:
            raise AssertionError(f"the sheet holds {self.pot} chips; {amount} cannot be taken")
        self.pot -= amount
        self.received[seat] += amount
        self.log.append((POT, seat, amount, reason))


# --------------------------------------------------------------------------- the game


class RummoliGame(TurnGame):
    """A game of Rummoli (rules §2) between 2 and 8 players; see the module docstring.

    It stands on :class:`~rumino.engine.base.TurnGame` (seats, seeds, dispatch, views, snapshots,
    the card invariants); what is its own is the deal with the widow, the poker and the stops.
    """

    NAME: ClassVar[str] = "Rummoli"
    ACTIONS: ClassVar[ActionSet] = ACTIONS
    RULES_CLASS: ClassVar[type] = RummoliRules
    PACK = STANDARD_PACK
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 8
    SHEET: ClassVar[tuple] = SECTIONS  # the play sheet's sections, in rules §2.2's order (before the name is reused)
    SECTIONS: ClassVar[dict] = {"deal": "§2.1", "turn": "§2.5", "end": "§2.6", "actions": "§2"}
    ENDINGS: ClassVar[tuple] = ("rummoli", "deadlock")
    VIEW: ClassVar[type] = RummoliView
    LEDGER: ClassVar[type] = BoardLedger
    IN_HAND_PHASES: ClassVar[tuple] = ("deal", "widow", "auction", "betting", "stops", "claim")
    PHASE_ACTIONS: ClassVar[dict] = {ph: row[0] for ph, row in PHASES.items()}
    PHASE_RULE: ClassVar[dict] = {ph: row[1] for ph, row in PHASES.items()}
    PHASE_WHAT: ClassVar[dict] = {ph: row[2] for ph, row in PHASES.items()}
    PHASE_CHOICES: ClassVar[dict] = {ph: row[3] for ph, row in PHASES.items()}
    PHASE_LEGAL: ClassVar[dict] = {"widow": "_widow_actions", "auction": "_bid_actions", "betting": "_bet_actions",
                                   "stops": "_play_actions", "claim": "_claim_actions", "between_deals": "_deal_actions",
                                   "deal": "_no_actions"}
    HANDLERS: ClassVar[dict] = {Swap: "_do_widow", Keep: "_do_widow", Bid: "_do_bid", Pass: "_do_bid",
                                **{cls: "_do_bet" for cls in (Check, Bet, Call, Raise, Fold)}, Play: "_do_play",
                                Claim: "_do_claim", Forgo: "_do_claim", Deal: "_do_deal"}
    ANTE: ClassVar[int] = 9  # one chip on each of the nine sections (§2.1)
    deal_sizes = staticmethod(hand_sizes)  # the hand sizes a deal gives N players, the widow last (rules §2.1)

    def setup(self) -> None:
        n = self.initial_players
        self.deals_total = self.rules.rounds * n
        self.chips = [self.rules.initial_chips] * n
        self.board = [0] * len(SECTIONS)
        self.widow: list[int] = []
        self.dead: list[int] = []
        self.played: list[tuple[int, int]] = []
        self.run_starts: list[int] = []
        self._reset_deal_state()

    def choose_first_dealer(self) -> int:
        """High card deals, ace high (§2.1); the cuts are kept in ``first_dealer_draws``."""
        dealer, self.first_dealer_draws = self._cut(list(range(self.n_seats)))
        return dealer

    def deal(self) -> None:
        self._begin_deal()

    # ------------------------------------------------------------------ state of one deal

    def _reset_deal_state(self) -> None:
        n = len(self.chips)
        self.widow_to: int | None = None
        self.widow_how = "unsold"
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.bidders: list[int] = []
        self.sealed: dict[int, int] = {}
        self.bet_level = 0
        self.committed = [0] * n
        self.raises = 0
        self.pending: list[int] = []
        self.folded = [False] * n
        self.poker_winners: tuple[int, ...] = ()
        self.poker_values: list = [None] * n
        self.poker_shown: list = [None] * n  # the five cards each player showed at the showdown (§2.4)
        self.poker_how = ""
        self.poker_won = 0
        self.need: int | None = None
        self.lead_colour: bool | None = None  # True: red, False: black, None: any (the opening lead)
        self.claimable: tuple[int, ...] = ()
        self.won: list[tuple[str, int, int]] = []
        self.payments = [0] * n
        self.deadlock_paid = [0] * n
        self.fines = [0] * n
        self.out: int | None = None

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's chips (the game's score)."""
        return tuple(self.chips)

    def _cut(self, seats: list[int]) -> tuple[int, tuple]:
        """High card wins, ace high (§2.1, §2.6); ties cut again among the tied. Returns (seat, rounds)."""
        rounds = []
        while True:
            cards = self.rng.permutation(52)[:len(seats)].tolist()
            draws = tuple(zip(seats, cards))
            rounds.append(draws)
            top = max(STRENGTH[c] for c in cards)
            seats = [p for p, c in draws if STRENGTH[c] == top]
            if len(seats) == 1:
                return seats[0], tuple(rounds)

    def _can_play(self, seat: int) -> bool:
        if not self.in_game[seat]:
            return False
        need = 1 if self.rules.short_ante == "partial" else self.ANTE
        return self.chips[seat] >= need

    def _retire(self) -> None:
        """Players who cannot ante leave the game under ``eliminated`` (and ``partial`` with no chips)."""
        if self.rules.short_ante == "sit_out":
            return
        for p in range(self.n_seats):
            if self.in_game[p] and not self._can_play(p):
                self.in_game[p] = False

    def _pay(self, seat: int, amount: int, reason: str, section: int | None = None, to: int | None = None) -> int:
        """``seat`` pays ``amount`` (capped at his chips) onto ``section`` or to player ``to``; returns what he paid."""
        amount = min(amount, self.chips[seat])
        if amount <= 0:
            return 0
        self.chips[seat] -= amount
        if to is None:
            self.ledger.pay_in(seat, amount, reason)
            self.board[section] += amount
        else:
            self.ledger.transfer(seat, to, amount, reason)
            self.chips[to] += amount
        return amount

    def _take(self, seat: int, section: int, amount: int | None = None, reason: str = "win") -> int:
        amount = self.board[section] if amount is None else amount
        if amount:
            self.board[section] -= amount
            self.ledger.take(seat, amount, f"{reason}:{SECTIONS[section]}")
            self.chips[seat] += amount
        return amount

    # ------------------------------------------------------------------ the deal

    def _begin_deal(self) -> None:
        self._retire()
        players = [p for p in range(self.n_seats) if self._can_play(p)]
        if len(players) < 2 or len(self.results) >= self.deals_total:
            self._finish("rounds" if len(players) >= 2 else "last_player")
            return
        if self.dealer not in players:  # the deal passes left to the next player who can play
            self.dealer = self.from_left_of(self.dealer, players)[0]
        order = self.from_left_of(self.dealer, players)  # the dealer's left first, the dealer last
        self.hand_number += 1
        self.hand_players = tuple(order)
        self.in_hand = [p in order for p in range(self.n_seats)]
        self._reset_deal_state()
        for p in order:  # §2.1: one chip on each section (partial: as far as the chips go)
            for s in range(len(SECTIONS)):
                self._pay(p, 1, "ante", section=s)
        self.hands = [[] for _ in range(self.n_seats)]
        self.widow, self.dead, self.played, self.run_starts = [], [], [], []
        targets = list(order) + [-1] if self.rules.widow_deal_position == "last" else [-1] + list(order)
        cards = self.rng.permutation(52).tolist()
        for i, c in enumerate(cards):  # one at a time, round after round (§2.1)
            t = targets[i % len(targets)]
            (self.widow if t == -1 else self.hands[t]).append(c)
        self.phase = "widow"
        self.turn = self.dealer

    def _restricted(self, seat: int) -> bool:
        return self.rules.widow_paycard_restriction and any(c in PAY_CARDS for c in self.hands[seat])

    def _after_widow_choice(self, swap: bool, sell: bool = True) -> None:
        d = self.dealer
        if swap:
            self.dead, self.hands[d], self.widow = self.hands[d], self.widow, []
            self.widow_to, self.widow_how = d, "swap"
            self._start_poker()
            return
        if sell and self.rules.widow_auction != "none":  # §2.3: the dealer *may* auction the widow
            self.bidders = [p for p in self.from_left_of(d, self.hand_players) if p != d
                            and not self._restricted(p) and self.chips[p] >= 1]
            if self.bidders:
                self.phase = "auction"
                self.turn = self.bidders[0]
                return
        self._sell_widow(None)

    def _sell_widow(self, winner: int | None) -> None:
        if winner is None:
            self.dead, self.widow = self.widow, []
        else:
            self._pay(winner, self.high_bid, "widow bid", to=self.dealer)
            self.dead, self.hands[winner], self.widow = self.hands[winner], self.widow, []
            self.widow_to, self.widow_how = winner, "auction"
        self.bidders = []
        self._start_poker()

    def _start_poker(self) -> None:
        if self.rules.poker_method == "betting":
            self.pending = list(self.hand_players)
            self.phase = "betting"
            self.turn = self.pending[0]
            return
        self._showdown(list(self.hand_players))

    def _showdown(self, players: list[int]) -> None:
        """The players still in show their best five cards (§2.4); folded hands stay unseen."""
        for p in players:
            self.poker_values[p] = hand_value(tuple(self.hands[p]))
            self.poker_shown[p] = best_five(self.hands[p])
        best = max(self.poker_values[p] for p in players)
        winners = [p for p in self.hand_players if p in players and self.poker_values[p] == best]
        self.poker_how = "showdown"
        self._pay_poker(winners)

    def _pay_poker(self, winners: list[int]) -> None:
        """Split the poker section; an odd chip stays (§2.4); the first winner from the dealer's left leads."""
        share = self.board[POKER_SECTION] // len(winners)
        for w in winners:
            self._take(w, POKER_SECTION, share)
            self.won.append(("poker", w, share))
        self.poker_winners = tuple(winners)
        self.poker_won = share
        self.phase = "stops"
        self._lead(winners[0], None)

    # ------------------------------------------------------------------ the stops

    def _lead(self, seat: int, colour: bool | None) -> None:
        self.turn = seat
        self.need = None
        self.lead_colour = colour

    def _lead_cards(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        col = self.lead_colour
        pool = hand if col is None else [c for c in hand if RED[c] == col]
        low = min(STRENGTH[c] for c in pool)
        return sorted(c for c in pool if STRENGTH[c] == low)

    def _earned(self, seat: int, card: int) -> tuple[int, ...]:
        out = []
        if card in SINGLE_PAY:
            out.append(SINGLE_PAY[card])
        pl = self.played  # (the card itself is not in it yet: the cards before it, by the same player, §2.2)
        if card == AD and pl and pl[-1] == (seat, KD):
            out.append(AK_SECTION)
        if card % 13 == 8 and len(pl) >= 2 and pl[-1] == (seat, card - 1) and pl[-2] == (seat, card - 2):
            out.append(SEQ_SECTION)
        return tuple(out)

    def _collect(self, seat: int, sections) -> None:
        for s in sections:
            got = self._take(seat, s)
            self.won.append((SECTIONS[s], seat, got))

    def _play(self, seat: int, card: int) -> None:
        if self.need is None:
            self.run_starts.append(len(self.played))
        self.hands[seat].remove(card)
        earned = self._earned(seat, card)
        self.played.append((seat, card))
        if earned:
            if self.rules.manual_claims:
                self.claimable = earned
                self.phase = "claim"
                return
            self._collect(seat, earned)
        self._continue(seat, card)

    def _continue(self, seat: int, card: int) -> None:
        if not self.hands[seat]:
            self._go_out(seat)
            return
        nxt = next_up(card)
        if nxt is not None:
            for p in self.hand_players:
                if nxt in self.hands[p]:  # the holder must play it (§2.5.2)
                    self.turn, self.need = p, nxt
                    return
        self._change_colour(seat, not RED[card])  # closed or blocked (§2.5.3)

    def _change_colour(self, last: int, colour: bool) -> None:
        rule = self.rules.colour_change_rule
        order = [last] + [p for p in self.from_left_of(last, self.hand_players) if p != last]
        for p in order:
            if any(RED[c] == colour for c in self.hands[p]):
                self._lead(p, colour)
                return
            if rule == "fine_per_pass":
                self.fines[p] += self._pay(p, 1, "fine", section=RUMMOLI_SECTION)
        if rule == "any_colour_fallback":
            self._lead(last, None)
            return
        self._deadlock()

    def _go_out(self, seat: int) -> None:
        """§2.5.6: the Rummoli section, and one chip per card from every other player."""
        self._collect(seat, (RUMMOLI_SECTION,))
        for p in self.hand_players:
            if p != seat:
                paid = self._pay(p, len(self.hands[p]), "cards left", to=seat)
                self.payments[p] -= paid
                self.payments[seat] += paid
        self.out = seat
        self._end_deal("rummoli")

    def _deadlock(self) -> None:
        """§2.5.7: every player puts one chip per card held on the Rummoli section; nobody takes it."""
        for p in self.hand_players:
            self.deadlock_paid[p] = self._pay(p, len(self.hands[p]), "deadlock", section=RUMMOLI_SECTION)
        self._end_deal("deadlock")

    def _end_deal(self, ending: str) -> None:
        self.results.append(DealResult(
            number=self.hand_number, dealer=self.dealer, players=self.hand_players, widow_to=self.widow_to,
            widow_how=self.widow_how, bid=self.high_bid if self.widow_how == "auction" else 0,
            poker_how=self.poker_how, poker_winners=self.poker_winners, poker_values=tuple(self.poker_values),
            poker_won=self.poker_won, won=tuple(self.won), ending=ending, out=self.out,
            payments=tuple(self.payments), deadlock=tuple(self.deadlock_paid), fines=tuple(self.fines),
            chips=tuple(self.chips), played=tuple(self.played)))
        self.turn = None
        self.need = None
        self._retire()
        players = [p for p in range(self.n_seats) if self._can_play(p)]
        if len(players) < 2 or len(self.results) >= self.deals_total:
            self._finish("rounds" if len(players) >= 2 else "last_player")
        else:
            self.phase = "between_deals"

    @property
    def next_dealer(self) -> int:
        players = [p for p in range(self.n_seats) if self._can_play(p)]
        return self.from_left_of(self.dealer, players)[0]

    def _finish(self, how: str) -> None:
        """§2.6: the chips left on the sheet go to one player (cut or poker deal); most chips wins."""
        sweepers = [p for p in range(self.n_seats) if self.in_game[p]] or list(range(self.n_seats))
        swept_by, draws = (self._cut(sweepers) if self.rules.final_sweep == "cut" else self._poker_deal(sweepers))
        payouts = [0] * self.n_seats
        swept = sum(self.board)
        for s in range(len(SECTIONS)):
            payouts[swept_by] += self._take(swept_by, s, reason="sweep")
        top = max(self.chips)
        winners = tuple(p for p in range(self.n_seats) if self.chips[p] == top)
        self.result = GameResult(winners=winners, how=how, next_dealer=winners[0], pool_cents=swept,
                                 payouts_cents=tuple(payouts),
                                 returns=tuple(c - self.rules.initial_chips for c in self.chips),
                                 swept_by=swept_by, sweep_draws=draws, chips=tuple(self.chips))
        self.phase = "game_over"
        self.turn = None

    def _poker_deal(self, seats: list[int]) -> tuple[int, tuple]:
        """§2.6 (b): five cards each, the best hand takes the sheet; ties are dealt again among the tied."""
        rounds = []
        while True:
            cards = self.rng.permutation(52).tolist()
            hands = {p: tuple(cards[5 * i:5 * i + 5]) for i, p in enumerate(seats)}
            rounds.append(tuple(hands.items()))
            values = {p: hand_value(h) for p, h in hands.items()}
            top = max(values.values())
            seats = [p for p in seats if values[p] == top]
            if len(seats) == 1:
                return seats[0], tuple(rounds)

    # ------------------------------------------------------------------ the protocol

    def actor(self, phase: str) -> int | None:
        """The next dealer between deals; otherwise the seat whose turn it is."""
        return self.next_dealer if phase == "between_deals" else self.turn

    @property
    def pot_paid_out(self) -> int:
        """The chips of the final sweep (0 before the end)."""
        return 0 if self.result is None else self.result.swept

    def _play_actions(self) -> list:
        if self.need is not None:
            return [Play(self.need)]
        return [Play(c) for c in self._lead_cards(self.turn)]

    def _widow_actions(self) -> list:
        keep = [KEEP] if self.rules.widow_auction == "none" else [KEEP, KEEP_UNSOLD]  # with an auction: his choice
        return keep if self._restricted(self.turn) else [SWAP, *keep]

    def _bid_actions(self) -> list:
        lo = self.high_bid + 1 if self.rules.widow_auction == "open" else 1
        return [PASS] + [Bid(k) for k in range(lo, self.max_bid(self.turn) + 1)]

    def _bet_actions(self) -> list:
        p = self.turn
        out = []
        to_call = self.bet_level - self.committed[p]
        chips = self.chips[p]
        size = self.rules.bet_size
        if to_call == 0:
            out.append(CHECK)
            if chips >= size:
                out.append(BET)
        else:
            if chips >= to_call:
                out.append(CALL)
            if self.raises < self.rules.raise_cap and chips >= to_call + size:
                out.append(RAISE)
            out.append(FOLD)
        return out

    def _claim_actions(self) -> list:
        return [CLAIM, FORGO]

    def _deal_actions(self) -> list:
        return [DEAL]

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        """Refuse an action of the phase's kind that the position does not allow, naming the rule."""
        if action in self.legal_actions():
            return
        reason, rule = self._why_not(action)
        raise refuse(action, player=actor, phase=phase, rule=rule, reason=reason)

    def max_bid(self, seat: int) -> int:
        """The highest bid ``seat`` may make: his chips (a bid is paid in full to the dealer). §2.3 sets no
        other limit; in particular a bid is not capped at the chips on the sheet."""
        return self.chips[seat]

    def _why_not(self, action) -> tuple[str, str]:
        p = self.turn
        ph = self.phase
        if ph == "widow":
            if isinstance(action, Keep):  # only "keep unsold" can be refused: with no auction, write "keep"
                return ("there is no widow auction to decline (widow_auction='none'): the dealer keeps his hand "
                        "with 'keep'", "§2.3")
            return (f"player {p} holds a pay card, so he may not swap (widow_paycard_restriction=True)", "§2.3")
        if ph == "auction":
            k = action.amount
            if self.rules.widow_auction == "open" and k <= self.high_bid:
                return f"a bid must exceed the current bid of {self.high_bid} (the minimum bid is 1)", "§2.3"
            if k < 1:
                return "the minimum bid is 1 chip", "§2.3"
            return f"player {p} has only {self.chips[p]} chips: a bid is paid in full to the dealer", "§2.3"
        if ph == "betting":
            to_call = self.bet_level - self.committed[p]
            if isinstance(action, Check):
                return f"there is a bet of {to_call} to call: call, raise or fold", "§2.4"
            if isinstance(action, Bet):
                if to_call:
                    return "someone has already bet: call, raise or fold", "§2.4"
                return f"player {p} has {self.chips[p]} chips, less than the bet of {self.rules.bet_size}", "§2.4"
            if isinstance(action, Call):
                if not to_call:
                    return "there is no bet to call: check or bet", "§2.4"
                return f"player {p} has {self.chips[p]} chips, less than the {to_call} to call", "§2.4"
            if isinstance(action, Raise):
                if not to_call:
                    return "there is no bet to raise: check or bet", "§2.4"
                if self.raises >= self.rules.raise_cap:
                    return f"the raises are capped at {self.rules.raise_cap} per round (raise_cap)", "§2.4"
                return f"player {p} has {self.chips[p]} chips, too few to raise", "§2.4"
            return "there is no bet: check rather than fold", "§2.4"
        if ph == "stops":
            c = action.card
            name = format_card(c) if isinstance(c, int) and 0 <= c < 53 else repr(c)
            if not (isinstance(c, int) and 0 <= c < 52) or c not in self.hands[p]:
                return f"player {p} does not hold {name}", "§2.5"
            if self.need is not None:
                return (f"{format_card(self.need)} is called for and player {p} holds it: he must play it "
                        f"(continuation is mandatory)", "§2.5")
            lowest = " or ".join(format_card(x) for x in self._lead_cards(p))
            if self.lead_colour is None:
                return f"the lead is the lowest card in the hand: {lowest}", "§2.5"
            col = "red" if self.lead_colour else "black"
            return f"the colour changes: player {p} must lead his lowest {col} card, {lowest}", "§2.5"
        return f"that is not allowed in phase {ph!r}", PHASES[ph][1]  # pragma: no cover

    # each _do_* is applied (unchecked) to a legal action by the base's dispatch; the actor is recorded first

    def _acted(self, action) -> int:
        actor = self.to_act
        self.history.append((actor, action))
        return actor

    def _do_play(self, action: Play) -> None:
        self._play(self._acted(action), action.card)

    def _do_widow(self, action) -> None:
        self._acted(action)
        self._after_widow_choice(isinstance(action, Swap), sell=isinstance(action, Keep) and action.sell)

    def _do_claim(self, action) -> None:
        actor = self._acted(action)
        card = self.played[-1][1]
        if isinstance(action, Claim):
            self._collect(actor, self.claimable)
        self.claimable = ()
        self.phase = "stops"
        self._continue(actor, card)

    def _do_deal(self, action: Deal) -> None:
        self.dealer = self._acted(action)
        self._begin_deal()

    def _do_bid(self, action) -> None:
        p = self._acted(action)
        q = self.bidders
        if self.rules.widow_auction == "open":
            q.pop(0)
            if isinstance(action, Bid):
                self.high_bid, self.high_bidder = action.amount, p
                q.append(p)
            if not q or q == [self.high_bidder]:
                self._sell_widow(self.high_bidder)
                return
        else:  # sealed: everyone bids once; the first highest from the dealer's left wins
            q.pop(0)
            if isinstance(action, Bid):
                self.sealed[p] = action.amount
                if action.amount > self.high_bid:  # kept secret from the views until the end
                    self.high_bid, self.high_bidder = action.amount, p
            if not q:
                self._sell_widow(self.high_bidder)
                return
        self.turn = q[0]

    def _do_bet(self, action) -> None:
        p = self._acted(action)
        size = self.rules.bet_size
        self.pending.pop(0)
        if isinstance(action, (Bet, Raise, Call)):
            target = self.bet_level + (0 if isinstance(action, Call) else size)
            self._pay(p, target - self.committed[p], "bet", section=POKER_SECTION)
            self.committed[p] = target
            if not isinstance(action, Call):
                self.raises += isinstance(action, Raise)
                self.bet_level = target
                self.pending = [q for q in self.from_left_of(p, self.hand_players) if q != p and not self.folded[q]]
        elif isinstance(action, Fold):
            self.folded[p] = True
            left = [q for q in self.hand_players if not self.folded[q]]
            if len(left) == 1:
                for q in self.hand_players:
                    self.poker_values[q] = None
                self.poker_how = "fold"
                self._pay_poker(left)
                return
        if self.pending:
            self.turn = self.pending[0]
        else:
            self._showdown([q for q in self.hand_players if not self.folded[q]])

    # ------------------------------------------------------------------ views

    def public_fields(self, seat: int) -> dict:
        """The sheet, the chips, the stops so far; sealed bids stay secret until the auction ends."""
        runs = []
        starts = self.run_starts + [len(self.played)]
        for a, b in zip(starts, starts[1:]):
            runs.append(tuple(self.played[a:b]))
        sealed = self.phase == "auction" and self.rules.widow_auction == "sealed"
        return dict(
            rules=self.rules, action_set=ACTIONS, dealer=self.dealer,
            hand_number=self.hand_number, deals_total=self.deals_total, chips=tuple(self.chips),
            board=tuple(self.board), in_game=tuple(self.in_game), in_hand=tuple(self.in_hand),
            hand_sizes=tuple(map(len, self.hands)), widow_size=len(self.widow), dead_size=len(self.dead),
            widow_to=self.widow_to, high_bid=0 if sealed else self.high_bid,
            high_bidder=None if sealed else self.high_bidder, bidders=tuple(self.bidders),
            bet_level=self.bet_level, committed=tuple(self.committed), raises=self.raises,
            folded=tuple(self.folded), poker_winners=self.poker_winners,
            poker_values=tuple(self.poker_values) if self.poker_winners else (None,) * self.n_seats,
            poker_shown=tuple(self.poker_shown) if self.poker_winners else (None,) * self.n_seats,
            played=tuple(self.played), runs=tuple(runs), need=self.need if self.phase == "stops" else None,
            lead_colour=None if self.lead_colour is None else ("red" if self.lead_colour else "black"),
            claimable=tuple(SECTIONS[s] for s in self.claimable), widow_how=self.widow_how,
            poker_how=self.poker_how, last_result=self.results[-1] if self.results else None, result=self.result)

    # ------------------------------------------------------------------ arranged positions (tests, the book)

    def set_deal(self, hands: dict, widow: str | Iterable) -> None:
        """Replace the cards just dealt (phase ``widow``, before the dealer's decision) by ``hands``
        (seat → cards) and the ``widow``; every card of the pack must be used once. A game so
        arranged cannot be recorded (its cards did not come from its seed).
        """
        if self.phase != "widow":
            raise IllegalActionError(f"a deal can be arranged only before the widow decision; the phase is "
                                     f"{self.phase!r}.")
        new = {p: list(parse_hand(h)) for p, h in hands.items()}
        w = list(parse_hand(widow))
        if set(new) != set(self.hand_players):
            raise IllegalActionError(f"give a hand to each player in the deal: {list(self.hand_players)}.")
        cards = [c for h in new.values() for c in h] + w
        if sorted(cards) != list(range(52)):
            raise InvalidCardError("an arranged deal must use each of the 52 cards exactly once.")
        if any(len(h) < 5 for h in (*new.values(), w)):
            raise InvalidCardError("every hand (and the widow) needs at least 5 cards for the poker phase.")
        for p, h in new.items():
            self.hands[p] = h
        self.widow = w
        self.rigged = True

    def set_stops(self, hands: dict, *, dead: str | Iterable = (), lead: int, colour: str | None = None) -> None:
        """Put the current deal in the stops phase with ``hands`` (seat → cards) and the ``dead`` hand;
        every other card counts as played earlier (by nobody, seat -1). ``lead`` leads next: his lowest
        card (``colour`` None, the opening lead) or his lowest ``"red"``/``"black"`` card. The chips
        stay as they are (the antes are on the sheet). A game so arranged cannot be recorded.
        """
        if self.phase not in ("widow", "stops"):
            raise IllegalActionError(f"the stops can be arranged during a deal; the phase is {self.phase!r}.")
        new = {p: list(parse_hand(h)) for p, h in hands.items()}
        dead = list(parse_hand(dead))
        if set(new) != set(self.hand_players):
            raise IllegalActionError(f"give a hand to each player in the deal: {list(self.hand_players)}.")
        used = [c for h in new.values() for c in h] + dead
        if len(set(used)) != len(used) or any(not 0 <= c < 52 for c in used):
            raise InvalidCardError("each card of the pack may be placed once.")
        if colour not in (None, "red", "black"):
            raise IllegalActionError(f"colour is {colour!r}: it must be None, 'red' or 'black'.")
        col = None if colour is None else colour == "red"
        pool = [c for c in new[lead] if col is None or RED[c] == col]
        if not pool:
            raise IllegalActionError(f"player {lead} holds no card to lead in that colour.")
        taken = set(used)
        rest = [c for c in range(52) if c not in taken]
        self.hands = [new.get(p, []) for p in range(self.n_seats)]
        self.dead, self.widow = dead, []
        self.played = [(-1, c) for c in rest]
        self.run_starts = [0] if rest else []
        self.poker_how, self.phase = "arranged", "stops"
        self.claimable = ()
        self._lead(lead, col)
        self.rigged = True

    # ------------------------------------------------------------------ conservation

    def snapshot_extra(self) -> tuple:
        """The widow, the dead hand, the stops, the chips and sheet, the auction, the betting, the claims."""
        return (tuple(self.widow), tuple(self.dead), tuple(self.played), tuple(self.run_starts), tuple(self.chips),
                tuple(self.board), self.widow_to, self.high_bid, self.high_bidder, tuple(self.bidders),
                tuple(sorted(self.sealed.items())), self.bet_level, tuple(self.committed), self.raises,
                tuple(self.pending), tuple(self.folded), self.poker_winners, self.need, self.lead_colour,
                self.claimable, tuple(self.won))

    def card_places(self) -> dict[str, int]:
        """How many cards are in each place (hands, widow, dead hand, played): 52 in all."""
        return {"hands": sum(map(len, self.hands)), "widow": len(self.widow), "dead": len(self.dead),
                "played": len(self.played)}

    def total_chips(self) -> int:
        """Chips with the players plus chips on the sheet: always ``initial_chips × N``."""
        return sum(self.chips) + sum(self.board)

    def cards_outside_hands(self) -> tuple:
        return self.widow, self.dead, [c for _, c in self.played]

    def hidden_places(self, seat: int) -> list[list[int]]:
        """What ``seat`` cannot see (a search's worlds deal these again): the other hands, the widow while
        it lies unsold, and the dead hand, unless it is ``seat``'s own old hand (``seat`` took the widow).
        The cards played in the stops are open."""
        places = [hand for s, hand in enumerate(self.hands) if s != seat and hand]
        if self.widow:
            places.append(self.widow)
        if self.dead and self.widow_to != seat:
            places.append(self.dead)
        return places

    def stops_knowledge(self, seat: int) -> StopsKnowledge:
        """What a careful player in ``seat`` knows of where the hidden cards lie during the stops, read from
        the open play alone (the showdown, the cards played and who played them), never from a hidden card.

        - a card shown at the showdown and not yet played is still in its player's hand (§2.4);
        - a player who showed five cards holds no card that, beside them, would have made a better five (or
          another equal five shown instead); what two or more cards together would have made (a second
          pair, a flush) :meth:`sample_world` checks on the whole hand;
        - a run that stopped before its ace stopped because the next card was in no hand: it lies in the
          dead hand (§2.5.3), unless it had been played already;
        - a lead is the leader's lowest card (of the colour asked for): he holds nothing lower there (§2.5.1,
          §2.5.4); the players passed over at a change of colour hold no card of that colour (§2.5.4);
        - a card called for (``need``) is in the hand of the player to act (§2.5.2), and a player who must
          lead a colour now holds a card of it (§2.5.4).

        Hands only shrink during the stops, so what held when a card was played holds now.

        >>> from rumino.cards import format_hand
        >>> g = RummoliGame.new(n_players=3, seed=1)
        >>> g.set_stops({0: "2c 5c 9h", 1: "3c 4c Kd", 2: "6c 7s Ah"}, dead="7c", lead=0)
        >>> for card in parse_hand("2c 3c 4c 5c 6c"):   # P0, P1, P1, P0, P2: the run stops at 6c
        ...     g.apply(Play(card))
        >>> k = g.stops_knowledge(1)    # P2 must now lead a red card
        >>> format_hand(sorted(k.dead)), g.to_act
        ('7c', 2)
        """
        know = StopsKnowledge({p: set() for p in self.hand_players}, {p: set() for p in self.hand_players}, set())
        if self.phase not in ("stops", "claim"):
            return know
        for p in self.hand_players:
            five = self.poker_shown[p]
            if five is not None:
                know.fixed[p] |= set(five)
                know.barred[p] |= self._would_change(five, self.poker_values[p])
        played = self.played
        seen = {c for _, c in played}
        for p in know.fixed:
            know.fixed[p] -= seen
        starts = set(self.run_starts)
        # a lead now waiting (the last run has stopped and nobody has led yet) is read like the leads played
        leads = [(i, s, c) for i, (s, c) in enumerate(played) if i in starts]
        if self.phase == "stops" and self.need is None and played:
            leads.append((len(played), self.turn, None))
        for i, leader, card in leads:
            if i == 0:
                if leader >= 0 and card is not None:  # the opening lead: the poker winner's lowest card
                    know.barred[leader] |= {x for x in range(52) if STRENGTH[x] < STRENGTH[card]}
                continue
            last, prev = played[i - 1]
            if last < 0 or leader < 0:
                continue  # an arranged position (set_stops): cards played by nobody tell nothing
            nxt = next_up(prev)
            if nxt is not None and nxt not in {c for _, c in played[:i]}:
                know.dead.add(nxt)  # the run stopped short of its ace: the next card was in no hand
            colour = not RED[prev]
            if card is None:
                asked = colour if self.lead_colour is not None else None
                if asked is not None:
                    know.some[leader] = {x for x in range(52) if RED[x] == asked}
            else:
                asked = colour if RED[card] == colour else None  # None: nobody held the colour (the fallback)
            order = [last] + [p for p in self.from_left_of(last, self.hand_players) if p != last]
            passed = order if asked is None else order[:order.index(leader)]
            for p in passed:
                know.barred[p] |= {x for x in range(52) if RED[x] == colour}
            if card is not None:
                know.barred[leader] |= {x for x in range(52) if STRENGTH[x] < STRENGTH[card]
                                        and (asked is None or RED[x] == asked)}
        if self.need is not None and self.turn is not None:
            know.fixed[self.turn].add(self.need)
        return know

    @staticmethod
    def _would_change(five: tuple[int, ...], value: int) -> set[int]:
        """The cards that, held beside the ``five`` shown, would have made a better five or another equal
        five shown in their place (:func:`best_five`): a player who showed ``five`` holds none of them."""
        out = set()
        for x in range(52):
            if x in five:
                continue
            v = hand_value((*five, x))
            if v > value or (v == value and best_five((*five, x)) != five):
                out.add(x)
        return out

    WORLD_TRIES: ClassVar[int] = 400
    """Deals a stops world tries before it gives up on the showdown's check (:meth:`sample_world`)."""

    def sample_world(self, seat: int, rng: np.random.Generator) -> RummoliGame:
        """A world for ``seat``'s search. Before the stops the hidden cards are dealt again at random
        (:meth:`TurnGame.sample_world`); in the stops the deal must also agree with everything the play has
        shown (:meth:`stops_knowledge`): the shown cards stay, a card that blocked a run lies in the dead
        hand, a player holds nothing his leads and passes rule out, and every hand that was shown must give
        back the same best five. The cards are placed most constrained first, each into a place that may
        hold it, chosen in proportion to the room left there (uniform where nothing constrains a card); a
        deal whose showdown would differ is drawn again, up to :attr:`WORLD_TRIES` times, after which the
        last deal that agrees with the play is kept (``world.world_tries`` says how many it took, 0 for
        that fallback).

        >>> g = RummoliGame.new(n_players=3, seed=4)
        >>> while g.phase != "stops":
        ...     g.apply(g.legal_actions()[0])
        >>> w = g.sample_world(1, np.random.default_rng(0))
        >>> w.hands[1] == g.hands[1], [len(h) for h in w.hands] == [len(h) for h in g.hands], w.world_tries > 0
        (True, True, True)
        """
        if self.phase not in ("stops", "claim"):
            return super().sample_world(seat, rng)
        key = (self.hand_number, len(self.history), seat)  # what the seat has seen: the same for every world
        if getattr(self, "_knowledge", (None,))[0] != key:
            self._knowledge = (key, self.stops_knowledge(seat))
        know = self._knowledge[1]
        world = self.fork(rng)
        hands = [p for p in self.hand_players if p != seat and self.hands[p]]
        places: list[list[int]] = [world.hands[p] for p in hands]
        dead_hidden = bool(self.dead) and self.widow_to != seat
        if dead_hidden:
            places.append(world.dead)
        pool = sorted(c for place in places for c in place)
        room0 = [len(place) for place in places]
        allowed = {}
        for c in pool:
            ok = [k for k, p in enumerate(hands) if c not in know.barred[p]]
            if dead_hidden:
                ok.append(len(hands))
            fixed_to = [k for k, p in enumerate(hands) if c in know.fixed[p]]
            if fixed_to:
                ok = fixed_to
            elif c in know.dead and dead_hidden:
                ok = [len(hands)]
            allowed[c] = ok
        shown = [(k, p) for k, p in enumerate(hands) if self.poker_shown[p] is not None]
        played_by = {p: [c for s, c in self.played if s == p] for p in hands}
        fallback = None
        some = [(k, know.some[p]) for k, p in enumerate(hands) if p in know.some]
        for attempt in range(1, self.WORLD_TRIES + 1):
            deal = self._fill(pool, allowed, room0, rng)
            if deal is None or not all(know_some & set(deal[k]) for k, know_some in some):
                continue
            # the compiled value first: best_five (the tie-break among equal fives) only on a hand that ties
            if all(hand_value(tuple(deal[k] + played_by[p])) == self.poker_values[p]
                   and best_five(deal[k] + played_by[p]) == self.poker_shown[p] for k, p in shown):
                break
            fallback = deal
        else:
            deal, attempt = fallback, 0
            if deal is None:  # nothing the play allows was found: deal as before the stops
                deal, attempt = self._fill(pool, {c: list(range(len(places))) for c in pool}, room0, rng), 0
        for place, cards in zip(places, deal):
            place[:] = cards
        world.world_tries = attempt
        world.after_hidden_dealt()
        return world

    @staticmethod
    def _fill(pool: list[int], allowed: dict, room0: list[int], rng: np.random.Generator) -> list | None:
        """Place every card of ``pool`` in one of its ``allowed`` places (most constrained first, a place
        chosen in proportion to its room left); None when a card finds no room."""
        room = list(room0)
        out: list[list[int]] = [[] for _ in room]
        order = [pool[i] for i in rng.permutation(len(pool))]
        order.sort(key=lambda c: len(allowed[c]))  # stable: a random order within each level
        for c in order:
            ok = [k for k in allowed[c] if room[k]]
            if not ok:
                return None
            weights = np.array([room[k] for k in ok], dtype=float)
            k = ok[int(rng.choice(len(ok), p=weights / weights.sum()))] if len(ok) > 1 else ok[0]
            out[k].append(c)
            room[k] -= 1
        return [sorted(cards) for cards in out]

    def check_game_invariants(self, deep: bool) -> None:
        """Every chip is with a player or on a section and matches the ledger, and the phase's own rules
        hold (the base has checked the cards and the ledger; every check is cheap, ``deep`` or not)."""
        led = self.ledger
        n0 = self.rules.initial_chips * self.n_seats
        if any(c < 0 for c in self.chips) or any(b < 0 for b in self.board):
            raise AssertionError(f"chips negative: players {self.chips}, sheet {self.board}")
        if sum(self.chips) + sum(self.board) != n0:
            raise AssertionError(f"chips not conserved: players {sum(self.chips)} + sheet {sum(self.board)} "
                                 f"!= {n0}")
        if led.pot != sum(self.board):
            raise AssertionError(f"the ledger's pot {led.pot} is not the chips on the sheet {sum(self.board)}")
        for p in range(self.n_seats):
            if self.chips[p] != self.rules.initial_chips - led.paid[p] + led.received[p]:
                raise AssertionError(f"seat {p}'s chips {self.chips[p]} do not match the ledger "
                                     f"(paid {led.paid[p]}, received {led.received[p]})")
        ph = self.phase
        if ph in ("widow", "auction", "betting", "stops", "claim"):
            if not self.in_hand[self.turn]:
                raise AssertionError(f"seat {self.turn} acts but is not in the deal")
            for p in range(self.n_seats):
                if not self.in_hand[p] and self.hands[p]:
                    raise AssertionError(f"seat {p} is not in the deal but holds cards")
            if not self.rigged and ph in ("widow", "auction"):
                sizes = [len(self.hands[p]) for p in self.hand_players]
                exp = list(hand_sizes(len(self.hand_players)))
                got = sizes + [len(self.widow)] if self.rules.widow_deal_position == "last" else \
                    [len(self.widow)] + sizes
                if ph == "widow" and got != exp:
                    raise AssertionError(f"hand sizes {got} are not those of §2.1 {exp}")
            if ph in ("betting", "stops", "claim") and not self.rigged and (self.widow or len(self.dead) == 0):
                raise AssertionError("after the widow phase exactly one hand is dead and the widow is gone")
        if ph == "stops" and self.need is not None and self.need not in self.hands[self.turn]:
            raise AssertionError(f"seat {self.turn} must play {format_card(self.need)} but does not hold it")
        if ph == "stops" and not self.hands[self.turn]:
            raise AssertionError(f"seat {self.turn} is to play with no cards")
        if ph == "betting":
            if self.board[POKER_SECTION] < sum(self.committed):
                raise AssertionError("the bets are not on the poker section")
        if ph == "game_over":
            if sum(self.board) != 0:
                raise AssertionError(f"chips left on the sheet after the final sweep: {self.board}")
        if self.hand_number > self.deals_total:
            raise AssertionError(f"{self.hand_number} deals played; the game has {self.deals_total}")

    def __repr__(self) -> str:
        return (f"<RummoliGame {self.n_seats} seats, deal {self.hand_number}, phase {self.phase!r}, "
                f"to act {self.to_act}, chips {self.chips}, sheet {self.board}>")


__all__ = ["RummoliRules", "RUMMOLI", "PACK", "SECTIONS", "RummoliGame", "RummoliView", "DealResult", "GameResult",
           "Swap", "Keep", "Bid", "Pass", "Check", "Bet", "Call", "Raise", "Fold", "Play", "Claim", "Forgo",
           "ACTIONS", "STRENGTH", "RED", "PAY_CARDS", "SINGLE_PAY", "next_up", "hand_sizes", "best_five", "BoardLedger",
           "StopsKnowledge"]
