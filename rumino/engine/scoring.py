"""Knock scoring helpers shared by the knock games (rules §0.3, §1.4, §5.4, §6).

Two families: *everyone adds his own deadwood* (Rumino §1.4, Wiener §5.4) and
*the difference* between knocker and defender (Gin §6). Deadwood is a list by
seat (``None`` for a seat not dealt in), ``players`` the seats dealt in.

>>> dw = [5, 9, None, 3]
>>> undercut(dw, knocker=0, players=[0, 1, 3]), lowest(dw, [0, 1, 3])
(True, [3])
>>> everyone_adds_deadwood(dw, knocker=0, players=[0, 1, 3], undercut_penalty=10)
[15, 9, None, 3]
>>> difference_score(knocker_deadwood=4, defender_deadwood=10, gin=False, gin_bonus=25, undercut_bonus=25)
('knocker', 6)
>>> difference_score(8, 8, gin=False, gin_bonus=25, undercut_bonus=25)
('defender', 25)
>>> difference_score(0, 12, gin=True, gin_bonus=25, undercut_bonus=25)
('knocker', 37)
"""

from __future__ import annotations

from typing import Any, Sequence


def undercut(deadwood: Sequence, knocker: int, players: Sequence[int], *, ties: bool = False) -> bool:
    """True if another player's deadwood is strictly below the knocker's (``ties``: or equal, as in Gin)."""
    k = deadwood[knocker]
    return any((deadwood[p] <= k) if ties else (deadwood[p] < k) for p in players if p != knocker)


def lowest(deadwood: Sequence, players: Sequence[int]) -> list[int]:
    """The seats with the lowest deadwood among ``players``."""
    low = min(deadwood[p] for p in players)
    return [p for p in players if deadwood[p] == low]


def everyone_adds_deadwood(deadwood: Sequence, knocker: int | None, players: Sequence[int], *,
                           undercut_penalty: int = 0) -> list:
    """Per-seat score changes when everyone adds his own deadwood; a knocker whom someone
    strictly undercuts adds ``undercut_penalty`` as well (rules §1.4, §5.4)."""
    deltas: list = [None] * len(deadwood)
    for p in players:
        deltas[p] = deadwood[p]
    if knocker is not None and undercut_penalty and undercut(deadwood, knocker, players):
        deltas[knocker] += undercut_penalty
    return deltas


def difference_score(knocker_deadwood: int, defender_deadwood: int, *, gin: bool, gin_bonus: int,
                     undercut_bonus: int) -> tuple[str, int]:
    """Gin-style scoring (rules §6): ``('knocker' | 'defender', points)``.

    Gin scores the difference plus the gin bonus (a gin cannot be undercut); a
    knock scores the difference if the knocker is strictly lower; otherwise the
    defender undercuts and scores the difference plus the undercut bonus.
    """
    diff = defender_deadwood - knocker_deadwood
    if gin:
        return "knocker", diff + gin_bonus
    if diff > 0:
        return "knocker", diff
    return "defender", -diff + undercut_bonus


def hand_ender(result: Any) -> int | None:
    """The seat that ended a hand, read from its result (every hand's result says ``by``: who knocked or
    went out, Rummoli's first player out); None when nobody did (a void or blocked hand) or there is no
    result yet.

    >>> from types import SimpleNamespace
    >>> hand_ender(SimpleNamespace(by=2)), hand_ender(SimpleNamespace(by=None)), hand_ender(None)
    (2, None, None)
    """
    return None if result is None else result.by


def rank_seats(gains: Sequence, ended_by: int | None) -> tuple:
    """Seats ranked by gain, best first, in groups of ties; the seat that ended the hand
    breaks a tie in its favour.

    >>> rank_seats((0, -12, -12), ended_by=None)
    ((0,), (1, 2))
    >>> rank_seats((0, 0), ended_by=1)
    ((1,), (0,))
    """
    key = {s: (gains[s], s == ended_by) for s in range(len(gains))}
    order = sorted(key, key=lambda s: key[s], reverse=True)
    groups: list[list[int]] = []
    for s in order:
        if groups and key[groups[-1][0]] == key[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    return tuple(tuple(sorted(g)) for g in groups)


__all__ = ["hand_ender", "rank_seats", "undercut", "lowest", "everyone_adds_deadwood", "difference_score"]
