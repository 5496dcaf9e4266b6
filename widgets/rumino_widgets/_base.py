"""Shared pieces of the widgets: the static HTML fallback and message boxes.

Every widget is an ipywidgets container with a ``controller`` (plain Python,
testable without a browser) and a ``static_html()`` method. Its MIME bundle
carries that HTML as ``text/html`` beside the live widget view, so a page read
without a kernel (a static book, GitHub) still shows the cards and numbers.

>>> "rumino-error" in error_html("bad card")
True
>>> fraction_html(Fraction(1234, 56789))
'<span class="rumino-frac">1,234&thinsp;/&thinsp;56,789</span>'
"""

from __future__ import annotations

import re
from fractions import Fraction
from html import escape

from rumino.engine.protocol import play
from rumino.engine.words import addressed, card_symbols, joker_stars
from rumino.errors import RuminoError
from rumino.playing.seeding import new_table
from rumino.odds.optimal import BUILD_COMMAND, BUILD_COST
from rumino.variants import find_variant

MAX_BOT_ACTIONS = 100_000  # bots alone finish any game long before this (a game is a few thousand actions)

ERROR_STYLE = ("font:13px sans-serif;color:#8a1111;background:#fdecec;border:1px solid #e0a0a0;"
               "border-radius:4px;padding:4px 8px;margin:4px 0")
INFO_STYLE = "font:13px sans-serif;color:#333;margin:4px 0"


def error_html(message: str) -> str:
    """The engine's message in a red box (role=alert, so a screen reader announces it)."""
    return f'<div class="rumino-error" role="alert" style="{ERROR_STYLE}">{escape(message)}</div>'


def info_html(message: str) -> str:
    return f'<div class="rumino-info" style="{INFO_STYLE}">{escape(message)}</div>'


# Static tables are read without the book's CSS too (JupyterLab, Voilà, GitHub), so their
# look is inline: ruled cells with padding, so neighbouring numbers never run together,
# numbers right-aligned in tabular figures so their digits line up down a column.
TABLE_STYLE = "border-collapse:collapse;margin:6px 0;font:13px sans-serif;color:#222"
CELL_STYLE = "border:1px solid #c8c8c8;padding:3px 10px"
NUM_STYLE = CELL_STYLE + ";text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap"
HEAD_STYLE = CELL_STYLE + ";background:#eef1f5;text-align:center"
CAPTION_STYLE = "caption-side:top;text-align:left;font-style:italic;padding:2px 0"


def fraction_html(p: Fraction) -> str:
    """An exact fraction for people: thousands separators and a spaced slash (``1,234 / 56,789``)."""
    p = Fraction(p)
    if p.denominator == 1:
        return f'<span class="rumino-frac">{p.numerator:,}</span>'
    return f'<span class="rumino-frac">{p.numerator:,}&thinsp;/&thinsp;{p.denominator:,}</span>'


def interval_text(estimate: float, lo: float, hi: float, *, percent: bool = True, digits: int = 1) -> str:
    """An estimate with its interval, e.g. ``36.0% (31.4 – 40.8%)`` or ``4.21 (3.90 – 4.52)``; a figure that
    never varied is said so, with no interval around a constant: ``2 (always)``.

    >>> interval_text(2.0, 2.0, 2.0, percent=False, digits=2), interval_text(1.0, 1.0, 1.0)
    ('2 (always)', '100% (always)')
    """
    if estimate == lo == hi:
        return (f"{100 * estimate:g}%" if percent else f"{estimate:g}") + " (always)"
    if percent:
        return f"{estimate:.{digits}%} ({100 * lo:.{digits}f} – {hi:.{digits}%})"
    return f"{estimate:.{digits}f} ({lo:.{digits}f} – {hi:.{digits}f})"


def table_html(header: list[str], rows: list[list[str]], *, caption: str = "", cls: str = "",
               row_headers: bool = False) -> str:
    """A ruled HTML table; cells are HTML already (escape text yourself). The first column is text,
    the others numbers; with ``row_headers`` the first cell of each row is a row header."""
    head = "".join(f'<th scope="col" style="{HEAD_STYLE}">{h}</th>' for h in header)
    body = []
    for row in rows:
        cells = []
        for i, c in enumerate(row):
            if i == 0:
                tag = 'th scope="row"' if row_headers else "td"
                cells.append(f'<{tag} style="{CELL_STYLE};text-align:left;font-weight:normal">{c}</{tag.split()[0]}>')
            else:
                cells.append(f'<td style="{NUM_STYLE}">{c}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f'<caption style="{CAPTION_STYLE}">{caption}</caption>' if caption else ""
    classes = f"rumino-static-table {cls}".strip()
    return (f'<table class="{classes}" style="{TABLE_STYLE}">{cap}<thead><tr>{head}</tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table>')


def facts_html(facts: list[tuple[str, str]]) -> str:
    """Label/value pairs as a row of small badges, e.g. ``[("deadwood", "7"), ("gin", "no")]``."""
    items = "".join(
        f'<span class="rumino-fact" data-fact="{escape(k)}" style="display:inline-block;margin:2px 6px 2px 0;'
        f'padding:2px 8px;border:1px solid #bbb;border-radius:10px;background:#f7f7f7">'
        f'{escape(k)}: <b>{escape(v)}</b></span>'
        for k, v in facts)
    return f'<div class="rumino-facts" style="font:13px sans-serif">{items}</div>'


def log_html(lines: list[str], keep: int = 40) -> str:
    """A table's log: its last ``keep`` lines (a bot's placement may take several), in a box that shows
    about ten at a time and opens scrolled to the newest (``column-reverse``: no script needed).

    >>> log_html(["You discard 7♥", "Seat 1 places 8♥:", "    7♥ → 7♥ 8♥"]).count(chr(10))
    2
    """
    body = "\n".join(escape(x) for x in lines[-keep:])
    return ('<div class="rumino-log-lines" role="log" aria-label="what has happened at the table" '
            'style="display:flex;flex-direction:column-reverse;max-height:14em;overflow-y:auto;'
            f'font:12px monospace;color:#444"><div style="white-space:pre-wrap">{body}</div></div>')


def game_over_html(lines: list[str]) -> str:
    """The end of a game, said once and plainly: the first line (who won) in bold, the final numbers
    under it; role=status, so a screen reader reads it out."""
    if not lines:
        return ""
    body = f"<b>{escape(lines[0])}</b>" + "".join(f"<br>{escape(x)}" for x in lines[1:])
    return (f'<div class="rumino-game-over" role="status" style="font:14px sans-serif;background:#e8f4ea;'
            f'border-left:4px solid #2e7d32;padding:4px 10px;margin:4px 0">{body}</div>')


def state_html(game, refresh: int, scores: dict) -> str:
    """An invisible mark of the position a table shows (written last by every refresh, so a page that
    shows its ``data-refresh`` shows the rest of that refresh too): the actions so far, the phase, whose
    decision it is, and at the end the winners and the final numbers (JSON) that the game-over line says.

    >>> game, _ = new_table(find_variant("gin"), ["human", "greedy"], 1, 0)
    >>> 'data-over="0"' in state_html(game, 1, {})
    True
    """
    import json

    over = bool(game.game_over)
    winners = list(game.result.winners) if over else []
    return (f'<span class="rumino-table-state" hidden data-refresh="{refresh}" data-actions="{len(game.history)}" '
            f'data-phase="{escape(str(game.phase))}" data-to-act="{"" if over else game.to_act}" '
            f'data-over="{int(over)}" data-winners="{escape(json.dumps(winners))}" '
            f'data-scores="{escape(json.dumps(scores))}"></span>')


class TypedActions:
    """A controller mixin: an action typed in the game's notation, read and checked by the engine.

    The controller has ``game`` (an engine), ``error`` (the last refusal, shown by the widget) and
    ``act(action) -> bool``; a typo or an illegal move sets ``error`` and changes nothing.
    """

    def act_text(self, text: str) -> bool:
        """Play ``text`` (``"swap"``, ``"bid 3"``, ``"play lay 10s Js Qs"``); False, with ``error`` set, if refused."""
        self.error = None
        try:
            action = self.game.ACTIONS.parse(text)
        except RuminoError as err:
            self.error = str(err)
            return False
        return self.act(action)


class TableController(TypedActions):
    """The table controller every game's table shares: the reader at ``human_seat`` and bots, without any widget.

    It seats the players and seeds the game by the one scheme (:func:`rumino.playing.seeding.new_table`),
    sends the reader's action through the *checked* ``apply`` (a refusal keeps the state and shows the
    engine's message), lets the bots move through the one game loop (:func:`rumino.engine.protocol.play`)
    until it is the reader's decision again, and reads typed moves (:class:`TypedActions`). A game's
    table adds what it shows through the hooks :meth:`reset` (per-game state), :meth:`refusal`,
    :meth:`before_action` / :meth:`after_action` (every action, the reader's and the bots') and
    :meth:`after_bots`.
    """

    def __init__(self, players: str, *, variant, seed: int = 0, rules=None, human_seat: int = 0):
        self.bot_specs = [s.strip() for s in players.split(",") if s.strip()]
        self.variant = find_variant(variant)
        self.rules = self.variant.rules if rules is None else rules
        self.seed = seed
        self.human = human_seat

    @property
    def n_players(self) -> int:
        return len(self.bot_specs) + 1

    @property
    def player_names(self) -> list[str]:
        names = list(self.bot_specs)
        names.insert(self.human, "human")
        return names

    def seat_name(self, seat: int) -> str:
        """How the table names a seat: "you", "seat 1"."""
        return "you" if seat == self.human else f"seat {seat}"

    def seat_words(self, text: str) -> str:
        """An engine's line for the reader: its "player 1" as the table names the seats ("you", "seat 1"), said
        to him (:func:`~rumino.engine.words.addressed`), its cards with suit symbols.

        >>> c = TableController("greedy,greedy", variant="rumino")
        >>> c.seat_words("hand 2: player 0 knocked (3 - 1; player 1 laid off 3s)")
        'Hand 2: you knocked (3 - 1; seat 1 laid off 3♠)'
        >>> c.seat_words("deal 4: player 0 went out and takes the Rummoli section")
        'Deal 4: you went out and take the Rummoli section'
        """
        return addressed(card_symbols(re.sub(r"\bplayer (\d+)", lambda m: self.seat_name(int(m.group(1))), text)))

    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game (seeded); the bots move until it is the reader's decision."""
        if seed is not None:
            self.seed = int(seed)
        self.game, self.players = new_table(self.variant, self.player_names, self.seed, 0, rules=self.rules)
        self.bots = {seat: p for seat, p in enumerate(self.players) if seat != self.human}
        self.error: str | None = None
        self.log: list[str] = []
        self.told: list[str] = []  # each action of the game's record in the narrator's words, in one line
        # the game's own narrator (the terminal's words: one voice), naming the seats as this table does
        self.narrator = self.variant.narrator(self.game, [self.seat_name(s) for s in range(self.game.n_seats)],
                                              [self.human])
        self.reset()
        self.run_bots()

    def reset(self) -> None:
        """Hook: the controller's own state for a new game."""

    def view(self):
        return self.game.view(self.human)

    def my_turn(self) -> bool:
        return not self.game.game_over and self.game.to_act == self.human

    def legal(self) -> list:
        """The reader's legal actions now (empty when it is not the reader's decision)."""
        return self.game.legal_actions() if self.my_turn() else []

    def refusal(self) -> str | None:
        """Hook: why the reader may not act now whatever the game says (None: ask the game)."""
        return None

    def act(self, action) -> bool:
        """Apply the reader's ``action`` (checked); on refusal keep the state and show the engine's message."""
        self.error = self.refusal()
        if self.error is not None:
            return False
        if not self.my_turn():
            self.error = ("the game is over: start a new game." if self.game.game_over
                          else "it is not your decision now.")
            return False
        self._before(self.game, self.human, action)
        try:
            self.game.apply(action)
        except RuminoError as err:
            self.error = str(err)
            return False
        self.after_action(self.game, self.human, action)
        self.run_bots()
        return True

    def run_bots(self) -> None:
        """Let the bots act until the reader must decide or the game ends."""
        play(self.game, self.players, max_actions=MAX_BOT_ACTIONS, before=self._before,
             after=self.after_action, until=lambda g: g.game_over or g.to_act == self.human)
        self.tell(self.narrator.pending())  # what the narrator held back until the reader is asked (an auction)
        self.after_bots()

    def _before(self, game, seat: int, action) -> None:
        self.narrator.before(game, seat, action)
        self.before_action(game, seat, action)

    def before_action(self, game, seat: int, action) -> None:
        """Hook: before an action is applied."""

    def after_action(self, game, seat: int, action) -> None:
        """After an action is applied: the log's lines, in the game's narrator's words said to the reader
        ("You discard 7♥", "Seat 1 draws from the stock"), and the end of a hand in one line (the table
        shows its showdown); a table adds what it tracks."""
        ended = len(game.results) > self.narrator.hands
        said = self.narrator.say(game, seat, action).split("\n")[0].rstrip(":")
        self.told.append(addressed(joker_stars(said)))  # the action in a line, by its place in the record
        lines = self.narrator.after(game, seat, action)
        if ended:
            lines = lines[:len(lines) - len(self.narrator.hand_end(game))]
            lines.append(f"— {self.seat_words(game.results[-1].describe())} —")
        self.tell(lines)

    def tell(self, lines) -> None:
        """Add narration to the log, said to the reader (:func:`rumino.engine.words.addressed`), a named
        joker as the table draws it (``★(7♥)``; the narrator's cards have their suit symbols already)."""
        self.log.extend(addressed(joker_stars(line)) for line in lines)

    def after_bots(self) -> None:
        """Hook: the bots have moved (the reader decides now, or the game is over)."""


def short_hint(message: str) -> str:
    """The coach's one-line hint for an engine message about the optimal table: what to do, no file paths.

    >>> short_hint("the optimal table (s4r13c2j4-k7) is not built in /root/.cache/x: set RUMINO_OPTIMAL_DIR …")
    'the exact advice past 2 draws needs the optimal table: build it once with `rumino optimal build` (about 16 minutes on 2 cores and 2 GB of disk)'
    >>> short_hint("there is no optimal table for these house rules (s4r13c2j4-k5) in /tmp/t: …")
    'no optimal table covers these house rules: the chances shown are for at most 2 draws'
    """
    if "house rules" in message:
        return "no optimal table covers these house rules: the chances shown are for at most 2 draws"
    if "not built" in message or "optimal table" in message:
        return (f"the exact advice past 2 draws needs the optimal table: build it once with `{BUILD_COMMAND}` "
                f"({BUILD_COST})")
    return message


class StaticFallback:
    """Mixin for widgets: add ``static_html()`` as ``text/html`` to the widget's MIME bundle."""

    def static_html(self) -> str:  # pragma: no cover - every widget overrides it
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)  # the live widget view
        if bundle is None:
            return None
        bundle = dict(bundle)
        bundle["text/html"] = self.static_html()
        return bundle
