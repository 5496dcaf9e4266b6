"""GameTable: play a game from the registry (Rumino by default) against bots, with a coach and a replayable record.

Its controller is the shared table controller (:class:`widgets._base.TableController`: seating,
seeding, the bots' turns, typed moves) with the coach, the table moves and the replay added.

The controller holds the game (``Variant.game``, started with its bots by the one
seeding scheme, :func:`rumino.playing.seeding.new_table`). The reader's buttons and card clicks
become engine actions sent through the *checked* ``apply``: an illegal one is
refused with the engine's message (the rule it breaks) and the state does not
change. After each of the reader's actions the bots move until it is the
reader's decision again.

The coach panel asks the engine:

* deadwood and the best discards: the view's ``deadwood`` and the shared
  evaluator's ``after_draw`` (the pick-up excluded, rules §0.5);
* in Rumino, after a draw, the *optimal* discard for the quickest knock and the value
  of every discard (:func:`rumino.odds.optimal_policy.discard_advice`): from the
  optimal table when it is built, else P(knock within 2 draws) computed directly,
  with a note that the table is missing;
* P(rumino within N draws): exact, for the target :func:`rumino.odds.markov.best_target`
  picks with the discard pile as seen cards (keep-the-target policy);
* P(knockable within N draws): seeded Monte Carlo with a Wilson 95% interval:
  draw N times from the cards this player has not seen, each time discarding to
  the least deadwood (the evaluator's best discard), and count the trials where
  the deadwood reaches the knock limit on the way.

In the games with melds on the table (German Rommé, Robber Rummy) the table view
shows every meld, numbered as the ``play`` notation numbers them, each joker with
the card it stands for, and who has opened. The reader's table moves are the
engine's own actions: the plays ``legal_actions`` lists (a menu), any play typed
in the game's notation (``play lay 10s Js Qs; layoff 8h on 0`` in Rommé, ``place
5c 6c 7c | 7c 8c 9c`` in Robber), or the coach's suggestion — in Robber the exact
solver's best move (:func:`rumino.variants.robber.bots.coach_move`), in Rommé the
Rommé bot's plan (the game's ``Variant.bots.coach``) — each sent through the checked ``apply``. :meth:`GameTableController.set_rules`
(and :meth:`GameTable.follow`, for a :class:`~widgets.rule_knobs.RuleKnobs` form)
starts a new game under other rules.

Stepping back and forth replays the game record (:mod:`rumino.playing.records`) up to
an action, through the checked ``apply``, and shows the reader's view there.

>>> c = GameTableController(players="greedy,greedy", seed=3)
>>> c.game.to_act == c.human or c.game.game_over
True
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from html import escape

import ipywidgets as W

from rumino.cards import format_card, format_hand, parse_card
from rumino.errors import RuminoError
from rumino.engine import Discard
from rumino.engine.melded import MeldedGame
from rumino.engine.actions import Draw
from rumino.odds.exact import one_in
from rumino.odds.markov import best_target
from rumino.odds.coach import p_knockable_within
from rumino.odds.montecarlo import OddsEstimate
from rumino.odds.optimal_policy import discard_advice
from rumino.players import SearchPlayer, make_player, player_words
from rumino.players.coach import explain
from rumino.players.search import best_player
from rumino.playing.records import record_of, replay
from rumino.render.cards import card_back_svg, card_svg, hand_html, marked_meld_html, meld_description, meld_html
from rumino.table.diff import table_diff
from rumino.table.melds import read_meld

from rumino.compare.matrix import house_rule_words
from rumino.players.human import money
from rumino.engine.words import addressed, joker_stars, phase_words

from rumino_widgets._base import (log_html, StaticFallback, TableController, error_html, facts_html, game_over_html, short_hint,
                                  info_html, state_html)
from rumino_widgets._cards import CardRow


def is_plain(action) -> bool:
    """An action with nothing to choose in it (no card, no table, no steps): a button says it all."""
    return not any(hasattr(action, f) for f in ("card", "table", "steps"))


def extra_name(action) -> str:
    """The CSS name of the button of a plain action: ``pass``, ``buyback``, ``draw-discard``."""
    return str(action).replace(" ", "-")


def extra_label(action) -> str:
    """The label of the button of a plain action, in the engine's words: "Pass", "Buy back"."""
    words = action_words(action)
    return words[:1].upper() + words[1:]


def action_words(action) -> str:
    """An action without a button in a player's words: the engine's verb, and the card it names.

    >>> from rumino.engine.actions import KnockWith
    >>> from rumino.variants.wiener import BUYBACK
    >>> action_words(KnockWith(parse_card("7h"))), action_words(BUYBACK)
    ('knock, discarding 7♥', 'buy back')
    """
    card = getattr(action, "card", None)
    verb = getattr(type(action), "verb", None)
    if card is not None and verb:
        shown = format_card(card, unicode=True)
        return f"{verb}, discarding {shown}" if getattr(action, "discards_card", False) else f"{verb} {shown}"
    if verb and not dataclasses.fields(action) and not hasattr(action, "steps"):
        return verb
    return str(action)


def chance_digits(p) -> str:
    """A chance as a decimal with at least two significant digits, never a zero for a chance that is not.

    >>> chance_digits(0.2571), chance_digits(1 / 75137), chance_digits(0)
    ('0.2571', '0.000013', '0')
    """
    import math

    p = float(p)
    if p <= 0:
        return "0"
    return f"{p:.{max(4, 1 - math.floor(math.log10(p)))}f}"


class GameTableController(TableController):
    """A game (Rumino by default) between the reader (``human`` seat) and bots, without any widget: the shared
    :class:`~widgets._base.TableController` with the coach, the table moves and the record's replay."""

    def __init__(self, players: str = "greedy,greedy", *, seed: int = 0, rules=None, human_seat: int = 0,
                 coach_draws: int = 5, coach_samples: int = 1000, variant: str = "rumino"):
        super().__init__(players, variant=variant, seed=seed, rules=rules, human_seat=human_seat)
        self.coach_draws = coach_draws
        self.coach_samples = coach_samples
        self.search_on = False  # the search coach: the search player's move and each move's chance of winning
        self.search_simulations: int | None = None  # its rollouts a move; None: the best player's (its game's budget)
        self.own_bots = list(self.bot_specs)  # the opponents the table was made with ("own" level)
        self.opponents = "own"
        self.new_game(seed)

    OPPONENT_LEVELS = {"own": "the table's own bots", "search": "the search player (strong)",
                       "best": "the best player (strongest: it reads your play)"}
    """The opponents the reader may choose: the bots the table was made with, the search player in every
    other seat at its game's default budget (under a second a decision), or the best player (the search
    that weighs its deals by what the table saw the reader do, :func:`rumino.players.search.best_player`)."""

    def set_opponents(self, level: str) -> None:
        """Seat ``level``'s opponents (a key of :attr:`OPPONENT_LEVELS`) and deal the game again from its seed,
        so the reader replays the same cards against them.

        >>> c = GameTableController("greedy", seed=3, variant="knock-rummy")
        >>> c.set_opponents("search"); c.player_names
        ['human', 'search']
        >>> c.set_opponents("own"); c.player_names
        ['human', 'greedy']
        """
        if level not in self.OPPONENT_LEVELS:
            raise ValueError(f"opponents {level!r}: choose one of {', '.join(self.OPPONENT_LEVELS)}.")
        if level != "own" and not self.can_search:
            raise ValueError(f"opponents {level!r}: the search player does not play {self.variant.title}.")
        self.opponents = level
        self.bot_specs = list(self.own_bots) if level == "own" else [level] * len(self.own_bots)
        self.new_game(self.seed)

    # ------------------------------------------------------------------ the game

    def reset(self) -> None:
        self.message: str | None = None
        self.review: int | None = None
        self._review_game = None
        self._coach_cache: dict = {}  # per position: the coach's numbers and its moves
        self.last_drawn: int | None = None  # the card the reader last drew from the stock, until the next move
        self._held: list[int] = []
        self._mine = 0  # the log's length after the reader's last move

    def refusal(self) -> str | None:
        return "you are looking at an earlier position: press 'live' to play on." if self.review is not None else None

    def before_action(self, game, seat: int, action) -> None:
        if seat == self.human:
            self._held = list(game.hands[seat])
            self.last_drawn = None

    def after_action(self, game, seat: int, action) -> None:
        """The log line; and the card the reader drew from the stock, told to him even when his turn ends
        with the draw (Robber Rummy)."""
        super().after_action(game, seat, action)
        if seat == self.human:
            self._mine = len(self.log)  # the others' moves are told from here on
        if seat == self.human and isinstance(action, Draw) and action.source == "stock":
            new = Counter(game.hands[seat]) - Counter(self._held)
            self.last_drawn = next(iter(new.elements()), None)

    def after_bots(self) -> None:
        self._coach_cache.clear()
        g = self.game
        if g.game_over:
            self.message = "\n".join(self.game_over_lines())
        elif g.results and g.phase in ("between_hands", "rebuy"):
            self.message = self.seat_words(g.results[-1].describe())
        else:
            self.message = None

    def bot_specs_by_seat(self, seat: int) -> str:
        return self.player_names[seat]

    def last_moves(self, limit: int = 6) -> list[str]:
        """The other players' moves since the reader's last one, in the log's words (the newest last)."""
        lines = [line.strip() for line in self.log[self._mine:]]
        return [x for x in lines if not x.startswith("— ")][-limit:]  # a hand's end is told by the message above

    def final_scores(self) -> dict:
        """The numbers the game ended on, by what they are called in this game (seat order), e.g.
        ``{"points": [57, 0], "totals": [207, 0]}`` in Gin; ``{}`` while the game goes on (the result's own
        :meth:`~rumino.engine.results.GameResult.numbers`)."""
        g = self.game
        if not g.game_over:
            return {}
        return {key: values for key, _label, values in g.result.numbers(g)}

    def game_over_lines(self) -> list[str]:
        """What the table says when the game is over: who won, how, and the final numbers in the game's units
        (Rumino's pool in currency, Wiener's pot in chips, Gin's points and totals, Robber's penalties), in the
        words the terminal says them too (the result's own
        :meth:`~rumino.engine.results.GameResult.summary`).

        >>> c = GameTableController("greedy,greedy", seed=3); c.game_over_lines()
        []
        """
        g = self.game
        if not g.game_over:
            return []
        return g.result.summary(g, self.seat_name, you=self.human)

    # the reader's moves, by button name (the game lists its buttons: Game.BUTTONS)
    def press(self, name: str) -> bool:
        """Do what the game's button ``name`` does; if it is not legal now, the engine says why."""
        self.error = None
        button = {b[0]: b for b in self.game.BUTTONS}.get(name)
        if button is None:
            self.error = f"{self.game.NAME} has no {name!r} button."
            return False
        what = button[1]
        for a in self.legal():
            if a == what or (isinstance(what, type) and isinstance(a, what)):
                return self.act(a)
        if not self.my_turn():
            return self.act(what)  # refused before it is used: it is not the reader's decision
        try:  # ask the engine to refuse a representative action, so the reader sees the rule it breaks
            self.game.check(what(self.view().hand[0]) if isinstance(what, type) else what)
        except RuminoError as err:
            self.error = str(err)
        return False

    def draw(self, source: str = "stock") -> bool:
        return self.press("stock" if source == "stock" else "discard")

    def discard(self, card: int) -> bool:
        return self.act(Discard(int(card)))

    def knock(self) -> bool:
        return self.press("knock")

    def gin(self) -> bool:
        """Go gin, discarding the first card the engine lists for it."""
        return self.press("gin")

    def call_rumino(self) -> bool:
        return self.press("rumino")

    def claim(self) -> bool:
        return self.press("claim")

    def pass_claim(self) -> bool:
        return self.press("pass")

    def deal(self) -> bool:
        return self.press("deal")

    def rebuy(self) -> bool:
        return self.press("rebuy")

    def decline(self) -> bool:
        return self.press("decline")

    def can(self, kind) -> bool:
        """Is some legal action of the reader of this type (or equal to this action)?"""
        for a in self.legal():
            if a == kind or (isinstance(kind, type) and isinstance(a, kind)):
                return True
        return False

    # ------------------------------------------------------------------ table moves (Rommé, Robber)

    @property
    def has_table(self) -> bool:
        """Does this game lay melds on the table (its view has ``table``)?"""
        return hasattr(self.game.view(self.human), "table")

    def table_moves(self) -> list:
        """The reader's legal moves now that no button or card click makes, as the engine lists them: the table
        moves, and any other action a game has no button for (Robber's ``draw discard`` with a discard pile)."""
        buttons = [b[1] for b in self.game.BUTTONS]
        return [a for a in self.legal() if not isinstance(a, Discard) and a not in buttons]

    def move_label(self, action) -> str:
        """Words for a move without a button: a Rommé play as the narrator tells it ("play to the table: lay
        off 2♥ on [11] 2♣ 2♦ ★(2♠)"); a Robber placement too, by the cards it places and what moves where
        ("place 7♣ (1 card left): 5♣ 6♣ 7♣ 8♣ 9♣ → 5♣ 6♣ 7♣; new meld …"); a knock with a card as
        "knock, discarding 7♥" (see :func:`action_words`)."""
        if hasattr(action, "steps"):  # told before it is played: the narrator reads only the table before it
            self.narrator.before(self.game, self.human, action)
            said = addressed(joker_stars(self.narrator.say(self.game, self.human, action)))
            return said.removeprefix("You ")
        table = getattr(action, "table", None)
        if table is None:
            return action_words(action)
        v = self.view()
        after = tuple(read_meld(m, self.rules.meld_rules) for m in table)
        d = table_diff(v.table, after)
        tell = getattr(self.narrator, "move_text", None)  # Robber's narrator: a placement as what moved where
        if tell is None:
            new = [meld_description(m) for i, m in enumerate(after) if d.source[i] is None or not d.unchanged(i)]
            return f"place {format_hand(d.placed, unicode=True)} → " + " | ".join(new)
        left = list((Counter(v.hand) - Counter(d.placed)).elements())
        said = tell("you", v.table, after, v.hand, left).replace(":\n    ", ": ").replace("\n    ", "; ")
        return addressed(joker_stars(said)).removeprefix("You ")

    def play_text(self, text: str) -> bool:
        """Play a move written in the game's notation (e.g. ``play lay 10s Js Qs``); the engine reads and checks it."""
        return self.act_text(text)

    def suggestion(self):
        """The coach's table move for the reader now, or None: Robber's exact solver move (or the
        largest opening), Rommé's bot plan."""
        if self.review is not None or not self.my_turn() or not self.has_table:
            return None
        key = ("table move", len(self.game.history))  # the solver is slow: once per position
        if key not in self._coach_cache:
            coach = self.variant.bots.coach
            self._coach_cache[key] = coach[1](self.view()) if coach is not None else None
        return self._coach_cache[key]

    def suggestion_label(self) -> str:
        """What the coach's table move is called in this game (e.g. "best move (exact solver)")."""
        coach = self.variant.bots.coach
        return coach[0] if coach is not None else "suggested move"

    @property
    def can_search(self) -> bool:
        """Does the search player play this game (:meth:`search_advice`)?"""
        return SearchPlayer.fits(type(self.game))

    def search_advice(self):
        """The search player's decision for the reader now (a :class:`~rumino.players.search.Decision`: its
        move and, for each move it tried, the share of hands won in its rollouts), or None when it is not
        the reader's decision or the game is not one the search plays. Seeded by the position: the same
        position, the same advice.

        >>> c = GameTableController("greedy", seed=3, variant="gin")
        >>> d = c.search_advice(); d.action in c.legal(), len(d.values) > 1
        (True, True)
        """
        if self.review is not None or not self.my_turn() or not self.can_search:
            return None
        key = ("search", len(self.game.history), self.search_simulations)
        if key not in self._coach_cache:
            seed = [self.seed, len(self.game.history)]
            # min_worlds=0: the coach weighs the moves even where the best player would keep its rule
            player = (best_player(seed=seed, min_worlds=0) if self.search_simulations is None
                      else SearchPlayer(self.search_simulations, seed=seed, model=True))
            player.choose(self.view())
            self._coach_cache[key] = player.last
        return self._coach_cache[key]

    def coach_move(self):
        """The move the coach proposes now, in every game: its table move where the game has one
        (:meth:`suggestion`), else what the game's own bot (the registry's, e.g. greedy) chooses for the
        reader's view; None when it is not the reader's decision.

        >>> str(GameTableController("greedy,greedy", seed=3).coach_move())  # greedy takes a discard it melds
        'draw discard'
        """
        if self.review is not None or not self.my_turn():
            return None
        key = ("move", len(self.game.history), self.search_on)
        if key not in self._coach_cache:
            move = self.suggestion()
            if self.search_on and self.can_search:
                move = self.search_advice().action
            if move is None:  # a fresh bot each time: the same position, the same advice
                move = make_player(self.variant.bot, seed=self.seed).choose(self.view())
            self._coach_cache[key] = move
        return self._coach_cache[key]

    def button_for(self, action) -> str | None:
        """The name of the game's button that plays exactly ``action`` now, or None (a button that stands for
        a class plays the first legal instance, e.g. Rumino's "Go gin": it plays ``action`` only if that is it)."""
        legal = self.legal()
        for name, what, *_ in self.game.BUTTONS:
            if what == action:
                return name
            if isinstance(what, type) and isinstance(action, what):
                first = next((a for a in legal if isinstance(a, what)), None)
                if first == action:
                    return name
        return None

    def control_for(self, action) -> tuple[str, str]:
        """Which control of the table plays ``action``, and what to pick there: ``("card", "23")`` (click that
        card), ``("button", "stock")`` (a button's name), ``("coach", "")`` (the coach's table move button),
        ``("menu", label)`` (choose under "more moves", then "Play this move"), ``("type", notation)``.

        >>> c = GameTableController("greedy,greedy", seed=3); c.control_for(c.coach_move())
        ('button', 'discard')
        """
        if isinstance(action, Discard):
            return "card", str(action.card)
        name = self.button_for(action)
        if name is not None:
            return "button", name
        if action in self.extra_moves():
            return "button", extra_name(action)
        if self.has_table and action == self.suggestion():
            return "coach", ""
        if action in self.menu_moves():
            return "menu", self.move_label(action)
        return "type", str(action)

    def control_words(self, action) -> str:
        """The coach's move as the reader makes it, e.g. "draw stock — press 'Draw stock'"."""
        kind, value = self.control_for(action)
        if kind == "card":
            return f"discard {format_card(action.card, unicode=True)} — click it in your hand"
        if kind == "button":
            labels = {b[0]: b[2] for b in self.game.BUTTONS}
            return f"{self.move_label(action)} — press '{labels.get(value) or extra_label(action)}'"
        if kind == "coach":
            return f"{self.move_label(action)} — press 'Play the coach's move'"
        if kind == "menu":
            return f"{value} — choose it under 'more moves', then press 'Play this move'"
        return f"{value} — type it in the box, then press 'Play typed'"

    def extra_moves(self) -> list:
        """The legal moves with no button of the game's and no card to name (Gin's pass on the upcard,
        Wiener's buy-back and its refusal, Robber's draw from the discard pile): each gets a button."""
        return [a for a in self.table_moves() if is_plain(a)]

    def menu_moves(self) -> list:
        """The moves chosen from the "more moves" list: table moves, and moves that name a card
        (Gin's and Wiener's knock with its discard, Wiener's rummy call, Rumino's gin with each discard)."""
        return [a for a in self.table_moves() if not is_plain(a)]

    def table_after(self, action) -> tuple | None:
        """The table melds after a table move of the reader's (the engine's reading), or None if it is refused."""
        v = self.view()
        try:
            if hasattr(action, "table"):  # Robber: the placement is the whole table after the move
        
                return tuple(read_meld(m, self.rules.meld_rules) for m in action.table)
            if hasattr(action, "steps"):  # Rommé: the engine evaluates the play without applying it
                return v.evaluate(action.steps).table
        except RuminoError:
            return None
        return None

    def move_html(self, action) -> str:
        """The table after a move, each card that changed meld marked "moved" and each card laid "from hand"
        (outline and text badge; :func:`rumino.table.diff.table_diff` decides the marks)."""
        after = self.table_after(action)
        if after is None:
            return ""
        d = table_diff(self.view().table, after)
        blocks = "".join(marked_meld_html(m, [None if k == "stayed" else k for k in ks], scale=0.45,
                                          caption=f"[{i}] {meld_description(m)}")
                         for i, (m, ks) in enumerate(zip(d.after, d.marks)))
        return (f'<div class="rumino-coach-move" role="group" aria-label="the table after the coach\'s move" '
                f'style="margin:4px 0"><div style="font:12px sans-serif">the table after this move:</div>'
                f'{blocks}</div>')

    def play_suggestion(self) -> bool:
        """Play the coach's suggestion (see :meth:`suggestion`)."""
        a = self.suggestion()
        if a is None:
            self.error = "the coach has no table move to suggest now."
            return False
        return self.act(a)

    def set_rules(self, rules) -> bool:
        """Start a new game (same seed) under ``rules``; ``None`` or rules of another game are refused with a
        message and the game goes on unchanged."""
        if rules is None:
            self.error = "the rules form shows an error: the game goes on under its old rules."
            return False
        if type(rules) is not self.variant.rules_class:
            self.error = (f"these are {type(rules).__name__}, not rules of {self.variant.title} "
                          f"({self.variant.rules_class.__name__}): the game goes on under its old rules.")
            return False
        self.rules = rules
        self.new_game(self.seed)
        return True

    # ------------------------------------------------------------------ coach

    def base_hand(self) -> tuple[int, ...]:
        """The reader's hand between turns: the hand, or after the best discard when one card over."""
        v = self.view()
        hand = list(v.hand)
        if len(hand) > v.hand_size:
            _, best = v.evaluator.after_draw(hand, v.forbidden)
            hand.remove(best[0])
        return tuple(hand)

    def coach(self) -> dict:
        """What the coach panel shows (all numbers from the engine; see the module docstring)."""
        key = (len(self.game.history), self.coach_draws, self.coach_samples)
        if key in self._coach_cache:
            return self._coach_cache[key]
        v = self.view()
        ev = v.evaluator
        out: dict = {"deadwood": v.deadwood, "limit": v.knock_limit, "draws": self.coach_draws,
                     "best_discards": (), "phase": v.phase}
        if len(v.hand) > v.hand_size:
            out["best_discards"] = ev.after_draw(v.hand, v.forbidden)[1]
            if self.variant.optimal_tables:
                try:
                    out["optimal"] = discard_advice(v.hand, "knock", self.coach_draws, forbidden=v.forbidden,
                                                    rules=self.rules)
                except RuminoError as err:  # e.g. a house rule the tables do not cover: say so
                    out["optimal"] = {"error": str(err)}
        base = self.base_hand()
        if len(base) == v.hand_size and self.variant.has_rumino:
            target = best_target(base, seen=v.discard_pile)
            out["target"] = target.describe(unicode=True)
            out["p_rumino"] = target.p_hit(min(self.coach_draws, target.unseen))
            out["p_knock"] = self.p_knockable(base, v)
        self._coach_cache[key] = out
        return out

    def p_knockable(self, base: tuple[int, ...], v) -> OddsEstimate:
        """P(deadwood ≤ the knock limit within N stock draws), from the engine's seeded simulation."""
        seed = len(self.game.history)  # a fixed seed per position: the same position, the same estimate
        return p_knockable_within(base, v.unseen.astype(int).clip(0), self.rules, self.coach_draws,
                                  self.coach_samples, seed)

    # ------------------------------------------------------------------ the record

    def record_length(self) -> int:
        return len(self.game.history)

    def step_to(self, k: int | None) -> None:
        """Show the position after ``k`` actions (None: the live game), replayed from the record."""
        total = self.record_length()
        if k is None or k >= total:
            self.review, self._review_game = None, None
            return
        k = max(0, int(k))
        rec = record_of(self.game, self.player_names)
        self._review_game = replay(rec, upto=k)
        self.review = k

    def step_back(self) -> None:
        k = self.record_length() if self.review is None else self.review
        self.step_to(max(0, k - 1))

    def step_forward(self) -> None:
        if self.review is not None:
            self.step_to(self.review + 1)

    def shown_game(self):
        return self._review_game if self.review is not None else self.game

    def review_text(self) -> str:
        total = self.record_length()
        if self.review is None:
            return f"live: {total} actions so far"
        k = self.review
        last = ""
        if k > 0:
            last = f" (last: {self.told[k - 1]})"
        return f"position after action {k} of {total}{last}"

    # ------------------------------------------------------------------ views

    def table_html(self) -> str:
        """Scores, opponents' card counts, stock and discard pile of the shown position."""
        g = self.shown_game()
        v = g.view(self.human)
        rows = []
        for seat in range(g.n_seats):
            name = "you" if seat == self.human else f"seat {seat} · {player_words(self.player_names[seat])}"
            marks = []
            if seat == v.dealer:
                marks.append("dealer")
            if g.to_act == seat and not g.game_over:
                marks.append("to act")
            if not v.in_game[seat]:
                marks.append("out")
            opened = getattr(v, "opened", None)
            if opened is not None and seat < len(opened):
                marks.append("opened" if opened[seat] else "not opened")
            back = card_back_svg(scale=0.45, count=v.hand_sizes[seat], label=f"{name}: {v.hand_sizes[seat]} cards") \
                if seat != self.human else ""
            n_cards = v.hand_sizes[seat]
            count = (f'<div class="rumino-seat-cards">{n_cards} card{"s" if n_cards != 1 else ""} in hand</div>'
                     if seat != self.human else "")
            rows.append(f'<div class="rumino-seat" data-seat="{seat}" style="display:inline-block;margin-right:14px;'
                        f'vertical-align:top;font:13px sans-serif">{back}<div><b>{escape(name)}</b></div>{count}'
                        f'<div>score {v.scores[seat]}{" · " + ", ".join(marks) if marks else ""}</div></div>')
        top = v.top_discard
        pile = (card_svg(top, scale=0.8) if top is not None else
                card_back_svg(scale=0.8, label="empty discard pile"))
        # Robber Rummy without its discard-pile house rule has no pile: an empty one would look like a card
        no_pile = getattr(g.rules, "discard_pile", True) is False
        stock = card_back_svg(scale=0.8, count=v.stock_size, label=f"stock: {v.stock_size} cards")
        centre = (f'<div class="rumino-centre" style="margin:6px 0;font:12px sans-serif">'
                  f'<span style="display:inline-block;text-align:center;margin-right:14px">{stock}<br>stock</span>'
                  + ("" if no_pile else
                     f'<span class="rumino-discard-pile" data-top="{"" if top is None else top}" '
                     f'style="display:inline-block;text-align:center">{pile}<br>discard pile '
                     f'({len(v.discard_pile)})</span>') + '</div>')
        head = (f'<div style="font:bold 14px sans-serif">{escape(g.NAME)} · hand {v.hand_number} · '
                f'{escape(phase_words(v.phase))}{escape(self.money_text(v))}</div>' + self.rules_html() + self.notices_html(v))
        return head + "".join(rows) + centre + self.melds_html(v)

    def money_text(self, v) -> str:
        """What is at stake, in the game's own units: Rumino's pool in currency, Wiener's pot in chips."""
        pool = getattr(v, "pool_cents", None)
        if pool is not None:
            return f" · pool ${money(pool)}"  # cents kept exactly; whole units unless a split left cents
        pot = getattr(v, "pot", None)
        if pot is not None:
            return f" · pot {pot} chip{'s' if pot != 1 else ''}"
        return ""

    def notices_html(self, v) -> str:
        """What a player must not miss: the game's own notices for the hand (Oklahoma Gin's upcard and the
        knock limit it set), the last round after a knock, the terms of a buy-back offer."""
        narrator = self.variant.narrator
        notes = list(narrator.hand_notices(v)) if narrator is not None else []
        if getattr(v, "last_round", False) and getattr(v, "knocker", None) is not None:
            who = self.seat_name(v.knocker)
            notes.append(f"last round: {who} knocked, so every other player draws and discards once more, "
                         f"then the hands are shown")
        target, price = getattr(v, "buyback_target", None), getattr(v, "buyback_price", None)
        if target is not None and price is not None:
            notes.append(f"buy-back offer: pay {price} chip{'s' if price != 1 else ''} into the pot and your "
                         f"score becomes {target}, or decline and leave the game")
        return "".join(f'<div class="rumino-notice" role="status" style="font:13px sans-serif;background:#fff5cc;'
                       f'border-left:4px solid #d9a400;padding:3px 8px;margin:3px 0">{escape(n)}</div>' for n in notes)

    def house_rules(self) -> dict:
        """The rules of this game that differ from the variant's defaults (name -> value)."""
        base = self.variant.rules
        return {f.name: getattr(self.rules, f.name) for f in dataclasses.fields(self.rules)
                if getattr(self.rules, f.name) != getattr(base, f.name)}

    def rules_html(self) -> str:
        changed = self.house_rules()
        text = ("house rules: " + "; ".join(house_rule_words(self.variant, k, v) for k, v in changed.items())
                if changed else "the default rules")
        return f'<div class="rumino-game-rules" style="font:12px sans-serif;color:#333">{escape(text)}</div>'

    def melds_html(self, v=None) -> str:
        """The melds on the table, numbered from 0 as plays name them, jokers with the card they stand for."""
        v = v if v is not None else self.shown_game().view(self.human)
        table = getattr(v, "table", None)
        if table is None:
            return ""
        owners = getattr(v, "owners", ())
        blocks = []
        for i, m in enumerate(table):
            who = ""
            if i < len(owners):
                who = " · laid by " + ("you" if owners[i] == self.human else f"seat {owners[i]}")
            blocks.append(f'<div class="rumino-table-meld" data-index="{i}" style="display:inline-block;'
                          f'vertical-align:top"><div style="font:12px sans-serif">[{i}]{escape(who)}</div>'
                          f'{meld_html(m, scale=0.5)}</div>')
        body = "".join(blocks) or '<span style="font:12px sans-serif;color:#555">(no melds yet)</span>'
        return (f'<div class="rumino-table-melds" role="group" aria-label="melds on the table" '
                f'style="margin:4px 0"><div style="font:bold 13px sans-serif">melds on the table</div>{body}</div>')

    def next_move_html(self) -> str:
        """The coach's move and how to make it with the table's controls (see :meth:`coach_move`); the
        move in the game's notation and the control are in data attributes, for a test to follow."""
        move = self.coach_move()
        if move is None:
            return ""
        kind, value = self.control_for(move)
        return (f'<div class="rumino-coach-next" data-action="{escape(str(move))}" data-control="{kind}" '
                f'data-value="{escape(value)}" style="font:13px sans-serif;margin:3px 0">'
                f'<b>coach\'s move</b> ({escape(self.coach_name())}): {escape(self.control_words(move))}</div>')

    def coach_name(self) -> str:
        """Who advises the coach's move: the search player when it is on, else the game's own bot."""
        if self.search_on and self.can_search:
            if self.search_simulations is None:
                return f"best player, {best_player().budget_for(type(self.game))} rollouts"
            return f"search, {self.search_simulations} rollouts"
        return f"{self.variant.bot} bot"

    def search_facts(self) -> list:
        """The search coach's lines: each move it tried with its estimated chance of winning the hand
        (the share of its rollouts the move won, a tie counting ½) and a 95% interval."""
        d = self.search_advice() if self.search_on else None
        if d is None:
            return []
        if d.forced:
            return [("search", f"{self.move_label(d.action)}: {d.reason}, nothing to search")]
        rows = []
        for action, share, n in d.values[:5]:
            half = 1.96 * (share * (1 - share) / n) ** 0.5 if n else 0.0  # normal interval of a share
            rows.append(f"{self.move_label(action)} {share:.0%} (± {half:.0%})")
        # heads-up the share of rollouts won is the chance of winning the hand; at a larger table it is the
        # share of the other players beaten (a hand at a table of three can be half won)
        what = ("chance of winning the hand" if len(self.game.hand_players) <= 2
                else "share of the other players beaten in the hand")
        facts = [(f"{what}, by move ({d.simulations} rollouts)", " · ".join(rows))]
        if d.values and d.values[0][1] < max(share for _, share, _ in d.values):
            facts.append(("why this move", "the search keeps the greedy bot's move unless another wins more "
                                           "often on the same sampled deals by more than their noise"))
        said = explain(d, self.view())[1:-1]  # the reasons and the guess of the other hands (the odds are above)
        if said:
            facts.append(("the coach says", " ".join(said)))
        return facts

    def coach_html(self) -> str:
        if self.review is not None or self.game.game_over or not self.view().in_game[self.human]:
            return info_html("coach: play on to see advice." if self.review is None else
                             "coach: back to live to see advice.") + self.next_move_html()
        c = self.coach()
        # the games with melds on the table (Rommé, Robber) count no deadwood: a card left in hand costs its
        # penalty whether or not it could meld, so the coach names the same number for what it is there
        word = "points outside melds" if issubclass(self.variant.game, MeldedGame) else "deadwood"
        facts = [(word, f"{c['deadwood']}" + (f" (knock at ≤ {c['limit']})" if c["limit"] is not None else ""))]
        if c["best_discards"]:
            facts.append(("best discard", " or ".join(format_card(x, unicode=True) for x in c["best_discards"])))
        a = c.get("optimal")
        if a is not None and "error" in a:
            facts.append(("optimal discard", short_hint(a["error"])))
        elif a is not None:
            src = "optimal table" if a["source"] == "table" else "computed directly, no table"
            facts.append((f"optimal discard ({src})", format_card(parse_card(a["best_discard"]), unicode=True)))
            values = []
            ranked = sorted(a["discards"], key=lambda r: -r["probability"])
            # the three best discards (a hand of 8 has up to 8): a row of "K♠ 0.0%" tells the reader nothing
            for r in [r for r in ranked if r["probability"] > 0][:3] or ranked[:1]:
                text = f"{format_card(parse_card(r['card']), unicode=True)} {r['probability']:.1%}"
                if r.get("expected_draws") is not None:
                    text += f" ({r['expected_draws']:.1f} draws)"
                values.append(text)
            facts.append((f"P(knock within {a['draws']} draw{'s' if a['draws'] != 1 else ''}) by discard",
                          " · ".join(values)))
            if a["note"]:
                facts.append(("note", short_hint(a["note"])))
        if "p_knock" in c:
            e = c["p_knock"]
            facts.append((f"P(knockable within {c['draws']} draws)",
                          f"{e.value:.3f} [{e.lo:.3f}, {e.hi:.3f}] (n = {e.n:,}, seed {e.seed})"))
            p = c["p_rumino"]
            facts.append((f"P(rumino within {c['draws']} draws)", f"{chance_digits(p)} ({one_in(p)}) · {c['target']}"))
        sug = self.suggestion()
        if sug is not None:
            facts.append((self.suggestion_label(), self.move_label(sug)))
        facts.extend(self.search_facts())
        move = self.move_html(sug) if sug is not None else ""
        return ('<div class="rumino-coach"><b style="font:13px sans-serif">coach</b>' + facts_html(facts) + move
                + self.next_move_html() + "</div>")

    def html(self) -> str:
        """A static snapshot: the table, the reader's hand, the last hand's showdown, the coach."""
        g = self.shown_game()
        v = g.view(self.human)
        parts = [self.table_html(), hand_html(v.hand, scale=0.8, caption="your hand: " +
                                              format_hand(v.hand, unicode=True))]
        if self.game.game_over and self.review is None:
            parts.append(game_over_html(self.game_over_lines()))
        elif self.message:
            parts.append(info_html(self.message))
        if self.error:
            parts.append(error_html(self.seat_words(self.error)))
        parts.append(self.showdown_html())
        parts.append(self.coach_html())
        return "".join(parts)

    def showdown_html(self) -> str:
        g = self.shown_game()
        if not g.results or g.phase not in ("rebuy", "between_hands", "game_over"):
            return ""
        r = g.results[-1]
        # the games with melds on the table score the cards left in hand as a penalty, not as deadwood
        word = "penalty" if issubclass(self.variant.game, MeldedGame) else "deadwood"
        blocks = []
        for seat, cards in sorted(r.hands.items()):
            who = self.seat_name(seat)
            counted = "" if r.deadwood[seat] is None else f"{word} {r.deadwood[seat]}, "
            blocks.append('<div style="display:inline-block;vertical-align:top;margin-right:18px">'
                          + hand_html(cards, scale=0.5, caption=f"{who}: {counted}{r.deltas[seat]:+d} → "
                                                                f"{r.scores[seat]}") + "</div>")
        head = escape(self.seat_words(r.describe()))
        return (f'<div class="rumino-showdown" style="font:13px sans-serif"><b>{head}</b><br>'
                + "".join(blocks) + "</div>")


class GameTable(StaticFallback, W.VBox):
    """The live table: click a card to discard it; the buttons draw, knock, go gin, claim; the bots answer.

    >>> t = GameTable(players="greedy,greedy", seed=3)
    >>> t.hand_row.cards == list(t.controller.view().hand)
    True
    """

    def __init__(self, players: str = "greedy,greedy", *, seed: int = 0, rules=None, coach_draws: int = 5,
                 coach_samples: int = 1000, variant: str = "rumino"):
        c = self.controller = GameTableController(players, seed=seed, rules=rules, coach_draws=coach_draws,
                                                  coach_samples=coach_samples, variant=variant)
        self.table = W.HTML()
        self.table.add_class("rumino-table")
        self.hand_row = CardRow(scale=0.9, title="your hand")
        self.hand_row.add_class("rumino-your-hand")
        self.hand_row.on_click(lambda i: self._do(lambda: c.discard(c.view().hand[i])))

        def button(label, fn, name, tip=""):
            b = W.Button(description=label, tooltip=tip)
            b.add_class(f"rumino-btn-{name}")
            b.on_click(lambda _b: self._do(fn))
            return b

        self.buttons = {name: button(label, (lambda n=name: c.press(n)), name, tip)
                        for name, _what, label, tip in c.game.BUTTONS}
        self.new_button = W.Button(description="New game", icon="refresh")
        self.new_button.on_click(lambda _b: self._do(lambda: c.new_game(c.seed + 1)))
        self.message = W.HTML()
        self.message.add_class("rumino-message")
        self.showdown = W.HTML()
        # table moves (Rommé, Robber): the engine's menu, a typed play, the coach's suggestion
        self.moves_box = W.Dropdown(options=[], description="more moves", layout=W.Layout(width="660px"),
                                    style={"description_width": "100px"})  # the label whole, not "more mov…"
        self.moves_box.add_class("rumino-moves")
        self.move_button = button("Play this move", lambda: c.act(self.moves_box.value) if self.moves_box.value
                                  is not None else None, "move", "play the move chosen in the list")
        self.play_box = W.Text(description="or type", placeholder=self._placeholder(),
                               layout=W.Layout(width="660px"), style={"description_width": "100px"})
        self.play_box.add_class("rumino-play-text")
        self.play_text_button = button("Play typed", lambda: c.play_text(self.play_box.value), "play-text",
                                       "play the move typed in the game's notation")
        self.suggest_button = button("Play the coach's move", c.play_suggestion, "suggestion",
                                     "Robber: the exact solver's best move; Rommé: the bot's plan")
        for b in (self.move_button, self.play_text_button, self.suggest_button):
            b.layout.width = "auto"  # the labels are long: never cut them short
        self.menu_row = W.HBox([self.moves_box, self.move_button])
        self.typed_row = W.HBox([self.play_box, self.play_text_button])
        self.moves = W.VBox([self.menu_row, self.typed_row, self.suggest_button])
        for w in (self.typed_row, self.suggest_button):  # typed plays and the coach's plan: the table games
            w.layout.display = None if c.has_table else "none"
        # a button for each move of the engine's that the game's buttons do not make and that names no card
        # (Gin's pass on the upcard, Wiener's buy-back): made when first needed, shown while legal
        self.extra_buttons: dict[str, W.Button] = {}
        self.extra_box = W.HBox([], layout=W.Layout(flex_flow="row wrap"))
        self.coach_draws = W.IntSlider(value=coach_draws, min=1, max=12, description="coach N draws",
                                       continuous_update=False, style={"description_width": "110px"})
        self.coach_draws.observe(lambda ch: self._do(lambda: setattr(c, "coach_draws", ch["new"])), names="value")
        self.search_box = W.Checkbox(value=False, description="search coach (its move, each move's chance)",
                                     indent=False, layout=W.Layout(width="auto"))
        self.search_box.add_class("rumino-search-coach")
        self.search_box.observe(lambda ch: self._do(lambda: setattr(c, "search_on", ch["new"])), names="value")
        self.search_box.layout.display = None if c.can_search else "none"
        # the opponents' level: the table's own bots, or the search player in every other seat (a new deal
        # of the same seed, so the reader meets the same cards against stronger play)
        self.opponents_box = W.Dropdown(options=[(words, key) for key, words in c.OPPONENT_LEVELS.items()],
                                        value=c.opponents, description="opponents",
                                        layout=W.Layout(width="auto"), style={"description_width": "80px"})
        self.opponents_box.add_class("rumino-opponents")
        self.opponents_box.observe(lambda ch: self._do(lambda: c.set_opponents(ch["new"])), names="value")
        self.opponents_box.layout.display = None if c.can_search else "none"
        self.coach = W.HTML()
        self.coach.add_class("rumino-coach-panel")
        self.back_button = button("◀ back", c.step_back, "back", "step back through the record")
        self.forward_button = button("forward ▶", c.step_forward, "forward")
        self.live_button = button("live", lambda: c.step_to(None), "live")
        self.review_label = W.HTML()
        self.review_label.add_class("rumino-review")
        self.log_box = W.HTML()
        self.log_box.add_class("rumino-log")
        self.state = W.HTML()  # written last by every refresh: see _base.state_html
        self.state.add_class("rumino-state")
        self._refreshes = 0
        super().__init__([
            self.table, self.hand_row,
            W.HBox(list(self.buttons.values()) + [self.new_button], layout=W.Layout(flex_flow="row wrap")),
            self.extra_box, self.moves, self.message, self.showdown, W.HBox([self.coach_draws, self.search_box, self.opponents_box]),
            self.coach,
            W.HBox([self.back_button, self.forward_button, self.live_button, self.review_label]), self.log_box,
            self.state,
        ])
        self.add_class("rumino-game-table")
        self.add_class(f"rumino-game-table-{c.variant.key}")  # several tables on one page are told apart
        self._refresh()

    def _placeholder(self) -> str:
        return self.controller.variant.move_example  # a table move in the game's notation (the registry's)

    def follow(self, knobs) -> None:
        """Start a new game whenever the rules of a :class:`~widgets.rule_knobs.RuleKnobs` form change."""
        knobs.controller.on_change(lambda rules: self._do(lambda: self.controller.set_rules(rules)))

    def _do(self, fn):
        fn()
        self._refresh()

    def _refresh(self):
        c = self.controller
        live = c.review is None
        moves = c.menu_moves() if live else []
        self.moves_box.options = [(c.move_label(a), a) for a in moves]
        self.moves_box.value = moves[0] if moves else None
        self.moves_box.disabled = self.move_button.disabled = not moves
        # the list shows in the table games, and in the others while it holds a move (a knock with its card)
        self.menu_row.layout.display = None if (c.has_table or moves) else "none"
        if c.has_table:
            self.play_text_button.disabled = not (live and c.my_turn())
            self.suggest_button.disabled = c.suggestion() is None
        extra = c.extra_moves() if live else []
        for a in extra:
            name = extra_name(a)
            if name not in self.extra_buttons:
                b = W.Button(description=extra_label(a), button_style="success", layout=W.Layout(width="auto"))
                b.add_class(f"rumino-btn-{name}")
                b.on_click(lambda _b, a=a: self._do(lambda: c.act(a)))
                self.extra_buttons[name] = b
        self.extra_box.children = [self.extra_buttons[extra_name(a)] for a in extra]
        g = c.shown_game()
        v = g.view(c.human)
        self.table.value = c.table_html()
        self.hand_row.cards = list(v.hand)
        drawn = c.game.drawn if (live and v.phase == "discard" and g.to_act == c.human) else None
        self.hand_row.selected = [len(v.hand) - 1] if drawn is not None and v.hand and v.hand[-1] == drawn else []
        can_discard = live and c.can(Discard)
        self.hand_row.clickable = [can_discard] * len(v.hand)
        self.hand_row.title = ("your hand: click a card to discard it" if can_discard else "your hand")
        what = {b[0]: b[1] for b in c.game.BUTTONS}
        for name, b in self.buttons.items():
            b.disabled = not (live and c.can(what[name]))
            b.button_style = "success" if (not b.disabled and name not in ("stock", "discard", "deal")) else ""
            # only the moves open now are shown: a row of greyed buttons hides the two that matter
            b.layout.display = "none" if b.disabled else None
        msgs = []
        if c.error:
            msgs.append(error_html(c.seat_words(c.error)))
        if c.game.game_over:
            msgs.append(game_over_html(c.game_over_lines()))
        elif c.message:
            msgs.append(info_html(c.message))
        told = drawn if drawn is not None else (c.last_drawn if live and not c.game.game_over else None)
        if told is not None:  # a draw that ends the turn (Robber) is told until the reader's next move
            msgs.append(info_html(f"you drew {format_card(told, unicode=True)}"
                                  + (" (raised in your hand)" if drawn is not None else "")))
        moved = c.last_moves()
        if live and moved:
            msgs.append(info_html("since your last move: " + " · ".join(moved)))
        if live and c.my_turn():
            msgs.append(info_html(f"your move ({phase_words(v.phase)})"))
        self.message.value = "".join(msgs)
        self.showdown.value = c.showdown_html()
        self.coach.value = c.coach_html()
        self.back_button.disabled = c.record_length() == 0 or c.review == 0
        self.forward_button.disabled = live
        self.live_button.disabled = live
        self.review_label.value = f'<span style="font:13px sans-serif">{escape(c.review_text())}</span>'
        self.log_box.value = log_html(c.log)
        self._refreshes += 1
        self.state.value = state_html(c.game, self._refreshes, c.final_scores())

    def static_html(self) -> str:
        return self.controller.html()
