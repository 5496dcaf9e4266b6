"""Rummoli's default bot (``default``): the widow by expected value, bids, bets and stops (rules §2).

The rules it follows, each simple enough to state:

* **Worth of a hand** ``V(h)`` = the chance ``h`` wins the poker showdown × the chips on the
  poker section, plus the chips of every section ``h`` will take by itself: each single pay
  card it holds (10♠ J♦ Q♣ K♥ A♠), A♦ with K♦, and 7-8-9 of one suit. The poker chance is a
  Monte Carlo estimate (:data:`SAMPLES` deals of the unseen cards to the other hands, ties
  counted as shares), seeded from the bot's own rng.
* **The dealer swaps** when the widow's expected worth is higher than his hand's:
  ``E[V(widow)] > V(hand)``. The widow's poker chance is estimated on the same sampled deals
  (the widow is a random block of the unseen cards, and the others' hands are the rest), and
  its pay cards by their exact chance to be in the widow.
* **A dealer who keeps sells the widow** (``keep``) when a sale can only help him, and
  otherwise keeps it unsold (``keep unsold``): selling brings him the bid, at least 1 chip,
  and costs him at most the poker pot in the deals where the widow, in a buyer's hands,
  beats his own hand (his pay cards are his either way, and one hand is dead either way).
  So he sells when ``P(a random widow beats his hand) × poker pot < 1``; that chance is
  counted on the same sampled deals, so the estimate draws nothing more from the rng.
* **A bidder** values the widow at ``gain = E[V(widow)] − V(hand)`` and bids at most half the
  gain (a margin for the noise and for what the dealer learns): in the open auction the
  lowest allowed bid while it is within that limit, in the sealed one half the gain once.
* **Betting** (fixed limit): bet or raise with a poker chance of at least one half against
  the players still in; call when the chance times the pot after calling covers the call
  (pot odds); otherwise check when free, else fold.
* **The stops** leave no choice but which of equally low cards to lead: lead the one that
  starts the longest run of the bot's own consecutive cards (it sheds most cards at once),
  the lower suit first on a tie. Manual claims are always claimed.

>>> from rumino.variants.rummoli import RummoliGame, RUMMOLI
>>> from rumino.engine.protocol import play
>>> g = play(RummoliGame.new(RUMMOLI, 3, seed=5), [RummoliDefault(seed=1) for _ in range(3)])
>>> g.game_over, sum(g.chips)
(True, 300)
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from rumino.engine.base import TurnGame
from rumino.engine.protocol import Action
from rumino.hand.poker import evaluate_batch, hand_value
from rumino.variants.rummoli.game import (AD, AK_SECTION, BET, CALL, CHECK, CLAIM, FOLD, KD, KEEP, KEEP_UNSOLD, PASS,
                                     POKER_SECTION, RAISE, SEQ_SECTION, SINGLE_PAY, STRENGTH, SWAP, Bid, RummoliGame,
                                     RummoliView, next_up)
from rumino.engine.player import Player

SAMPLES = 40  # sampled deals per estimate of a poker chance


def pay_worth(hand: Iterable[int], board: Sequence[int]) -> int:
    """Chips of the sections ``hand`` takes by itself (single pay cards, A♦K♦, 7-8-9 of a suit).

    >>> pay_worth((9, 38, 26, 5), [1] * 9)   # 10♠, K♦ + A♦
    2
    """
    s = set(hand)
    v = sum(board[sec] for c, sec in SINGLE_PAY.items() if c in s)
    if KD in s and AD in s:
        v += board[AK_SECTION]
    if any(all(suit * 13 + r in s for r in (6, 7, 8)) for suit in range(4)):
        v += board[SEQ_SECTION]
    return v


def expected_pay_worth(unseen_count: int, size: int, hand: Iterable[int], board: Sequence[int]) -> float:
    """Expected chips of the sections a random ``size``-card block of the unseen cards takes by itself."""
    s = set(hand)
    u = unseen_count
    if u <= 0 or size <= 0:
        return 0.0
    p1 = size / u
    p2 = p1 * (size - 1) / (u - 1) if u > 1 else 0.0
    p3 = p2 * (size - 2) / (u - 2) if u > 2 else 0.0
    v = sum(board[sec] * p1 for c, sec in SINGLE_PAY.items() if c not in s)
    if KD not in s and AD not in s:
        v += board[AK_SECTION] * p2
    free = sum(1 for suit in range(4) if not any(suit * 13 + r in s for r in (6, 7, 8)))
    return v + board[SEQ_SECTION] * p3 * free


def poker_chances(hand: Sequence[int], other_sizes: Iterable[int], widow_size: int, rng: np.random.Generator,
                  samples: int = SAMPLES) -> tuple[float, float]:
    """``(chance hand wins, chance a random widow wins)`` against hands of ``other_sizes`` dealt from
    the unseen cards (the widow, when ``widow_size`` > 0, is a block of them too; the hand it
    would replace is then out of play). Ties count as shares. All sampled deals are valued in
    one compiled batch per hand (:func:`rumino.hand.poker.evaluate_batch`).
    :func:`widow_chances` adds the widow's chance against ``hand`` alone, on the same deals.

    >>> from rumino.cards import parse_hand
    >>> royal = parse_hand("As Ks Qs Js 10s 2c 3c 4d 5d 6h 7h 8c 9d")  # only another royal flush ties
    >>> poker_chances(royal, [13, 13], 13, np.random.default_rng(0), 20)[0] >= 0.95
    True
    """
    return widow_chances(hand, other_sizes, widow_size, rng, samples)[:2]


def widow_chances(hand: Sequence[int], other_sizes: Iterable[int], widow_size: int, rng: np.random.Generator,
                  samples: int = SAMPLES) -> tuple[float, float, float]:
    """:func:`poker_chances` and a third chance from the same sampled deals (the same draws from
    ``rng``): that a random widow beats ``hand`` head to head (ties count half), 0 when the widow
    has fewer than 5 cards.

    >>> from rumino.cards import parse_hand
    >>> royal = parse_hand("As Ks Qs Js 10s 2c 3c 4d 5d 6h 7h 8c 9d")  # no widow beats a royal flush
    >>> widow_chances(royal, [13, 13], 13, np.random.default_rng(0), 20)[2]
    0.0
    """
    mine = set(hand)
    unseen = np.array([c for c in range(52) if c not in mine], dtype=np.int64)
    deals = rng.permuted(np.tile(unseen, (samples, 1)), axis=1)
    v_hand = hand_value(tuple(hand))
    best = np.full(samples, -1, dtype=np.int64)
    ties = np.zeros(samples, dtype=np.int64)
    pos = widow_size
    for k in other_sizes:
        if k >= 5:
            v = evaluate_batch(deals[:, pos:pos + k], check=False)
            higher = v > best
            ties = np.where(higher, 1, ties + (v == best))
            best = np.maximum(best, v)
        pos += k

    def share(values) -> float:
        won = (values > best) + (values == best) / (ties + 1)
        return float(won.mean())

    if widow_size >= 5:
        v_widow = evaluate_batch(deals[:, :widow_size], check=False)
        chance_w = share(v_widow)
        beats = float(((v_widow > v_hand) + (v_widow == v_hand) / 2).mean())
    else:
        chance_w = beats = 0.0
    return share(np.full(samples, v_hand, dtype=np.int64)), chance_w, beats


class RummoliDefault(Player):
    """The default Rummoli bot (see the module docstring for its rules)."""

    kind = "default"

    def __init__(self, *, seed: int | Sequence[int] | None = None, rng: np.random.Generator | None = None,
                 name: str | None = None, samples: int = SAMPLES, sell_widow: str = "always"):
        super().__init__(name)
        # "always": a dealer who keeps his hand offers the widow (a sale brings at least 1 chip); the
        # book's worked deals are played by this bot. "judged": only when the sale can only help him
        # (:meth:`sells`): the poker pot he risks, weighed against the smallest bid.
        if sell_widow not in ("always", "judged"):
            raise ValueError(f"sell_widow is {sell_widow!r}: it is 'always' or 'judged'.")
        self.sell_widow = sell_widow
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.samples = samples
        self._cache: dict = {}

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        return isinstance(game, type) and issubclass(game, RummoliGame)

    def choose(self, view: RummoliView) -> Action:
        ph = view.phase
        if ph == "stops":
            return self._play(view)
        if ph == "widow":
            legal = view.legal_actions
            if SWAP in legal and self.widow_gain(view) > 0:
                return SWAP
            if KEEP_UNSOLD not in legal or self.sell_widow == "always":
                return KEEP
            return KEEP if self.sells(view) else KEEP_UNSOLD
        if ph == "auction":
            return self._bid(view)
        if ph == "betting":
            return self._bet(view)
        if ph == "claim":
            return CLAIM
        legal = view.legal_actions
        if legal:
            return legal[0]
        raise ValueError(f"player {view.seat} has nothing to decide in phase {ph!r}.")

    # the widow
    def _others(self, view: RummoliView, include_widow: bool) -> tuple[list[int], int]:
        sizes = [view.hand_sizes[p] for p in range(len(view.hand_sizes)) if p != view.seat and view.in_hand[p]]
        return sizes, (view.widow_size if include_widow else 0)

    def _widow_estimates(self, view: RummoliView) -> tuple[float, float]:
        """``(E[V(widow)] − V(hand), P(a widow beats the hand))`` (cached for the deal)."""
        key = ("gain", view.hand_number, view.seat, tuple(view.hand), view.board)
        if key not in self._cache:
            sizes, w = self._others(view, True)
            ph, pw, beats = widow_chances(view.hand, sizes, w, self.rng, self.samples)
            pot = view.board[POKER_SECTION]
            unseen = 52 - len(view.hand)
            v_hand = ph * pot + pay_worth(view.hand, view.board)
            v_widow = pw * pot + expected_pay_worth(unseen, w, view.hand, view.board)
            self._cache = {key: (v_widow - v_hand, beats)}
        return self._cache[key]

    def widow_gain(self, view: RummoliView) -> float:
        """``E[V(widow)] − V(hand)`` in chips (cached for the deal)."""
        return self._widow_estimates(view)[0]

    def sells(self, view: RummoliView) -> bool:
        """Whether the dealer who keeps his hand offers the widow for sale (§2.3 leaves it to him).

        A sale brings at least the minimum bid of 1 chip (nothing changes if nobody bids); what it
        can cost him is the poker pot, in the deals where the widow, now in a buyer's hands, beats
        his hand; his own pay cards are his either way, and either way one hand is dead. So he
        sells when that expected cost is below the smallest bid: then any bid can only help him.
        A good hand sells; a middling one keeps the widow out of play.
        """
        return self._widow_estimates(view)[1] * view.board[POKER_SECTION] < 1
    def _bid(self, view: RummoliView) -> Action:
        limit = int(self.widow_gain(view) / 2)
        legal = view.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        if view.rules.widow_auction == "open":
            if bids and bids[0].amount <= limit:
                return bids[0]
            return PASS
        want = min(limit, view.my_chips)  # limit ≤ the gain ≤ the sheet's chips: bids have no other cap
        return Bid(want) if want >= 1 and Bid(want) in legal else PASS

    # the poker pot
    def win_chance(self, view: RummoliView) -> float:
        key = ("poker", view.hand_number, view.seat, tuple(view.hand), view.folded)
        if key not in self._cache:
            sizes = [view.hand_sizes[p] for p in range(len(view.hand_sizes))
                     if p != view.seat and view.in_hand[p] and not view.folded[p]]
            chance, _ = poker_chances(view.hand, sizes, 0, self.rng, self.samples)  # only those still in compete
            self._cache[key] = chance
        return self._cache[key]

    def _bet(self, view: RummoliView) -> Action:
        legal = view.legal_actions
        p = self.win_chance(view)
        to_call = view.bet_level - view.committed[view.seat]
        if p >= 0.5:
            for a in (RAISE, BET):
                if a in legal:
                    return a
        if to_call == 0:
            return CHECK
        if CALL in legal and p * (view.board[POKER_SECTION] + to_call) >= to_call:
            return CALL
        return FOLD

    # the stops
    def _play(self, view: RummoliView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        mine = set(view.hand)

        def run_length(card: int) -> int:
            k, c = 0, card
            while c is not None and c in mine:
                k += 1
                c = next_up(c)
            return k

        return max(legal, key=lambda a: (run_length(a.card), -(a.card // 13), -STRENGTH[a.card]))


__all__ = ["RummoliDefault", "pay_worth", "expected_pay_worth", "poker_chances", "widow_chances", "SAMPLES"]
