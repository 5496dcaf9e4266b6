"""RummoliTable: a game of Rummoli against bots, with the sheet, the widow, the showdown and the stops.

The controller is the shared table controller (:class:`widgets._base.TableController`):
it holds a game from the registry (``find_variant("rummoli").game``, started with its
bots by the one seeding scheme, :func:`rumino.playing.seeding.new_table`), and this
module adds the view of Rummoli's sheet.
The reader's choices are the engine's legal actions, sent through the *checked*
``apply``: an illegal one (a card that is not called for, a bid too low) is
refused with the engine's message, naming the rule, and nothing changes. After
each of the reader's actions the bots play until it is the reader's decision again.

What the table shows, all read from the engine's view of the reader's seat:

* the play sheet (:class:`~widgets.rummoli_board.RummoliBoard`), the section just
  paid outlined;
* the widow offer (for the dealer: swap, keep and auction the widow, or keep it unsold) and the
  auction (bid or pass);
* the poker showdown: each hand's best five as the engine names it, and the winner;
* the stops, run by run, card by card, each card marked with the player who played it;
* every player's chips, and a log of every action.

>>> c = RummoliTableController("default,default", seed=2)
>>> c.game.to_act == c.human or c.game.game_over
True
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from rumino.cards import format_card, format_hand
from rumino.players import player_words
from rumino.hand.poker import describe as describe_poker, hand_value
from rumino.render.cards import card_back_svg, card_svg, hand_html
from rumino.engine.words import phase_words
from rumino.render.rummoli import SECTION_TITLES

from rumino_widgets._base import (log_html, StaticFallback, TableController, error_html, game_over_html, info_html,
                                  state_html, table_html)
from rumino_widgets._cards import CardRow
from rumino_widgets.rummoli_board import RummoliBoard, RummoliBoardController


class RummoliTableController(TableController):
    """A Rummoli game between the reader (``human_seat``) and bots, without any widget: the shared
    :class:`~widgets._base.TableController` (seating, seeding, the bots' turns, typed moves), with the
    sheet's last paid section added."""

    def __init__(self, players: str = "default,default,default", *, seed: int = 0, rules=None,
                 human_seat: int = 0, variant: str = "rummoli"):
        super().__init__(players, variant=variant, seed=seed, rules=rules, human_seat=human_seat)
        self.new_game(seed)

    # ------------------------------------------------------------------ the game

    def who(self, seat: int) -> str:
        """A seat as the players' table names it: "you", "seat 1 · default" (its bot)."""
        return "you" if seat == self.human else f"seat {seat} · {player_words(self.player_names[seat])}"

    def reset(self) -> None:
        self.paid: str | None = None  # the section whose chips were just taken (outlined on the sheet)
        self._board_before = None

    def play_card(self, card: int) -> bool:
        """Play ``card`` in the stops (the engine refuses a card that is not the lead or the one called for)."""
        return self.act_text(f"play {format_card(card)}")

    def before_action(self, game, seat: int, action) -> None:
        self._board_before = game.view(seat).board

    def after_action(self, game, seat: int, action) -> None:
        super().after_action(game, seat, action)
        board = game.view(seat).board
        if self._board_before is not None:
            # outline the section whose chips went down (taken by a player); the last one wins
            keys = list(SECTION_TITLES)
            for i, (a, b) in enumerate(zip(self._board_before, board)):
                if b < a:
                    self.paid = keys[i]

    # ------------------------------------------------------------------ what the page shows

    def status_html(self) -> str:
        v = self.view()
        g = self.game
        rows = []
        for seat in range(g.n_seats):
            marks = []
            if seat == v.dealer:
                marks.append("dealer")
            if seat == v.widow_to:
                marks.append("took the widow")
            if g.to_act == seat and not g.game_over:
                marks.append("to act")
            if not v.in_game[seat]:
                marks.append("out of the game")
            elif not v.in_hand[seat]:
                marks.append("sits out this deal")
            rows.append([escape(self.who(seat)), str(v.chips[seat]), str(v.hand_sizes[seat]),
                         escape(", ".join(marks))])
        head = (f'<div class="rumino-rummoli-status" style="font:bold 14px sans-serif">Rummoli · deal '
                f'{v.hand_number} of {v.deals_total} · {escape(phase_words(v.phase))}</div>')
        widow = (f'<span style="font:12px sans-serif">{card_back_svg(scale=0.4, count=v.widow_size, label=f"widow: {v.widow_size} cards")}'
                 f' widow ({v.widow_size})</span>' if v.widow_size else "")
        dead = (f'<span style="font:12px sans-serif;margin-left:10px">{card_back_svg(scale=0.4, count=v.dead_size, label=f"dead hand: {v.dead_size} cards")}'
                f' dead hand ({v.dead_size}, unseen)</span>' if v.dead_size else "")
        return (head + table_html(["player", "chips", "cards", "notes"], rows, cls="rumino-rummoli-players",
                                  row_headers=True) + f'<div class="rumino-widow">{widow}{dead}</div>')

    def hand_caption(self) -> str:
        v = self.view()
        if not v.hand:
            return "your hand (no cards)"
        text = format_hand(self.sorted_hand(), unicode=True)
        if len(v.hand) >= 5 and v.phase in ("widow", "auction", "betting"):
            return f"your hand: {text} · best five: {describe_poker(hand_value(tuple(v.hand)))}"
        return f"your hand: {text}"

    def sorted_hand(self) -> list[int]:
        """The reader's cards by suit, then in the engine's order of strength (ace high, §2.1)."""
        return self.view().hand_in_order

    def showdown_html(self) -> str:
        """The poker showdown of this deal: every hand's best five as the engine names it, the five cards
        shown face up (rules §2.4: what every player at the table saw), and the winner."""
        v = self.view()
        if not v.poker_winners:
            return ""
        rows = []
        for seat, value in enumerate(v.poker_values):
            if value is None:
                continue
            won = "wins the poker pot" if seat in v.poker_winners else ""
            five = v.poker_shown[seat] if v.poker_shown else None
            rows.append([escape(self.who(seat)), escape(describe_poker(value)),
                         escape(format_hand(five, unicode=True)) if five else "", won])
        mine = ""
        if v.poker_values[self.human] is not None:  # the five the engine showed for the reader
            mine = hand_html(v.poker_shown[self.human], scale=0.5,
                             caption=f"your best five: {describe_poker(v.poker_values[self.human])}")
        return table_html(["player", "best five", "cards shown", ""], rows, caption="Poker showdown", cls="rumino-showdown",
                          row_headers=True) + mine

    def stops_html(self) -> str:
        """The stops of this deal, one line per run (lead), each card with the player who played it."""
        v = self.view()
        if not v.runs:
            return ""
        lines = []
        for i, run in enumerate(v.runs, 1):
            cards = "".join(
                f'<span class="rumino-stop" data-card="{c}" data-seat="{s}" style="display:inline-block;'
                f'text-align:center;margin-right:2px;font:10px sans-serif">{card_svg(c, scale=0.5)}<br>'
                f'{escape(self.seat_name(s))}</span>' for s, c in run)
            text = ", ".join(f"{format_card(c, unicode=True)} by {self.seat_name(s)}" for s, c in run)
            lines.append(f'<div class="rumino-run" aria-label="run {i}: {escape(text)}" style="margin:2px 0">'
                         f'<span style="font:12px sans-serif;display:inline-block;width:48px">run {i}</span>'
                         f'{cards}</div>')
        need = f" · called for: {format_card(v.need, unicode=True)}" if v.need is not None else ""
        return (f'<div class="rumino-stops"><b style="font:13px sans-serif">The stops{escape(need)}</b>'
                + "".join(lines) + "</div>")

    def final_scores(self) -> dict:
        """The chips the game ended on (seat order), ``{}`` while it goes on."""
        g = self.game
        return {key: values for key, _label, values in g.result.numbers(g)} if g.game_over else {}

    def game_over_lines(self) -> list[str]:
        """Who won, with how many chips, after how many deals; everyone's chips; the final sweep (the result's
        own :meth:`~rumino.engine.results.GameResult.summary`, as the terminal says it too).

        >>> RummoliTableController("default,default", seed=2).game_over_lines()
        []
        """
        g = self.game
        if not g.game_over:
            return []
        return g.result.summary(g, self.seat_name, you=self.human)

    def message_html(self) -> str:
        msgs = []
        if self.error:
            msgs.append(error_html(self.seat_words(self.error)))
        g = self.game
        if g.game_over:
            msgs.append(game_over_html(self.game_over_lines()))
        elif self.my_turn():
            v = self.view()
            choices = self._choice_text(v)
            msgs.append(info_html(f"your move ({phase_words(v.phase)}): {choices}"))
        return "".join(msgs)

    def _choice_text(self, v) -> str:
        legal = self.legal()
        words = list(dict.fromkeys(str(a) if a.word == "keep" else a.word for a in legal))  # the engine's order
        if v.phase == "stops":
            cards = " or ".join(format_card(a.card, unicode=True) for a in legal)
            return f"play {cards}"
        if v.phase == "auction":
            bids = [a for a in legal if a.word == "bid"]
            return f"bid {bids[0].amount} to {bids[-1].amount} chips, or pass" if bids else "pass"
        return " or ".join(words)

    def board_controller(self) -> RummoliBoardController:
        return RummoliBoardController(self.view().board_chips, highlight=self.paid)

    def html(self) -> str:
        """A static snapshot: sheet, players, the reader's hand, showdown, stops and the last log lines."""
        v = self.view()
        return (f'<div class="rumino-rummoli-table">{self.status_html()}{self.board_controller().html()}'
                f'{hand_html(self.sorted_hand(), scale=0.7, caption=self.hand_caption()) if v.hand else ""}'
                f'{self.message_html()}{self.showdown_html()}{self.stops_html()}'
                f'<div class="rumino-log">{log_html(self.log)}</div></div>')


class RummoliTable(StaticFallback, W.VBox):
    """The live table: buttons for the widow, the auction and the betting; click a card to play it.

    >>> t = RummoliTable("default,default", seed=2)
    >>> sorted(t.hand_row.cards) == sorted(t.controller.view().hand)
    True
    """

    BUTTONS = ("swap", "keep", "keep unsold", "pass", "check", "bet", "call", "raise", "fold", "claim", "forgo", "deal")

    def __init__(self, players: str = "default,default,default", *, seed: int = 0, rules=None):
        c = self.controller = RummoliTableController(players, seed=seed, rules=rules)
        self.status = W.HTML()
        self.board = RummoliBoard()
        self.hand_row = CardRow(scale=0.8, title="your hand")
        self.hand_row.add_class("rumino-your-hand")
        self.hand_row.on_click(lambda i: self._do(lambda: c.play_card(self.hand_row.cards[i])))
        self.buttons = {}
        for word in self.BUTTONS:
            b = W.Button(description=word, layout=W.Layout(width="auto"))
            b.add_class(f"rumino-btn-{word.replace(' ', '-')}")
            b.on_click(lambda _b, w=word: self._do(lambda: c.act_text(w)))
            self.buttons[word] = b
        self.bid_box = W.BoundedIntText(value=1, min=1, max=10_000, description="bid", layout=W.Layout(width="150px"),
                                        style={"description_width": "30px"})
        self.bid_button = W.Button(description="bid", layout=W.Layout(width="auto"))
        self.bid_button.add_class("rumino-btn-bid")
        self.bid_button.on_click(lambda _b: self._do(lambda: c.act_text(f"bid {self.bid_box.value}")))
        self.new_button = W.Button(description="New game", icon="refresh")
        self.new_button.on_click(lambda _b: self._do(lambda: c.new_game(c.seed + 1)))
        self.message = W.HTML()
        self.message.add_class("rumino-message")
        self.showdown = W.HTML()
        self.showdown.add_class("rumino-showdown-box")
        self.stops = W.HTML()
        self.stops.add_class("rumino-stops-box")
        self.log_box = W.HTML()
        self.log_box.add_class("rumino-log")
        self.state = W.HTML()  # written last by every refresh: see _base.state_html
        self.state.add_class("rumino-state")
        self._refreshes = 0
        super().__init__([
            self.status, self.board, self.hand_row,
            W.HBox([*self.buttons.values(), self.bid_box, self.bid_button, self.new_button],
                   layout=W.Layout(flex_flow="row wrap")),
            self.message, self.showdown, self.stops, self.log_box, self.state,
        ])
        self.add_class("rumino-rummoli-table")
        self._refresh()

    def _do(self, fn):
        fn()
        self._refresh()

    def _refresh(self):
        c = self.controller
        v = c.view()
        self.status.value = c.status_html()
        self.board.set_chips(v.board_chips, highlight=c.paid)
        cards = c.sorted_hand()
        playable = {a.card for a in c.legal() if a.word == "play"}
        self.hand_row.cards = cards
        self.hand_row.clickable = [x in playable for x in cards]
        self.hand_row.title = c.hand_caption() + (" · click a card to play it" if playable else "")
        words = {str(a) if a.word == "keep" else a.word for a in c.legal()}  # "keep" and "keep unsold" apart
        for word, b in self.buttons.items():
            b.disabled = word not in words
            b.layout.display = None if word in words else "none"
        bids = [a.amount for a in c.legal() if a.word == "bid"]
        for w in (self.bid_box, self.bid_button):
            w.layout.display = None if bids else "none"
        self.bid_button.disabled = not bids
        if bids:
            lo, hi = min(bids), max(bids)
            # ipywidgets checks min <= max on every assignment: move the bound that keeps them ordered first
            if hi >= self.bid_box.min:
                self.bid_box.max, self.bid_box.min = hi, lo
            else:
                self.bid_box.min, self.bid_box.max = lo, hi
            self.bid_box.value = lo
        self.message.value = c.message_html()
        self.showdown.value = c.showdown_html()
        self.stops.value = c.stops_html()
        self.log_box.value = log_html(c.log)
        self._refreshes += 1
        self.state.value = state_html(c.game, self._refreshes, c.final_scores())

    def static_html(self) -> str:
        return self.controller.html()
