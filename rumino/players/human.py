"""An action-driven human player, for the terminal (``rumino play``) and the widgets.

The player holds a queue of actions submitted from outside (a widget's click,
a line typed in the terminal); :meth:`HumanPlayer.choose` takes the next one,
or asks its ``ask`` callback, or raises :class:`AwaitingInput` so that the
caller can wait for the person. Text is read by :func:`parse_human_action`,
which accepts short forms:

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> g = RuminoGame.new(RUMINO, 2, seed=3)
>>> v = g.view(g.to_act)
>>> parse_human_action("s", v), parse_human_action("take", v)
(Draw(source='stock'), Draw(source='discard'))
>>> h = HumanPlayer(); h.submit("stock"); h.choose(v)
Draw(source='stock')
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Callable

from rumino.cards import format_card, format_hand, parse_card
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.engine.actions import Discard, Gin
from rumino.engine.protocol import Action, PlayerView
from rumino.players.base import Player

if TYPE_CHECKING:
    from rumino.engine.drawdiscard import TableView


class AwaitingInput(Exception):
    """Raised by :meth:`HumanPlayer.choose` when no action has been submitted yet."""

    def __init__(self, view: PlayerView):
        super().__init__(f"player {view.seat} ({view.phase}) is waiting for an action")
        self.view = view


# short forms, translated to the game's own action words (a game without the word refuses them)
_WORDS = {
    "s": "draw stock", "stock": "draw stock", "ds": "draw stock",
    "t": "draw discard", "take": "draw discard", "pile": "draw discard", "dd": "draw discard", "up": "draw discard",
    "k": "knock", "r": "rumino", "call": "rumino", "c": "claim", "p": "pass",
    "y": "rebuy", "yes": "rebuy", "n": "decline", "no": "decline",
}

HELP = ("type a number from the list, or: s (draw stock), t (take the discard), k (knock), "
        "a card such as 7h (discard it), g 7h (gin, discarding 7h), r (call rumino), "
        "c / p (claim / pass), y / n (rebuy or not), deal, q (quit); in Robber Rummy, place and the whole "
        "table after the move, melds split by '|', e.g. place 5c 6c 7c | 7c 8c JK(9c)")


def parse_human_action(text: str, view: PlayerView) -> Action:
    """Turn what a person typed into an action (not yet checked against the rules).

    Accepts a number from :func:`describe_view`'s list (1 = first), the short
    words in :data:`HELP`, a bare card (discard it), ``g CARD`` (gin), the book
    notation (``discard 7h``), or an empty line when only one action is legal.
    """
    t = " ".join(str(text).strip().lower().split())
    legal = view.legal_actions
    if t == "":
        if len(legal) == 1:
            return legal[0]
        raise IllegalActionError(f"nothing typed: {HELP}.")
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise IllegalActionError(f"{t} is not in the list: choose 1 to {len(legal)}.")
    words = view.action_set
    if t in _WORDS and _WORDS[t].split()[0] in words.by_word:
        return words.parse(_WORDS[t])
    parts = t.split()
    if parts[0] in ("g", "gin") and len(parts) <= 2:
        if len(parts) == 2:
            return Gin(_card(parts[1]))
        gins = [a for a in legal if isinstance(a, Gin)]
        if len(gins) == 1:
            return gins[0]
        raise IllegalActionError("say which card to discard with the gin, for example 'g 7h'.")
    if parts[0] in ("x", "d") and len(parts) == 2:
        return Discard(_card(parts[1]))
    if len(parts) == 1 and "play" in words.by_word and "discard" not in words.by_word \
            and parts[0] not in words.by_word:  # Rummoli: a card is played (in Rommé it is discarded)
        return words.parse(f"play {parts[0]}")
    if len(parts) == 1 and parts[0] not in ("draw", "discard"):
        try:
            return Discard(parse_card(parts[0]))
        except InvalidCardError:
            pass
    try:
        return words.parse(t)
    except IllegalActionError:
        raise IllegalActionError(f"{str(text).strip()!r} is not understood: {HELP}.") from None


def _card(token: str) -> int:
    try:
        return parse_card(token)
    except InvalidCardError as err:
        raise IllegalActionError(str(err)) from None


class HumanPlayer(Player):
    """A person: actions come from :meth:`submit` (widgets) or from ``ask(view)`` (the terminal).

    ``ask`` returns an :class:`~rumino.engine.Action` or text for :func:`parse_human_action`.
    """

    kind = "human"

    def __init__(self, ask: Callable[[PlayerView], Action | str] | None = None, *, name: str | None = None):
        super().__init__(name)
        self.ask = ask
        self.pending: deque = deque()

    def submit(self, action: Action | str) -> None:
        """Queue an action (or text) for the next decision."""
        self.pending.append(action)

    def choose(self, view: PlayerView) -> Action:
        if self.pending:
            a = self.pending.popleft()
        elif self.ask is not None:
            a = self.ask(view)
        else:
            raise AwaitingInput(view)
        return parse_human_action(a, view) if isinstance(a, str) else a


def money(cents: int) -> str:
    """An amount kept in cents, as people say it: whole units as an integer (``40``), odd cents
    (a tie's split pool) as ``13.33``; never a float.

    >>> money(4000), money(1333), money(-250)
    ('40', '13.33', '-2.50')
    """
    sign, cents = ("-" if cents < 0 else ""), abs(int(cents))
    whole, rest = divmod(cents, 100)
    return f"{sign}{whole}" + (f".{rest:02d}" if rest else "")


def describe_view(view: TableView | PlayerView, *, unicode: bool = True) -> str:
    """A few lines a person at the terminal needs: hand, deadwood, discard, stock, scores, choices."""
    if hasattr(view, "describe"):  # a game whose view describes itself (Rummoli: the sheet, chips, stops)
        return view.describe(unicode=unicode)
    fmt = lambda cards: format_hand(sorted(cards), unicode=unicode)  # noqa: E731
    pool = getattr(view, "pool_cents", None)
    lines = [f"hand {view.hand_number} · dealer P{view.dealer} · stock {view.stock_size}"
             + (f" · pool {money(pool)}" if pool is not None else "")]
    scores = "  ".join(f"P{p}{'*' if p == view.seat else ''}={s}{'' if view.in_game[p] else ' (out)'}"
                       for p, s in enumerate(view.scores))
    lines.append(f"scores: {scores}")
    if view.hand:
        dw = view.deadwood
        extra = " after the best discard" if len(view.hand) > view.hand_size else ""
        knock = f"; knock at ≤ {view.knock_limit}" if view.knock_limit is not None else ""
        lines.append(f"your hand: {fmt(view.hand)}   (deadwood {dw}{extra}{knock})")
    extra = getattr(view, "describe_extra", None)  # a game's own public state (Rommé: the melds on the table)
    if extra is not None:
        lines.extend(extra(unicode=unicode))
    table = getattr(view, "table_text", None)  # a game with melds on the table (Robber Rummy) shows them
    if table is not None:
        lines.append("table:\n" + table)
    if view.top_discard is not None and not view.phase.startswith(("between", "game", "rebuy")):
        lines.append(f"discard pile top: {format_card(view.top_discard, unicode=unicode)}")
    if view.forbidden is not None:
        lines.append(f"you took {format_card(view.pickup, unicode=unicode)} from the pile: it may not go back now")
    if getattr(view, "claim_card", None) is not None:
        lines.append(f"{format_card(view.claim_card, unicode=unicode)} completes your rumino: claim it?")
    if view.phase == "rebuy" and getattr(view, "rebuy_price_cents", None) is not None:
        lines.append(f"you are out: rebuy for {money(view.rebuy_price_cents)} at {view.rebuy_score} points?")
    if view.my_turn:
        opts = "  ".join(f"[{i}] {a}" for i, a in enumerate(view.legal_actions, 1))
        lines.append(f"choices: {opts}")
    return "\n".join(lines)
