"""Money and chips in integer units: stakes, rebuys, buy-backs, pots and payments between players.

Every movement is logged as ``(source, destination, amount, reason)``, where a
place is a seat number or ``POT``. The ledger keeps, per seat, what it has
paid and what it has received, and the pot; :meth:`Ledger.check` verifies that
nothing was created or lost (paid = pot + received, the pot never negative,
and the log adds up to the totals).

The unit is the game's (Rumino: cents of the stake's currency; Wiener: chips).
Amounts are ``int``; a float is refused, so rounding can never leak money.

>>> led = Ledger(3)
>>> for seat in range(3):
...     led.pay_in(seat, 1000, "stake")
>>> led.pay_in(1, 1000, "rebuy"); led.transfer(0, 2, 5, "knock money")
>>> led.pot, led.paid, led.received
(4000, [1005, 2000, 1000], [0, 0, 5])
>>> led.pay_out([2, 0])   # a tie: the odd unit goes to the first listed winner
[2000, 0, 2000]
>>> led.check(); led.net(2), led.paid_for(1, "rebuy")
(1005, 1000)
"""

from __future__ import annotations

import copy

from typing import Iterable

POT = "pot"


class Ledger:
    """Who paid what into the pot or to whom, in integer units (see the module docstring)."""

    __slots__ = ("paid", "received", "pot", "log", "_seen")

    def __init__(self, n_seats: int):
        self.paid = [0] * n_seats
        self.received = [0] * n_seats
        self.pot = 0
        self.log: list[tuple] = []
        self._seen = (0, [0] * n_seats, [0] * n_seats, 0)  # how far check() has re-added the log

    def copy(self) -> "Ledger":
        """An independent copy (a search's world pays into its own ledger)."""
        twin = object.__new__(type(self))
        twin.paid, twin.received, twin.pot, twin.log = list(self.paid), list(self.received), self.pot, list(self.log)
        done, paid, received, pot = self._seen
        twin._seen = (done, list(paid), list(received), pot)
        if hasattr(self, "__dict__"):  # a subclass's own state (Rummoli's board)
            twin.__dict__.update(copy.deepcopy(self.__dict__))
        return twin

    def add_seat(self) -> int:
        """A new seat (a newcomer); returns its number."""
        self.paid.append(0)
        self.received.append(0)
        done, paid, received, pot = self._seen
        self._seen = (done, paid + [0], received + [0], pot)
        return len(self.paid) - 1

    @staticmethod
    def _amount(amount) -> int:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ValueError(f"a ledger amount must be a non-negative integer number of units; got {amount!r}.")
        return amount

    def pay_in(self, seat: int, amount: int, reason: str) -> None:
        """``seat`` puts ``amount`` into the pot (a stake, a rebuy, a buy-back, entry chips)."""
        amount = self._amount(amount)
        self.paid[seat] += amount
        self.pot += amount
        self.log.append((seat, POT, amount, reason))

    def transfer(self, src: int, dst: int, amount: int, reason: str) -> None:
        """``src`` pays ``amount`` straight to ``dst`` (knock money, rummy-call money)."""
        amount = self._amount(amount)
        self.paid[src] += amount
        self.received[dst] += amount
        self.log.append((src, dst, amount, reason))

    def pay_out(self, winners: Iterable[int], reason: str = "pot") -> list[int]:
        """Split the pot among ``winners`` to the unit; the indivisible remainder goes one unit
        each to the first winners listed (the caller lists them from the dealer's left: the
        poker "odd chip" rule). Returns each seat's payout; the pot is then empty."""
        winners = list(winners)
        if not winners:
            raise ValueError("a pot is paid out to at least one winner.")
        share, extra = divmod(self.pot, len(winners))
        payouts = [0] * len(self.paid)
        for i, w in enumerate(winners):
            payouts[w] = share + (1 if i < extra else 0)
            self.received[w] += payouts[w]
            self.log.append((POT, w, payouts[w], reason))
        self.pot = 0
        return payouts

    def net(self, seat: int) -> int:
        """What ``seat`` is up (positive) or down (negative)."""
        return self.received[seat] - self.paid[seat]

    def paid_for(self, seat: int, reason: str) -> int:
        """The total ``seat`` paid for ``reason`` (into the pot or to others)."""
        return sum(a for s, _, a, r in self.log if s == seat and r == reason)

    def check(self) -> None:
        """Raise ``AssertionError`` (an engine bug) unless every unit is accounted for.

        The log is re-added incrementally: only the entries logged since the last check are
        added to the totals re-added then (games check after every action, so re-adding the
        whole log each time would cost the square of its length). A log that got shorter
        (restored from an older state) is re-added from the start.
        """
        if sum(self.paid) != self.pot + sum(self.received) or self.pot < 0:
            raise AssertionError(f"money not conserved: paid {sum(self.paid)} != pot {self.pot} + received "
                                 f"{sum(self.received)}")
        done, paid, received, pot = self._seen
        if done > len(self.log) or len(paid) != len(self.paid):
            done, paid, received, pot = 0, [0] * len(self.paid), [0] * len(self.paid), 0
        paid, received = list(paid), list(received)
        for src, dst, amount, _ in self.log[done:]:
            if src == POT:
                pot -= amount
            else:
                paid[src] += amount
            if dst == POT:
                pot += amount
            else:
                received[dst] += amount
        if paid != self.paid or received != self.received or pot != self.pot:
            raise AssertionError(f"the ledger's totals do not match its log: paid {self.paid} vs {paid}, received "
                                 f"{self.received} vs {received}, pot {self.pot} vs {pot}")
        self._seen = (len(self.log), paid, received, pot)

    def snapshot(self) -> tuple:
        return tuple(self.paid), tuple(self.received), self.pot, len(self.log)


__all__ = ["POT", "Ledger"]
