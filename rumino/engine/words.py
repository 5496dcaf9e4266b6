"""What a game says to people at a table: what a person types, what a view shows, what the table is told.

Reading what a person typed (:func:`parse_human_action`, its short forms, :func:`expand`), a view in a
few lines (:func:`describe_view`), amounts as people say them (:func:`money`), and the narrator every
game's words extend (:class:`DrawNarrator`): the terminal (``rumino play``) and the widgets' human player
use them alike. A game's own words — the commands its ``?`` help lists, what the table is told of its own
actions, its move grammar, its end of hand — are its narrator's subclass, in the game's own folder
(``rumino/variants/<game>/words.py``), found through its row of the registry (``Variant.narrator``); the
end of the game is its result's :meth:`~rumino.engine.results.GameResult.summary`.

>>> from rumino.variants import find_variant
>>> g = find_variant("rumino").game.new(None, 2, seed=3)
>>> v = g.view(g.to_act)
>>> parse_human_action("s", v), parse_human_action("take", v)
(Draw(source='stock'), Draw(source='discard'))
"""

from __future__ import annotations

import re

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Sequence

from rumino.cards import format_card, format_hand, parse_card
from rumino.engine.actions import Discard, Draw, Gin, KnockWith
from rumino.engine.protocol import PHASE_WORDS, choices_words, phase_words, Action, PlayerView
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.table.melds import NAMED

if TYPE_CHECKING:
    from rumino.engine.drawdiscard import TableView


def money(cents: int) -> str:
    """An amount kept in cents, as people say it: whole units as an integer (``40``), odd cents
    (a tie's split pool) as ``13.33``; never a float.

    >>> money(4000), money(1333), money(-250)
    ('40', '13.33', '-2.50')
    """
    sign, cents = ("-" if cents < 0 else ""), abs(int(cents))
    whole, rest = divmod(cents, 100)
    return f"{sign}{whole}" + (f".{rest:02d}" if rest else "")


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is one.

    >>> plural(1, "hand"), plural(3, "chip")
    ('1 hand', '3 chips')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def card_words(c: int) -> str:
    """A card as the table is told it: ``7♥``."""
    return format_card(c, unicode=True)


def cards_words(cards: Iterable[int]) -> str:
    """Cards as the table is told them, sorted: ``7♥ 8♥ J♠``."""
    return format_hand(sorted(cards), unicode=True)


def token_words(t: int) -> str:
    """A table token as the table is told it: a card, or a joker with the card it stands for (``JK(7♥)``)."""
    return f"JK({card_words(t - NAMED)})" if t >= NAMED else card_words(t)


def meld_words(tokens: Iterable[int]) -> str:
    """A meld's tokens as the table is told them: ``5♣ 6♣ JK(7♣)``."""
    return " ".join(token_words(t) for t in tokens)


# a card code, but not a rank in the plural ("a set of 9s", "Js full of Ks": jacks full of kings)
_CARD_CODE = re.compile(r"(?<!of )\b(10|[2-9JQKA])([scdh])\b(?! full of)")


def card_symbols(text: str) -> str:
    """A line with the engine's card codes shown as the table shows cards, with suit symbols and a named
    joker as a star (what a result's ``detail`` says, e.g. "player 0 laid off 3s", reaches a screen so).

    >>> card_symbols("hand 2: player 1 knocked (3 - 1; player 0 laid off 3s 10h); lays JK(Js) Qs")
    'hand 2: player 1 knocked (3 - 1; player 0 laid off 3♠ 10♥); lays ★(J♠) Q♠'
    >>> card_symbols("a set of 9s; Js full of Ks")  # ranks in the plural stay
    'a set of 9s; Js full of Ks'
    """
    return joker_stars(_CARD_CODE.sub(lambda m: card_words(parse_card(m[0])), text))


def joker_stars(text: str) -> str:
    """Jokers as the table draws them: ``JK(7♥)`` as ``★(7♥)``, a bare ``JK`` as ``★``.

    >>> joker_stars("new meld A♣ 2♣ JK(3♣) (JK from 10♥ JK(J♥) Q♥)")
    'new meld A♣ 2♣ ★(3♣) (★ from 10♥ ★(J♥) Q♥)'
    """
    return re.sub(r"\bJK\b", "★", text)


# the words a narrator's line names the reader by, and its verbs said to him ("you draws" → "you draw")
_SECOND_PERSON = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}
_NOT_VERBS = frozenset({"as", "this", "thus", "its", "us", "plus", "yes"})
_STEP_VERBS = frozenset({"lays", "exchanges", "takes"})  # a verb that opens a clause of the same subject


def second_person(verb: str) -> str:
    """A third-person verb as said to "you": ``draws`` → ``draw``, ``passes`` → ``pass``, ``tries`` → ``try``.

    >>> [second_person(v) for v in ("draws", "passes", "tries", "goes", "has", "rearranges", "drew")]
    ['draw', 'pass', 'try', 'go', 'have', 'rearrange', 'drew']
    """
    if verb in _SECOND_PERSON:
        return _SECOND_PERSON[verb]
    if not verb.isalpha() or not verb.islower() or verb in _NOT_VERBS or not verb.endswith("s") \
            or verb.endswith("ss"):
        return verb
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def addressed(line: str, you: str = "you") -> str:
    """A narrator's line said to the player it names ``you`` (a widget's log: one voice with the terminal,
    whose narrators say "P0 (you) draws"): his verbs in the second person, his "his" as "your", and the
    line's first letter a capital.

    >>> addressed("you draws from the stock: 7♥")
    'You draw from the stock: 7♥'
    >>> addressed("you plays to the table: lays J♣ J♥ JK(J♠); lays off 8♥ on [0] A♦ JK(2♦) 3♦")
    'You play to the table: lay J♣ J♥ JK(J♠); lay off 8♥ on [0] A♦ JK(2♦) 3♦'
    >>> addressed("you swaps his hand for the widow, unseen")
    'You swap your hand for the widow, unseen'
    >>> addressed("  you buys the widow for 2 chips, paid to the dealer, and takes it in place of his hand")
    '  You buy the widow for 2 chips, paid to the dealer, and take it in place of your hand'
    >>> addressed("you knocks, discarding 7♥: everyone else draws and discards once more")
    'You knock, discarding 7♥: everyone else draws and discards once more'
    >>> addressed("your hand for the stops (you): 3♠ 4♠"), addressed("the stops begin: you leads")
    ('Your hand for the stops: 3♠ 4♠', 'The stops begin: you lead')
    >>> addressed("seat 1 discards 7♥")
    'Seat 1 discards 7♥'
    """
    body = line.lstrip()
    indent = line[:len(line) - len(body)]
    body = body.replace(f" ({you})", "")  # "your hand (you)": the reader needs no telling who he is
    subject = body.startswith(you + " ")
    clauses = re.split(r"([,;:] )", body)  # a clause each, and the marks between them
    said = []
    for k, clause in enumerate(clauses):
        if k % 2 == 0:
            mine = re.search(rf"(?:^|\s){re.escape(you)} \w", clause) is not None
            clause = re.sub(rf"(^|\s)({re.escape(you)}) (\w+)", lambda m: f"{m[1]}{m[2]} {second_person(m[3])}",
                            clause)
            if subject:  # a clause that goes on with the same subject: "…; lays off", "…, and takes", "and he"
                clause = re.sub(r"^(and )?he (\w+)", lambda m: f"{m[1] or ''}{you} {second_person(m[2])}", clause)
                clause = re.sub(r"^(and )?(\w+)", lambda m: (m[1] or "") + (second_person(m[2]) if m[2] in
                                                                            _STEP_VERBS else m[2]), clause)
                clause = re.sub(r"\bhis\b", "your", clause)
            if mine:
                clause = re.sub(r"\band (\w+)", lambda m: f"and {second_person(m[1])}", clause)
        said.append(clause)
    body = "".join(said)
    return indent + body[:1].upper() + body[1:]


# ---------------------------------------------------------------------------- what a person types

# short forms, translated to the game's own action words (a game without the word refuses them)
_WORDS = {
    "s": "draw stock", "stock": "draw stock", "ds": "draw stock", "draw": "draw stock",
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
    if t.isascii() and t.isdigit():  # '²'.isdigit() too, and int('²') fails
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
    except IllegalActionError as err:
        card = re.search(r"'([^']*)' is not a card: .*", str(err))
        if parts[0] in words.by_word and card:  # the move is known, its card is not: say so, not "not understood"
            raise IllegalActionError(card.group(0)) from None
        raise IllegalActionError(f"{str(text).strip()!r} is not understood: {HELP}.") from None


def _card(token: str) -> int:
    try:
        return parse_card(token)
    except InvalidCardError as err:
        raise IllegalActionError(str(err)) from None


def expand(line: str, view: PlayerView) -> str | None:
    """The line with a short first word spelt out for this game (``k 7h`` → ``knock 7h``, ``r 7h`` →
    ``rummy 7h``, ``b 3`` → ``bid 3``, ``y``/``n`` → ``buyback``/``decline``), or None to leave it to
    :func:`parse_human_action` (which reads ``s``, ``t``, ``7h``, …)."""
    parts = line.split()
    if not parts:
        return None
    words = view.action_set.by_word
    head, rest = parts[0].lower(), parts[1:]
    if head == "r" and rest and "rummy" in words:
        return " ".join(["rummy", *rest])
    if head in ("y", "yes", "n", "no") and not rest and "buyback" in words:
        return "buyback" if head in ("y", "yes") else "decline"
    if head == "p" and not rest and "bid" in words:
        return "pass"
    if head == "k" and rest and "knock" in words:
        return " ".join(["knock", *rest])
    if head == "b" and rest and "bid" in words:
        return " ".join(["bid", *rest])
    if head == "pl" and "place" in words:
        return " ".join(["place", *rest])
    return None


# ---------------------------------------------------------------------------- what a view shows


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


_YOU_VERBS = {"has": "have", "is": "are", "does": "do", "holds": "hold", "keeps": "keep", "may": "may",
              "must": "must", "has not": "have not", "cannot": "cannot", "was": "were"}


def to_you(text: str, seat: int) -> str:
    """An engine refusal of ``seat``'s own move spoken to him: ``player 0 has 29 deadwood`` → ``you have 29
    deadwood``, ``player 0's`` → ``your``, and the ``(player 0, after the draw; rules §1.3)`` at its end →
    ``(rules §1.3)``.

    >>> to_you("cannot knock: player 0 has 29 deadwood, the limit is 7 (player 0, the start of a turn; "
    ...        "rules §1.3).", 0)
    'cannot knock: you have 29 deadwood, the limit is 7 (rules §1.3).'
    >>> to_you("cannot place cards on the table: player 1 has not opened, so he may not touch the table melds "
    ...        "(player 1, the start of a turn; rules §4.3).", 1)
    'cannot place cards on the table: you have not opened, so you may not touch the table melds (rules §4.3).'
    """
    p = re.escape(f"player {seat}")
    text = re.sub(rf"\({p}, [^;()]*; (rules [^)]*)\)", r"(\1)", text)
    text = re.sub(rf"\b{p}'s\b", "your", text)
    text = re.sub(rf"\b{p} (has not|{'|'.join(_YOU_VERBS)})\b", lambda m: "you " + _YOU_VERBS[m.group(1)], text)
    if "you " in text and not re.search(r"\bplayer \d", text):  # nobody else named: "he", "his" are the player
        text = re.sub(r"\bhe (has|is)\b", lambda m: "you " + _YOU_VERBS[m.group(1)], text)
        text = re.sub(r"\bhe\b", "you", text)
        text = re.sub(r"\bhis\b", "your", text)
    return text


# ---------------------------------------------------------------------------- what the table is told

DRAW_HELP = ("s / stock      draw the top card of the stock",
             "t / take       take the top card of the discard pile",
             "7h / d 7h      discard 7h (cards: 2-10 J Q K A with c d h s; JK a joker)")
"""The commands every draw-and-discard game shares, as its ``?`` help lists them."""

DRAW_HELP_NO_JOKERS = DRAW_HELP[:2] + ("7h / d 7h      discard 7h (cards: 2-10 J Q K A with c d h s)",)
"""The same, for a game played without jokers (Gin, American Knock Rummy): its help names none."""


class DrawNarrator:
    """What the table sees in a draw-and-discard game (a card drawn from the stock stays hidden, but
    the human who drew it is told it), and how the prompt reads what is typed.

    A game's own words are a subclass in its folder, named by its row (``Variant.narrator``): its
    commands (:attr:`HELP`, listed by ``?``), its own lines at the prompt (:meth:`prompt_lines`), its move
    grammar (:meth:`read`), what the table is told of its own actions (:meth:`say`), the terms of the table
    it opens with (:meth:`table_terms`) and its end of hand (:meth:`hand_end`). The end of the game is the
    result's own :meth:`~rumino.engine.results.GameResult.summary`.
    """

    HELP: ClassVar[tuple[str, ...]] = DRAW_HELP
    """The game's own commands, as ``?`` lists them (the terminal adds its own: look, hint, help, quit)."""

    SAY: ClassVar[dict[str, Callable]] = {
        "draw": lambda who, g, a, top: f"{who} draws from the stock" if a.source == "stock" else
        f"{who} takes {card_words(top)} from the discard pile",
        "discard": lambda who, g, a, top: f"{who} discards {card_words(a.card)}",
        "gin": lambda who, g, a, top: f"{who} goes GIN, discarding {card_words(a.card)}",
        "knock": lambda who, g, a, top: f"{who} knocks" + (", discarding face down" if isinstance(a, KnockWith)
                                                           else ""),
        "rumino": lambda who, g, a, top: f"{who} calls RUMINO",
        "rummy": lambda who, g, a, top: f"{who} calls RUMMY, discarding {card_words(a.card)}",
        "claim": lambda who, g, a, top: f"{who} claims the discard for a RUMINO",
        "pass": lambda who, g, a, top: f"{who} lets the discard go" if top is not None else f"{who} passes",
        "rebuy": lambda who, g, a, top: f"{who} rebuys",
        "decline": lambda who, g, a, top: f"{who} declines",
        "buyback": lambda who, g, a, top: f"{who} buys back",
        "join": lambda who, g, a, top: f"{who} joins the game",
        "deal": lambda who, g, a, top: f"{who} deals hand {g.hand_number}",
    }
    """What the table is told of an action, by its word: ``(who, game, action, top of the pile before it)``."""

    def __init__(self, game: Any, names: Sequence[str], humans: Iterable[int] = ()):
        self.game, self.names = game, names
        self.humans = set(humans)  # the seats typed at this terminal: they are told their own cards
        self.hands, self.top, self.held = 0, None, None

    # --------------------------------------------------------------- the prompt

    def describe(self, view: PlayerView) -> str:
        """The prompt: the view's lines (:func:`describe_view`), the others' hand sizes and the game's own
        lines (:meth:`prompt_lines`)."""
        lines = describe_view(view).split("\n")
        if len(lines) > 1:  # 'P0*=12' read as 'P0 (you)=12'
            lines[1] = lines[1].replace(f"P{view.seat}*=", f"P{view.seat} (you)=")
        extra = []
        sizes = view.hand_sizes
        if sizes and view.phase not in ("between_hands", "game_over"):
            others = [f"{self.names[p].split()[0]} {n}" for p, n in enumerate(sizes)
                      if p != view.seat and view.in_hand[p]]
            if others:
                extra.append("cards in hand: " + " · ".join(others))
        extra += self.prompt_lines(view)
        if view.my_turn and lines[-1].startswith("choices: "):  # the narrator's list, in its words
            lines[-1] = "choices: " + "  ".join(f"[{i}] {self.move_words(a, view)}"
                                                for i, a in enumerate(self.choices(view), 1))
        return "\n".join(lines[:2] + extra + lines[2:])

    def move_words(self, action: Action, view: PlayerView) -> str:
        """A move as the list and the hint write it: as it would be typed (``discard 7h``)."""
        return str(action)

    def prompt_lines(self, view: PlayerView) -> list[str]:
        """The game's own lines at the prompt, after the others' hand sizes (Wiener's pot, Gin's upcard offer)."""
        return []

    @classmethod
    def hand_notices(cls, view: PlayerView) -> list[str]:
        """What a player must keep in mind all through this hand, in sentences for a table's notices (the
        GameTable's): Oklahoma Gin's upcard and the knock limit it set. None in most games.

        >>> DrawNarrator.hand_notices(None)
        []
        """
        return []

    def read(self, line: str, view: PlayerView) -> Action | None:
        """The game's own move grammar: the action ``line`` makes, or None to read it the common way."""
        return None

    def translate(self, line: str, view: PlayerView) -> Action | None:
        """What a typed line does: the game's own grammar first (:meth:`read`), then the short forms."""
        picked = self.pick(line, view)
        if picked is not None:
            return picked
        own = self.read(line, view)
        if own is not None:
            return own
        parts = line.lower().split()
        knock = view.action_set.by_word.get("knock")
        if parts and parts[0] in ("k", "knock") and len(parts) > 1 and knock is not None \
                and not issubclass(knock, KnockWith):
            rule = self.game.SECTIONS.get("knock", self.game.SECTIONS.get("turn", ""))
            raise IllegalActionError(f"in {self.game.NAME} a knock takes no card: type k alone, in lieu of "
                                     f"drawing (rules {rule}).")
        text = expand(line, view)
        return parse_human_action(text, view) if text is not None else None

    def autoplay(self, view: PlayerView) -> Action | None:
        return None

    # --------------------------------------------------------------- choices and refusals, to the player

    def choices(self, view: PlayerView) -> list:
        """The moves the prompt lists, numbered from 1 (``choices:``, and what a typed number picks): the
        engine's legal actions; a game may offer more legal moves (Robber's lay-offs) or leave out a move
        that is never better than another it lists (Wiener's knock beside a rummy with the same card)."""
        return list(view.legal_actions)

    def pick(self, line: str, view: PlayerView) -> Action | None:
        """A number typed (or Enter) as a choice from :meth:`choices`, or None for any other line."""
        t = line.strip()
        if not (t == "" or (t.isascii() and t.isdigit())):
            return None
        listed = self.choices(view)
        if t == "":
            if len(listed) == 1:
                return listed[0]
            raise IllegalActionError(f"nothing typed: choose 1 to {len(listed)} from the list, or type ? for this "
                                     f"game's commands.")
        k = int(t)
        if 1 <= k <= len(listed):
            return listed[k - 1]
        raise IllegalActionError(f"{t} is not in the list: choose 1 to {len(listed)}.")

    YOU_NOW: ClassVar[dict[str, str]] = {
        "turn": "It is the start of your turn", "discard": "You have already drawn this turn",
        "offer": "The upcard is offered to you", "claim": "You may claim the discard or let it go",
        "rebuy": "You are out of the game", "buyback": "You are out of the game",
        "between_hands": "The hand is over", "between_deals": "The deal is over",
    }
    """What a phase means to the player who acts in it, when a move the phase forbids is refused."""

    def now_words(self, view: PlayerView) -> str:
        """Where the player is in his turn, in his own words (:attr:`YOU_NOW`)."""
        g = self.game
        if view.phase == "discard" and getattr(g, "drawn", 0) is None and getattr(g, "pickup", 0) is None \
                and len(view.hand) > view.hand_size:
            return "You hold the dealer's extra card, so this turn has no draw"
        return self.YOU_NOW.get(view.phase, f"You cannot do that now ({phase_words(view.phase)})")

    def refusal(self, err: IllegalActionError, view: PlayerView) -> str:
        """A refusal as the player is told it, in one line: a move the moment forbids is answered with
        where he is and the moves legal now (:meth:`choices`); a rule's refusal of his own move speaks to him
        ("you have 29 deadwood") and keeps its rule; any other refusal as the engine worded it."""
        text = " ".join(str(err).split())
        if HELP in text:
            text = text.replace(HELP, "type ? for this game's commands")
        if getattr(err, "player", None) != view.seat:
            return text
        rule = getattr(err, "rule", "")
        tail = f" (rules {rule})." if rule else "."
        if getattr(err, "legal_now", None) is not None:
            return f"{self.now_words(view)}: {choices_words(self.choices(view))}{tail}"
        return to_you(text, view.seat)

    forced: Callable | None = None

    def pending(self) -> list[str]:
        return []

    # --------------------------------------------------------------- narration

    def table_terms(self) -> str:
        """The terms the table plays for, after the number of players in the first line (Rumino's stake)."""
        return ""

    def opening(self, seed: int) -> list[str]:
        game, names = self.game, self.names
        rounds = [", ".join(f"{names[p]} {card_words(c)}" for p, c in drawn) for drawn in game.first_dealer_draws]
        draws = "; a tie, drawn again: ".join(rounds)  # every round of the draw for the deal, not only the last
        return [f"{game.NAME}, {len(names)} players{self.table_terms()}, seed {seed}."
                + (f" Cards drawn for the deal: {draws}." if draws else ""),
                f"{names[game.dealer]} deals hand 1. (Type ? at the prompt for the commands.)"]

    def before(self, g: Any, seat: int, action: Action) -> None:
        self.hands, self.top = len(g.results), (g.discard[-1] if g.discard else None)
        self.held = list(g.hands[seat]) if seat in self.humans and seat < len(g.hands) else None

    def say(self, g: Any, seat: int, action: Action) -> str:
        """What the table is told of ``action`` by ``seat`` (:attr:`SAY`, by the action's word)."""
        who = self.names[seat]
        say = self.SAY.get(action.word)
        return say(who, g, action, self.top) if say is not None else f"{who}: {action}"

    def own(self, g: Any, seat: int, action: Action) -> str:
        """What only the human who acted is told: the card he drew, the card he knocked with."""
        if self.held is None or seat >= len(g.hands):
            return ""
        if isinstance(action, Draw) and action.source == "stock":
            new = Counter(g.hands[seat]) - Counter(self.held)
            return f": {cards_words(new.elements())}" if new else ""
        if isinstance(action, KnockWith):
            return f" ({card_words(action.card)})"
        return ""

    def after(self, g: Any, seat: int, action: Action) -> list[str]:
        lines = [self.say(g, seat, action) + self.own(g, seat, action)]
        n = len(g.history) - 1  # what the game noted of this action unasked (a Rommé joker that slid)
        lines += [f"  ({text})" for k, text in g.notices if k == n]
        if len(g.results) > self.hands:
            lines += self.hand_end(g)
        return lines

    def hand_end(self, g: Any) -> list[str]:
        """The end of a hand: how it ended, every hand shown with its deadwood and score, who is out."""
        r, names = g.results[-1], self.names
        lines = [f"— {card_symbols(r.describe().replace('player ', 'P'))} —"]
        width = max(len(cards_words(cards)) for cards in r.hands.values() if cards) if any(r.hands.values()) else 12
        for p in r.players:
            cards = r.hands.get(p)
            shown = cards_words(cards) if cards else "(not shown)"
            dw = "" if r.deadwood[p] is None else f"  deadwood {r.deadwood[p]:>3}"
            lines.append(f"  {names[p]:<14} {shown:<{width}}{dw}  {r.deltas[p]:+d} → {r.scores[p]}")
        if r.busted:
            lines.append("  out: " + ", ".join(names[p] for p in r.busted))
        return lines

    # --------------------------------------------------------------- the end

    def finish(self) -> list[str]:
        """The end of the game: the result's own words (:meth:`~rumino.engine.results.GameResult.summary`),
        the final numbers indented under who won."""
        first, *rest = self.game.result.summary(self.game, self.names.__getitem__)
        return [first] + [f"  {line}" for line in rest]


__all__ = ["money", "plural", "to_you", "card_symbols", "joker_stars", "second_person", "addressed", "PHASE_WORDS", "phase_words", "DRAW_HELP_NO_JOKERS", "card_words", "cards_words", "token_words", "meld_words", "HELP", "parse_human_action", "expand", "describe_view",
           "DRAW_HELP", "DrawNarrator"]
