"""German Rommé played in full (rules §3): melds on the table, the 40 opening, lay-offs, joker exchange.

The game runs on the template of games with melds on the table
(:class:`~rumino.engine.melded.MeldedGame`); the table model — what
each joker stands for, lay-off, exchange and a whole turn checked at once — is
:mod:`rumino.table.melds`. A turn is ``draw`` (not on the dealer's first turn
under ``deal_mode="dealer14"``), at most one ``play`` (everything the player lays,
lays off and exchanges this turn, checked as a whole and applied at once, or
refused with the rule it breaks and nothing changed), then ``discard``. A play
that empties the hand goes out without a discard (unless
``must_discard_to_go_out``); a discard that empties it goes out too.

>>> from rumino.cards import format_hand
>>> g = RommeGame.new(ROMME, 2, seed=4)
>>> g.phase, len(g.hands[g.dealer]), len(g.hands[1 - g.dealer]), g.stock_size   # §3.7.1
('discard', 14, 13, 83)
>>> g = RommeGame.new(ROMME, 2, seed=4, dealer=0)   # the dealer plays first, without drawing
>>> g.set_position(hands={0: "10s Js Qs Ks 3d 3h 3c 5c 7d 9h 2s 4s 8c 6d"})
>>> play = g.ACTIONS.parse("play lay 10s Js Qs Ks; lay 3d 3h 3c"); str(play)
'play lay 10s Js Qs Ks; lay 3d 3h 3c'
>>> g.apply(play); g.opened[0], [str(m) for m in g.table], len(g.hands[0])
(True, ['10s Js Qs Ks', '3c 3d 3h'], 7)

Decisions where rules §3 leaves a point open (a careful player's reading), each
named where it is applied:

* R1 §3.4   A turn has at most one ``play``; it holds every lay, lay-off and
  exchange of the turn, so the opening is summed over the turn's melds (§3.4.2).
* R2 §3.4.1 ``must_meld_immediately``: the top discard may be taken only if a
  legal play exists that lays it in a *new* meld this turn (a lay-off does not
  count); the engine refuses the draw otherwise, and the player must then lay it
  before discarding. With a twin of that card in the hand, the player's own copy
  is laid first (the copies are identical; the later copy is the one taken).
* R3 §3.4.1 ``pickup_counts_for_opening=False``: the meld holding the card taken
  from the pile is laid but its value does not count toward the opening.
* R4 §3.5   A hand-Rommé is going out in the turn of one's first melds, laying
  every card (bar a last discard); the 40 minimum is then waived, and lay-offs
  and exchanges are allowed in that turn. Its condition is the knob
  ``hand_romme_condition``; nobody has melded ⇔ the table is empty.
* R5 §3.5   Scores are signed: the winner 0 (or, with ``winner_collects_sum``,
  plus the others' penalties), the others minus their penalties. The game
  (``game_end``) is ``k`` full rotations of deals, or ends after the deal in
  which someone reaches −500 or lower; the highest total wins (ties share).
* R6 §0.4   When no card can be drawn at all (the stock empty, the pile too small
  to turn over, and its top not takeable), the hand ends as if the stock ran out:
  under ``void_hand`` nobody scores, otherwise everyone pays his penalty.
* R7 §3.1   ``cut_joker_robbing``: the cut lifts a uniform number of cards; if the
  bottom card of the lifted packet is a joker, the cutter (the dealer's right-hand
  neighbour) keeps it, so he starts with one card more.
* R8 §3.4.7 A play may not leave as the one card to discard the card just taken
  from the pile (§0.5): the player could not end his turn.

``legal_actions`` lists every draw and discard, and a *menu* of plays: the best
opening (and a hand-Rommé when the whole hand can be laid), and once opened each
meld, each lay-off and each joker exchange on its own. Any other play the rules
allow is accepted by ``apply`` too: the plays of a turn are a combinatorial space,
checked by :func:`evaluate_play` rather than listed.
"""

from __future__ import annotations

import dataclasses as _dc
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Sequence

from rumino.cards import JOKER, format_card, format_hand, parse_card, parse_hand, to_counts
from rumino.engine.actions import Deal, Discard, Draw
from rumino.engine.drawdiscard import HandResult as _HandResult
from rumino.engine.drawdiscard import expect
from rumino.engine.evaluator import evaluator_for
from rumino.engine.melded import MeldedGame, MeldedView
from rumino.engine.protocol import Action, ActionSet, refuse
from rumino.engine.words import token_words
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.table import from_left_of
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.hand.arrange import best_arrangement, max_opening
from rumino.melds import Meld, candidate_melds
from rumino.table.melds import (Exchange, Lay, LayOff, TableAction, TableRules, apply_turn, declare, meld_tokens,
                                 token_text)
from rumino.variants.romme.rules import PACK, ROMME, RommeRules

ENDINGS = ("romme", "hand_romme", "stock_exhausted")

# ===================================================================== the play action


def _card_text(c: int, declared: int | None = None) -> str:
    return f"JK({format_card(declared)})" if c == JOKER and declared is not None else format_card(c)


_DECLARED = re.compile(r"^jk\((.+)\)$", re.IGNORECASE)


def _read_card(token: str) -> tuple[int, int | None]:
    """``'7h'`` → (7h, None); ``'JK(8h)'`` → (JK, 8h): a joker with what it stands for."""
    m = _DECLARED.match(token)
    if m:
        return JOKER, parse_card(m.group(1))
    return parse_card(token), None


def step_text(step: TableAction) -> str:
    """A table step in the book's notation.

    >>> step_text(Lay(tuple(parse_hand("7h JK 9h")), (parse_card("8h"),))), step_text(LayOff(2, parse_card("8h")))
    ('lay 7h JK(8h) 9h', 'layoff 8h on 2')
    """
    if isinstance(step, Lay):
        js = iter(step.jokers or ())
        return "lay " + " ".join(_card_text(c, next(js, None) if c == JOKER else None) for c in step.cards)
    if isinstance(step, LayOff):
        return f"layoff {_card_text(step.card, step.stands_for)} on {step.target}"
    if isinstance(step, Exchange):
        return f"exchange {format_hand(step.cards)} on {step.target}"
    raise InvalidCardError(f"{step!r} is not a table step (lay, layoff or exchange).")


def parse_step(text: str) -> TableAction:
    """Read one table step back (``lay …``, ``layoff CARD on N``, ``exchange CARDS on N``)."""
    parts = text.split()
    if not parts:
        raise InvalidCardError("an empty step: a play is steps such as 'lay 10s Js Qs; layoff 8h on 0'.")
    word, rest = parts[0].lower(), parts[1:]
    if word == "lay":
        if not rest:
            raise InvalidCardError("'lay' takes the cards of a meld, such as 'lay 10s Js Qs'.")
        read = [_read_card(t) for t in rest]
        cards = tuple(c for c, _ in read)
        declared = [d for c, d in read if c == JOKER]
        if any(d is not None for d in declared) and not all(d is not None for d in declared):
            raise InvalidCardError("declare every joker of a meld or none, such as 'lay 7h JK(8h) 9h'.")
        jokers = tuple(declared) if declared and declared[0] is not None else None
        return Lay(cards, jokers)
    if word in ("layoff", "exchange"):
        if len(rest) < 3 or rest[-2].lower() != "on" or not rest[-1].isdigit():
            raise InvalidCardError(f"'{word}' reads '{word} CARD on N' (N: the table meld, from 0).")
        target = int(rest[-1])
        if word == "layoff":
            if len(rest) != 3:
                raise InvalidCardError("'layoff' lays off one card: 'layoff 8h on 2'.")
            card, declared = _read_card(rest[0])
            return LayOff(target, card, declared)
        return Exchange(target, tuple(parse_card(t) for t in rest[:-2]))
    raise InvalidCardError(f"{parts[0]!r} is not a table step: the steps are lay, layoff and exchange.")


@_dc.dataclass(frozen=True, slots=True)
class Play(Action):
    """Everything a player lays this turn: new melds, lay-offs and joker exchanges, in order (rules §3.4).

    Table melds are numbered from 0 in the order they were laid (this play's new
    melds continue the numbering).

    >>> p = Play.parse_args("lay 3s JK JK 6s ; layoff 8h on 0".split())
    >>> str(p)
    'play lay 3s JK JK 6s; layoff 8h on 0'
    """

    steps: tuple
    word: ClassVar[str] = "play"
    verb: ClassVar[str] = "play to the table"

    def notation(self) -> str:
        return "play " + "; ".join(step_text(s) for s in self.steps)

    @classmethod
    def parse_args(cls, args: list[str]) -> Play:
        text = " ".join(args)
        if not text.strip():
            raise InvalidCardError("'play' takes steps such as 'play lay 10s Js Qs Ks; layoff 8h on 0'.")
        return cls(tuple(parse_step(s) for s in text.split(";")))

    @classmethod
    def examples(cls) -> list:
        """Plays that are illegal in every position (for the conformance test's action universe)."""
        return [cls((Lay(tuple(parse_hand("As 2s 4s"))),)), cls((LayOff(999, parse_card("7h")),)),
                cls((Exchange(999, (parse_card("7h"),)),))]


ACTIONS = ActionSet("German Rommé", (Draw, Discard, Play, Deal))


def lay_of(m: Meld) -> Lay:
    """The :class:`Lay` step that lays the reading ``m`` (its jokers declared)."""
    js = tuple(s for c, s in zip(m.cards, m.stands_for) if c == JOKER)
    return Lay(tuple(m.cards), js or None)


# ===================================================================== checking a play (pure)


@dataclass(frozen=True)
class PlayOutcome:
    """A legal play's effect: the table and hand after it, the value counted toward the opening,
    whether it opens, is a hand-Rommé (R4), used the waiver of the minimum, and laid the card
    taken from the pile."""

    table: tuple[Meld, ...]
    hand: tuple[int, ...]
    laid: tuple[int, ...]
    opening_value: int
    opens: bool
    hand_romme: bool
    waived: bool
    used_pickup: bool


class PlayRefused(IllegalActionError):
    """A play the rules do not allow: ``reason`` and the ``rule`` (rules section) it breaks."""

    def __init__(self, reason: str, rule: str):
        super().__init__(f"{reason} (rules {rule}).")
        self.reason, self.rule = reason, rule


_RULE_AT_END = re.compile(r"\s*\(rules ([^)]*)\)\.?\s*$")


def _refused(err: IllegalActionError) -> PlayRefused:
    """A table_melds error as a refusal with its section split off."""
    text = str(err)
    m = _RULE_AT_END.search(text)
    if m:
        return PlayRefused(text[:m.start()].rstrip("."), m.group(1))
    return PlayRefused(text.rstrip("."), "§3.4")


def _pickup_step(hand: Sequence[int], steps, pickup: int | None) -> int | None:
    """The index of the step that uses the card taken from the pile (R2: own copies are used first)."""
    if pickup is None:
        return None
    own = list(hand).count(pickup) - 1
    used = 0
    for i, s in enumerate(steps):
        cards = s.cards if isinstance(s, (Lay, Exchange)) else (s.card,)
        used += sum(1 for c in cards if c == pickup)
        if used > own:
            return i
    return None


def evaluate_play(table: Sequence[Meld], hand: Sequence[int], steps: Iterable[TableAction], rules: RommeRules, *, opened: bool,
                  eligible: bool, pickup: int | None = None, must_use_pickup: bool = False) -> PlayOutcome:
    """Check a whole play against rules §3.4–§3.5; return its outcome or raise :class:`PlayRefused`.

    ``opened``: the player has opened before this turn; ``eligible``: a hand-Rommé is
    still possible for him (R4); ``pickup``: the card he took from the pile this turn,
    if still in his hand; ``must_use_pickup``: under ``must_meld_immediately``, it
    must be laid in a new meld by this play. Nothing is changed.

    >>> from rumino.variants.romme import ROMME
    >>> evaluate_play((), parse_hand("10s Js Qs 3d 3h 3c 7d"), (Lay(tuple(parse_hand("10s Js Qs"))),
    ...               Lay(tuple(parse_hand("3d 3h 3c")))), ROMME, opened=False, eligible=False)
    Traceback (most recent call last):
    ...
    rumino.variants.romme.game.PlayRefused: the opening melds total 39, below the minimum 40 (rules §3.4.2).
    """
    steps = tuple(steps)
    if not steps:
        raise PlayRefused("a play lays at least one meld, lay-off or exchange", "§3.4")
    for s in steps:
        if not isinstance(s, (Lay, LayOff, Exchange)):
            raise PlayRefused(f"{s!r} is not a table step (lay, layoff or exchange)", "§3.4")
    tr_rules = TableRules.of(rules)
    waived = False
    try:
        tr = apply_turn(table, hand, steps, tr_rules, opened=opened)
    except IllegalActionError as err:
        if not (eligible and not opened and "§3.4.2" in str(err)):
            raise _refused(err) from None
        try:
            tr = apply_turn(table, hand, steps, _dc.replace(tr_rules, opening_min=0), opened=False)
        except IllegalActionError as err2:
            raise _refused(err2) from None
        if len(tr.hand) > 1:  # the minimum is waived only for laying out the whole hand (R4)
            raise _refused(err) from None
        waived = True
    n_before = len(table)
    lays = [i for i, s in enumerate(steps) if isinstance(s, Lay)]
    new_melds = tr.table[n_before:]
    at = _pickup_step(hand, steps, pickup)
    used_pickup = at is not None
    if must_use_pickup and (at is None or not isinstance(steps[at], Lay)):
        raise PlayRefused(f"{format_card(pickup)} was taken from the discard pile, so it must be laid in a new "
                          f"meld this turn (discard_pickup_rule=must_meld_immediately)", "§3.4.1")
    value = tr.opening_value
    if not opened and not waived and at is not None and isinstance(steps[at], Lay) \
            and not rules.pickup_counts_for_opening:
        pickup_meld = new_melds[lays.index(at)]
        running = 0
        for i, s in enumerate(steps):
            if isinstance(s, Lay):
                if i != at:
                    running += new_melds[lays.index(i)].opening_value()
            elif running < rules.opening_min:
                raise PlayRefused(f"a player who has not opened may not lay off or exchange a joker before his "
                                  f"melds reach {rules.opening_min}; the meld {pickup_meld} holds the card taken "
                                  f"from the discard pile and does not count (pickup_counts_for_opening=False)",
                                  "§3.4.2")
        value = running
        if value < rules.opening_min:
            raise PlayRefused(f"the opening melds total {value} without the meld {pickup_meld}, which holds the "
                              f"card taken from the discard pile and does not count "
                              f"(pickup_counts_for_opening=False); the minimum is {rules.opening_min}", "§3.4.1")
    left = tr.hand
    if not left and rules.must_discard_to_go_out:
        raise PlayRefused("the last card must be discarded to go out (must_discard_to_go_out=True)", "§3.4.7")
    if len(left) == 1 and pickup is not None and left[0] == pickup and not used_pickup \
            and not rules.may_rediscard_pickup:
        raise PlayRefused(f"the one card left would be {format_card(pickup)}, just taken from the discard pile, "
                          f"which may not be discarded this turn, so the turn could not end", "§0.5")
    return PlayOutcome(table=tr.table, hand=left, laid=tr.laid, opening_value=value if not opened else 0,
                       opens=not opened and bool(lays), hand_romme=eligible and not opened and len(left) <= 1,
                       waived=waived, used_pickup=used_pickup)


def _try(table, hand, steps, rules, **kw) -> PlayOutcome | None:
    try:
        return evaluate_play(table, hand, steps, rules, **kw)
    except IllegalActionError:
        return None


def without_cards(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def joker_slides(before: Sequence[Meld], after: Sequence[Meld], steps: Iterable[TableAction]) -> list[str]:
    """What a play's lay-offs did to the jokers without being asked: laying off the card a run-end joker
    stands for slides the joker to the other end (rumino.table.melds.lay_off); one line for each.

    >>> from rumino.melds import ROMME_MELDS
    >>> old = (declare(parse_hand("5h 6h JK"), ROMME_MELDS, jokers=parse_hand("7h")),)
    >>> new = (declare(parse_hand("JK 5h 6h 7h"), ROMME_MELDS, jokers=parse_hand("4h")),)
    >>> joker_slides(old, new, (LayOff(0, parse_card("7h")),))
    ['laying off 7♥ on meld 0 slides its joker to the other end: the joker now stands for 4♥']
    """
    out = []
    for i in sorted({s.target for s in steps if isinstance(s, LayOff) and s.card != JOKER}):
        if not (isinstance(i, int) and 0 <= i < len(before) and i < len(after)) or before[i].kind != "run":
            continue
        was = Counter(t for c, t in zip(before[i].cards, before[i].stands_for) if c == JOKER)
        now = Counter(t for c, t in zip(after[i].cards, after[i].stands_for) if c == JOKER)
        laid = [s.card for s in steps if isinstance(s, LayOff) and s.target == i and s.card in was - now]
        for card, new in zip(laid, sorted((now - was).elements())):
            out.append(f"laying off {format_card(card, unicode=True)} on meld {i} slides its joker to the other "
                       f"end: the joker now stands for {format_card(new, unicode=True)}")
    return out


def could_lay_off(m: Meld, card: int) -> bool:
    """A cheap test before the exact one: can ``card`` possibly extend ``m``?"""
    if card == JOKER:
        return True
    if m.kind == "set":
        return len(m.cards) < 4 and card % 13 == m.stands_for[0] % 13
    suit = m.stands_for[0] // 13
    if card // 13 != suit:
        return False
    r = card % 13
    lo, hi = m.stands_for[0] % 13, m.stands_for[-1] % 13
    return r in ((lo - 1) % 13, (hi + 1) % 13) or any(c == JOKER and s == card for c, s in zip(m.cards, m.stands_for))


def best_opening_melds(hand: Sequence[int], rules: RommeRules, need: int = 1) -> tuple[Meld, ...]:
    """The melds of the hand's best opening (:func:`rumino.hand.arrange.max_opening`) if it is worth at
    least ``need``, else ``()``; the compiled kernel (:mod:`rumino.hand.opening`) answers "not
    enough" first, 25 times faster than the search that finds the melds."""
    from rumino.hand.opening import max_opening_fast  # compiled by numba on first use: imported when needed

    mr = rules.meld_rules
    if not hand or max_opening_fast(hand, mr) < max(need, 1):
        return ()
    return max_opening(hand, mr).melds


def layout_melds(hand: Sequence[int], rules: RommeRules, forbidden: int | None = None) -> tuple[Meld, ...]:
    """Melds that lay out the whole hand, or all of it but one card (not ``forbidden``) to discard;
    ``()`` if there are none. The compiled evaluator decides first (deadwood 0 after one discard)."""
    if len(hand) < 3:
        return ()
    ev = evaluator_for(rules)
    mr = rules.meld_rules
    if ev.deadwood(hand) == 0:
        return best_arrangement(hand, mr).melds
    value, discards = ev.after_draw(hand, forbidden)
    if value != 0:
        return ()
    return best_arrangement(without_cards(hand, [discards[-1]]), mr).melds


def plays_laying(table: Sequence[Meld], hand: Sequence[int], card: int, rules: RommeRules, *, opened: bool, eligible: bool) -> list[tuple]:
    """Plays that lay ``card`` (already in ``hand``, just taken from the pile) in a new meld (R2).

    For a player who has not opened, each meld holding the card is completed by the
    best opening of the rest of the hand (exact: every such meld is tried).
    """
    mr = rules.meld_rules
    out = []
    kw = dict(opened=opened, eligible=eligible, pickup=card, must_use_pickup=True)
    for cand in candidate_melds(to_counts(hand), mr):
        if card not in cand.naturals:
            continue
        m = cand.reading
        steps = (lay_of(m),)
        if not opened:
            rest = without_cards(hand, m.cards)
            steps += tuple(lay_of(x) for x in best_opening_melds(rest, rules))
        if _try(table, hand, steps, rules, **kw) is not None:
            out.append(steps)
    if not out and eligible and not opened:  # a hand-Rommé below the minimum (R4)
        steps = tuple(lay_of(m) for m in layout_melds(hand, rules, card))
        if steps and _try(table, hand, steps, rules, **kw) is not None:
            out.append(steps)
    return out


def menu_plays(table: Sequence[Meld], hand: Sequence[int], rules: RommeRules, *, opened: bool, eligible: bool, pickup: int | None,
               must_use_pickup: bool) -> list[tuple]:
    """The plays ``legal_actions`` lists (see the module docstring), each checked by :func:`evaluate_play`."""
    mr = rules.meld_rules
    kw = dict(opened=opened, eligible=eligible, pickup=pickup, must_use_pickup=must_use_pickup)
    if must_use_pickup:
        return plays_laying(table, hand, pickup, rules, opened=opened, eligible=eligible)
    found: list[tuple] = []

    def add(steps):
        if steps and steps not in found and _try(table, hand, steps, rules, **kw) is not None:
            found.append(steps)

    if not opened:
        base = hand
        if pickup is not None and not rules.pickup_counts_for_opening:
            base = without_cards(hand, [pickup])
        add(tuple(lay_of(m) for m in best_opening_melds(base, rules, rules.opening_min)))
        if eligible:
            add(tuple(lay_of(m) for m in layout_melds(hand, rules, pickup)))
        return found
    for cand in candidate_melds(to_counts(hand), mr):
        add((lay_of(cand.reading),))
    for c in sorted(set(hand)):
        for i, m in enumerate(table):
            if could_lay_off(m, c):
                add((LayOff(i, c),))
    for i, m in enumerate(table):
        for s in sorted({s for c, s in zip(m.cards, m.stands_for) if c == JOKER}):
            for steps in joker_exchanges(table, hand, i, m, s, rules):
                add(steps)
    return found


def joker_exchanges(table: Sequence[Meld], hand: Sequence[int], i: int, m: Meld, s: int, rules: RommeRules) -> list[tuple]:
    """Exchange plays for the joker of meld ``i`` standing for ``s``, with the freed joker placed."""
    mr = rules.meld_rules
    if m.kind == "set" and rules.joker_exchange == "dskv":
        rank = m.stands_for[0] % 13
        missing = [x * 13 + rank for x in range(4) if x * 13 + rank not in m.cards]
        need = tuple(sorted(missing))
        if Counter(need) - Counter(hand) or len(need) + len(m.naturals) != 4:
            return []
        ex = Exchange(i, need)
    else:
        natural = s
        if m.kind == "set":
            natural = next((c for c in hand if c != JOKER and c % 13 == s % 13 and c not in m.cards), None)
        if natural is None or natural not in hand:
            return []
        ex = Exchange(i, (natural,))
    rest = without_cards(hand, ex.cards)
    freed = m.jokers if (m.kind == "set" and rules.joker_exchange == "dskv") else 1
    out = []
    counts = to_counts(rest)
    counts[JOKER] += freed
    for cand in candidate_melds(counts, mr):
        if cand.jokers >= freed:
            out.append((ex, lay_of(cand.reading)))
            break
    if rules.freed_joker_use == "new_meld_or_layoff" and freed == 1:
        for j, t in enumerate(table):
            if j != i and t.kind == "run":
                out.append((ex, LayOff(j, JOKER)))
                break
    return out


# ===================================================================== results


@_dc.dataclass(frozen=True, kw_only=True)
class HandResult(_HandResult):
    """How a Rommé deal ended (rules §3.5): ``deadwood`` holds each player's penalty (§3.3) before
    the ``multiplier`` (a hand-Rommé's, else 1); ``winner`` went out (None if nobody did)."""

    winner: int | None = None
    multiplier: int = 1
    table: tuple = ()

    TEXT: ClassVar[dict] = {**_HandResult.TEXT, "romme": "{who} went out (Rommé)",
                            "hand_romme": "{who} made a hand-Rommé"}


@_dc.dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """Who won the game (highest total, R5, ``how``: ``"rotations"`` or ``"threshold"``) and the totals,
    which are also what each seat won or lost (``returns``); no money changes hands."""

    totals: tuple[int, ...]
    hands: int

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        return [("totals", "final totals", list(game.scores))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        end = "the deals are played out" if self.how == "rotations" else "a player passed the threshold"
        return f"{win} with the best total, {max(game.scores)} ({end})."


# ===================================================================== the view


@_dc.dataclass(eq=False, kw_only=True, slots=True)
class RommeView(MeldedView):
    """What a Rommé player sees: the table's melds (jokers identified), who has opened, who laid
    each meld, and the state of his own turn (played already, a card from the pile still to lay, a
    hand-Rommé possible)."""

    owners: tuple = ()
    played: bool = False
    pickup_pending: int | None = None  # must_meld_immediately: the card taken that must still be laid
    eligible: bool = False  # a hand-Rommé is still possible for this player (R4)
    last_card_only: bool = False  # after a hand-Rommé play leaving one card: discard it to go out

    def evaluate(self, steps: Iterable[TableAction]) -> PlayOutcome:
        """Check a play for this player now (raises :class:`PlayRefused`); nothing changes."""
        return evaluate_play(self.table, self.hand, steps, self.rules, opened=self.opened[self.seat],
                             eligible=self.eligible, pickup=self.pickup,
                             must_use_pickup=self.pickup_pending is not None)

    def describe_extra(self, unicode: bool = True) -> list[str]:
        """Lines for the terminal: the table and who has opened."""
        lines = ["table:" if self.table else "table: (no melds yet)"]
        for i, m in enumerate(self.table):  # in suit symbols, as the hand beside it (ASCII where the terminal has none)
            cards = " ".join(token_words(t) if unicode else token_text(t) for t in meld_tokens(m))
            lines.append(f"  [{i}] {cards}  (P{self.owners[i]})")
        lines.append("opened: " + (", ".join(f"P{p}" for p, o in enumerate(self.opened) if o) or "nobody"))
        if self.phase == "discard" and self.my_turn and not self.played:
            lines.append("play: 'play lay 10s Js Qs Ks; layoff 8h on 0; exchange 7h on 1', then discard")
        return lines


# ===================================================================== the game


class RommeGame(MeldedGame):
    """One game of German Rommé (rules §3) for 2–6 players.

    Phases: ``discard`` (the dealer's first turn under ``dealer14``), ``turn``
    (draw), ``discard`` (one ``play`` at most, then a discard), ``between_hands``,
    ``game_over``. Scores are signed (R5).
    """

    NAME = "German Rommé"
    ENDINGS = ENDINGS
    ACTIONS = ACTIONS
    RULES_CLASS = RommeRules
    PACK = PACK
    HAND_SIZE = 13
    MIN_PLAYERS, MAX_SEATS = 2, 6
    VIEW = RommeView
    SECTIONS = {"deal": "§3.1", "turn": "§3.4", "end": "§3.5"}
    HANDLERS = {Play: "_do_play"}
    PHASE_ACTIONS = {"discard": (Discard, Play)}
    PHASE_WHAT = {"discard": "it is player {p}'s turn to play to the table and discard"}
    PHASE_CHOICES = {"discard": "play melds, lay-offs and joker exchanges to the table (once), then discard"}

    # ----------------------------------------------------------------- setup and the deal

    def setup(self) -> None:
        self.notices: list[tuple[int, str]] = []  # (index in history, text): what a play did unasked (a joker slid)
        super().setup()  # the table; the pack follows the rules' n_jokers (§3.1) through the template
        self.owners: list[int] = []
        self.played = False
        self.pickup_pending: int | None = None
        self.last_card_only = False
        self.hand_romme_turn = False
        self.held = [0] * self.initial_players  # cards each seat should hold (a second count for the invariants)
        self.robbed: int | None = None
        self._checked = None  # (moves, steps, outcome) of the play ``check`` has just evaluated

    @property
    def hand_size(self) -> int:
        n = self.n_seats
        return self.rules.hand_size_5_6p if n >= 5 else 13

    def deal(self) -> None:
        """13 each (``hand_size_5_6p`` with 5–6 players), one at a time from the dealer's left; the
        dealer a 14th (``dealer14``) or an upcard (``upcard_left_starts``) (§3.1); R7 for the cut."""
        n = self.n_seats
        self.hand_number += 1
        self.in_hand = [True] * n
        order = from_left_of(self.dealer, range(n), n)
        self.hand_players = tuple(order)
        cards = self.rng.permutation(self._pack_array).tolist()
        self.robbed = None
        robber = order[-2] if n > 1 else order[0]  # the dealer's right-hand neighbour cuts (§3.1)
        if self.rules.cut_joker_robbing:
            cut = int(self.rng.integers(1, len(cards)))
            if cards[cut - 1] == JOKER:
                self.robbed = robber
                cards = cards[cut:] + cards[:cut - 1]
            else:
                cards = cards[cut:] + cards[:cut]
        size = self.hand_size
        dealer14 = self.rules.deal_mode == "dealer14"
        k = len(order)
        hands = [[] for _ in range(n)]
        for i, p in enumerate(order):
            hands[p] = cards[i:size * k:k]
        at = size * k
        if dealer14:
            hands[self.dealer].append(cards[at])
            at += 1
            pile = []
        else:
            pile = [cards[at]]
            at += 1
        if self.robbed is not None:
            hands[self.robbed].append(JOKER)
        self.hands, self.discard, self.stock = hands, pile, cards[at:][::-1]
        self.clear_table()
        self.after_layout()
        self._dw.clear()
        self.pickup = None
        self.drawn = None
        self.reshuffles = 0
        self.reshuffles_at_play = 0  # the stock's turn-overs when a card was last laid (reshuffle_limit)
        self._new_turn()
        if dealer14:
            self.turn = self.dealer
            self.phase = "discard"  # the dealer starts without drawing (§3.1)
        else:
            self.turn = order[0]
            self.phase = "turn"

    def _new_turn(self) -> None:
        self.played = False
        self.pickup_pending = None
        self.last_card_only = False
        self.hand_romme_turn = False

    # ----------------------------------------------------------------- what may be done

    def _eligible(self, seat: int) -> bool:
        if self.opened[seat]:
            return False
        return self.rules.hand_romme_condition == "no_own_prior_melds" or not self.table

    def _pickup_in_hand(self, seat: int) -> int | None:
        return self.pickup if (self.pickup is not None and self.turn == seat) else None

    def evaluate(self, seat: int, steps: Iterable[TableAction]) -> PlayOutcome:
        return evaluate_play(self.table, self.hands[seat], steps, self.rules, opened=self.opened[seat],
                             eligible=self._eligible(seat), pickup=self._pickup_in_hand(seat),
                             must_use_pickup=self.pickup_pending is not None)

    def _discard_takeable(self, seat: int) -> bool:
        if not self.discard:
            return False
        if self.rules.discard_pickup_rule == "free":
            return True
        top = self.discard[-1]
        return bool(plays_laying(self.table, self.hands[seat] + [top], top, self.rules,
                                 opened=self.opened[seat], eligible=self._eligible(seat)))

    def may_take_discard(self, seat: int) -> bool:
        return self._discard_takeable(seat)  # discard_pickup_rule: the card must be laid this turn, unless free

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        """The plays the menu lists (rules §3.4), before the discards; none once the player has played, or
        when only his last card is left to discard (R4)."""
        if self.last_card_only or self.played:
            return []
        return [Play(s) for s in menu_plays(self.table, self.hands[seat], self.rules, opened=self.opened[seat],
                                            eligible=self._eligible(seat), pickup=self._pickup_in_hand(seat),
                                            must_use_pickup=self.pickup_pending is not None)]

    def discard_choices(self, seat: int, forbidden: int | None) -> list[int]:
        """After a hand-Rommé below the minimum, the last card (R4); while a card taken must still be laid
        (``must_meld_immediately``), none; otherwise every card but the forbidden one."""
        if self.last_card_only:
            return [self.hands[seat][0]]
        if self.pickup_pending is not None:
            return []
        return super().discard_choices(seat, forbidden)

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        kind = type(action)
        if phase == "turn" and kind is Draw and action.source == "discard" and \
                self.rules.discard_pickup_rule != "free" and not self._discard_takeable(actor):
            raise refuse(action, player=actor, phase=phase, rule="§3.4.1",
                         reason=f"{format_card(self.discard[-1])} may be taken only to be laid in a new meld this "
                                f"turn, and player {actor} has no legal play that does so "
                                f"(discard_pickup_rule=must_meld_immediately)")
        if phase != "discard":
            return
        if kind is Discard:
            if self.pickup_pending is not None:
                raise refuse(action, player=actor, phase=phase, rule="§3.4.1",
                             reason=f"{format_card(self.pickup_pending)} was taken from the discard pile and must "
                                    f"first be laid in a new meld (discard_pickup_rule=must_meld_immediately)")
        elif kind is Play:
            if self.played:
                raise refuse(action, player=actor, phase=phase, rule="§3.4",
                             reason=f"player {actor} has already played to the table this turn: a turn's lays, "
                                    f"lay-offs and exchanges are one play (now discard)")
            if not isinstance(action.steps, tuple) or not action.steps:
                raise refuse(action, player=actor, phase=phase, rule="§3.4", reason="the play has no steps")
            try:
                out = self.evaluate(actor, action.steps)
                self._checked = (len(self.history), action.steps, out)  # _do_play applies it without a second check
            except PlayRefused as err:
                raise refuse(action, player=actor, phase=phase, rule=err.rule, reason=err.reason) from None
            except IllegalActionError as err:  # pragma: no cover - every refusal is a PlayRefused
                e = _refused(err)
                raise refuse(action, player=actor, phase=phase, rule=e.rule, reason=e.reason) from None

    # ----------------------------------------------------------------- doing it

    def on_draw(self, seat: int, card: int, source: str) -> None:
        self.held[seat] += 1
        if source == "discard" and self.rules.discard_pickup_rule == "must_meld_immediately":
            self.pickup_pending = card

    def _do_play(self, action: Play) -> None:
        seat = self.turn
        done = self._checked
        self._checked = None
        if done is not None and done[0] == len(self.history) and done[1] is action.steps:
            out = done[2]
        else:
            out = self.evaluate(seat, action.steps)
        n_old = len(self.table)
        before = self.table
        self.table = tuple(out.table)
        self.notices.extend((len(self.history), text) for text in joker_slides(before, self.table, action.steps))
        self.owners.extend([seat] * (len(self.table) - n_old))
        # the table is open: what left the hand for it, and a joker taken from it, everyone saw
        old, new = Counter(self.hands[seat]), Counter(out.hand)
        self.let_go(seat, (old - new).elements())
        self.took_face_up(seat, (new - old).elements())
        self.hands[seat] = list(out.hand)
        self.held[seat] -= len(out.laid)
        self._dw.pop(seat, None)
        if out.opens:
            self.opened[seat] = True
        if out.used_pickup:
            self.pickup = None  # the card taken is on the table now (§0.5 no longer applies to it)
            self.pickup_pending = None
        self.played = True
        self.reshuffles_at_play = self.reshuffles
        self.hand_romme_turn = out.hand_romme
        self.history.append((seat, action))
        if not self.hands[seat]:
            self.end_hand("hand_romme" if out.hand_romme else "romme", seat)
        elif out.waived:
            self.last_card_only = True  # R4: a hand-Rommé below the minimum must now go out

    def on_discard(self, seat: int, card: int) -> None:
        self.held[seat] -= 1
        if not self.hands[seat]:
            self.end_hand("hand_romme" if self.hand_romme_turn else "romme", seat)
            return
        self._new_turn()
        self.next_turn()

    def next_turn(self) -> None:
        """The template's next turn (the stock rules of §0.4), and two ends of Rommé's own: a dead hand
        (``reshuffle_limit`` turn-overs with no card laid) and a turn in which no card can be drawn (R6)."""
        limit = self.rules.reshuffle_limit
        idle = self.reshuffles - self.reshuffles_at_play
        if self._stock_exhausted == "reshuffle" and not self.stock and idle >= limit:
            self.phase = "turn"
            self.end_hand("stock_exhausted", None, detail=f"a dead hand: the stock ran out again after {limit} "
                                                          f"turn-overs with no card laid")
            return
        super().next_turn()
        if self.phase == "turn" and not self.can_draw_stock() and not self._discard_takeable(self.turn):
            self.end_hand("stock_exhausted", None, detail="no card can be drawn")  # R6

    def expected_hand_size(self, seat: int) -> int:
        return self.held[seat]

    # ----------------------------------------------------------------- scoring

    def penalty(self, cards: Iterable[int]) -> int:
        """Penalty of cards left in a hand (§3.3): face value, J Q K 10, ace ``ace_penalty``, joker
        ``joker_penalty``."""
        values = self.rules.meld_rules.values
        return int(sum(int(values[c]) for c in cards))

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:
        players = self.hand_players
        n = self.n_seats
        pen = [self.penalty(self.hands[p]) for p in range(n)]
        deltas = [0] * n
        mult = 1
        if ending == "stock_exhausted":
            if self._stock_exhausted == "void_hand":
                detail = detail or "the hand is void"
            else:
                for p in players:
                    deltas[p] = -pen[p]
                detail = detail or "everyone pays his penalty"
        else:
            if ending == "hand_romme":
                mult = self.rules.hand_romme_multiplier
            for p in players:
                if p != by:
                    deltas[p] = -pen[p] * mult
            if self.rules.winner_collects_sum:
                deltas[by] = -sum(deltas)
        for p in players:
            self.scores[p] += deltas[p]
        return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                          detail=detail, deadwood=tuple(pen), deltas=tuple(deltas), scores=tuple(self.scores),
                          hands={p: tuple(self.hands[p]) for p in players}, winner=by, multiplier=mult,
                          table=tuple(str(m) for m in self.table))

    def after_hand(self, result: HandResult) -> None:
        self._new_turn()
        self.pickup = None
        kind, _, k = self.rules.game_end.partition(":")
        if kind == "rotations":
            done = self.hand_number >= int(k) * self.n_seats
        else:
            done = min(self.scores) <= -int(k)
        if done:
            self.end_game(None, kind)
            return
        self.phase = "between_hands"

    def end_game(self, winners: Sequence[int] | None, how: str) -> None:
        best = max(self.scores)
        winners, _ = self.finish([p for p in range(self.n_seats) if self.scores[p] == best], how)
        self.result = GameResult(winners=winners, how=how, next_dealer=winners[0], returns=tuple(self.scores),
                                 payouts_cents=(0,) * self.n_seats, totals=tuple(self.scores), hands=self.hand_number)

    # ----------------------------------------------------------------- views, positions, snapshots, invariants

    def view_fields(self, seat: int) -> dict:
        mine = self.turn == seat and self.phase == "discard"
        return dict(super().view_fields(seat), owners=tuple(self.owners),
                    played=mine and self.played, pickup_pending=self.pickup_pending if mine else None,
                    eligible=self._eligible(seat), last_card_only=mine and self.last_card_only)

    def probe_actions(self) -> list:
        """Plays to try in the conformance test: the listed ones and some that are illegal by construction
        (cards not held, a meld that does not exist, a lay-off before opening)."""
        if self.phase != "discard":
            return []
        seat = self.turn
        hand = self.hands[seat]
        out = [a for a in self.legal_actions() if isinstance(a, Play)]
        missing = [c for c in range(52) if c not in hand]
        for c in missing[:2]:
            out.append(Play((LayOff(0, c),)))
        out.append(Play((LayOff(len(self.table), hand[0]),)))
        if not self.opened[seat] and self.table and not self.played:
            out.append(Play((LayOff(0, hand[0]),)))  # §3.7.7
        return out

    def read_table_meld(self, text: str | Lay) -> Meld:
        lay = parse_step("lay " + text) if isinstance(text, str) else text
        return declare(lay.cards, self.rules.meld_rules, lay.jokers)

    def after_layout(self) -> None:
        self.owners = [next((p for p in range(self.n_seats) if self.opened[p]), 0)] * len(self.table)
        self.held = [len(h) for h in self.hands]

    def snapshot_extra(self) -> tuple:
        return super().snapshot_extra() + (tuple(self.owners), self.played, self.pickup_pending,
                self.last_card_only, self.hand_romme_turn, tuple(self.held), self.reshuffles,
                self.reshuffles_at_play)

    def check_game_invariants(self, deep: bool = True) -> None:
        """Every table meld a valid reading with its jokers identified (§3.2, the melded games' check);
        only opened players own melds; the turn's flags agree with the phase."""
        super().check_game_invariants(deep)
        expect(len(self.owners) == len(self.table), "every table meld has an owner")
        for p in self.owners:
            expect(self.opened[p], f"seat {p} owns a table meld without having opened")
        if self.phase != "discard":
            expect(not self.played and self.pickup_pending is None and not self.last_card_only,
                   "a turn's play state outlived the turn")
        if self.last_card_only:
            expect(len(self.hands[self.turn]) == 1, "a hand-Rommé's last discard with more than one card")
        if self.phase == "game_over":
            expect(self.result is not None and max(self.scores) == self.scores[self.result.winners[0]],
                   "the game's winner does not have the highest total")

    def check_result(self, r: HandResult, before: list, deep: bool) -> None:
        """One deal's scores against §3.5 from the hands shown."""
        for p in r.players:
            expect(r.deadwood[p] == self.penalty(r.hands[p]), f"hand {r.number}: seat {p}'s penalty is wrong")
        if r.ending in ("romme", "hand_romme"):
            w = r.by
            expect(not r.hands[w], f"hand {r.number}: the winner still holds cards")
            mult = self.rules.hand_romme_multiplier if r.ending == "hand_romme" else 1
            expect(r.multiplier == mult, f"hand {r.number}: wrong multiplier")
            for p in r.players:
                if p != w:
                    expect(r.deltas[p] == -r.deadwood[p] * mult, f"hand {r.number}: seat {p}'s score is wrong")
            collects = -sum(r.deltas[p] for p in r.players if p != w) if self.rules.winner_collects_sum else 0
            expect(r.deltas[w] == collects, f"hand {r.number}: the winner's score is wrong")
        else:
            void = self._stock_exhausted == "void_hand"
            for p in r.players:
                expect(r.deltas[p] == (0 if void else -r.deadwood[p]), f"hand {r.number}: seat {p}'s score is wrong")


__all__ = ["RommeGame", "RommeView", "Play", "ACTIONS", "HandResult", "GameResult", "PlayOutcome", "PlayRefused",
           "evaluate_play", "menu_plays", "best_opening_melds", "layout_melds", "plays_laying", "lay_of", "parse_step",
           "step_text", "ENDINGS", "ROMME"]
