"""HandExplorer: type or deal a hand for any variant and see its best arrangement.

The controller asks the engine everything through :func:`rumino.compare.hand_report.evaluate_cards`,
the call behind ``rumino deadwood``: the facts (deadwood, gin, rumino, may knock, best
discard after a draw) from the one evaluator, and the melds to draw. Text that is not a
valid hand leaves the engine's message in ``error``; nothing is raised.

For an 8-card Rumino hand it also shows the *optimal* discard for the quickest knock,
with the value of every discard, from :func:`rumino.odds.optimal_policy.discard_advice`:
the optimal table when it is built, else computed directly for 2 draws with a note
saying the table is missing.

>>> c = HandExplorerController("rumino")
>>> c.set_text("2c 3c 4c 9d 9h 9s 7d"); c.report["deadwood"], c.report["can_knock"]
(7, True)
>>> c.set_text("2c 3c 11c"); c.error
"'11c' is not a card: the rank '11' is not one of A 2 3 4 5 6 7 8 9 10 J Q K."
"""

from __future__ import annotations

from html import escape

import ipywidgets as W
import numpy as np

from rumino.hand.arrange import Arrangement
from rumino.cards import deal, format_card, format_hand, from_counts, parse_hand, sort_cards, to_counts
from rumino.compare.hand_report import evaluate_cards
from rumino.errors import RuminoError
from rumino.odds.optimal_policy import discard_advice
from rumino.render.cards import arrangement_html, card_svg, hand_html
from rumino.variants import VARIANTS, find_variant

from rumino_widgets._cards import CardRow
from rumino_widgets._base import StaticFallback, error_html, facts_html, info_html, short_hint


class HandExplorerController:
    """State and actions of the HandExplorer, without any widget.

    ``report`` is the engine's dict (as ``rumino deadwood --json`` prints it),
    ``arrangement`` the best arrangement of the cards kept, ``error`` the engine's
    message when the text is not a valid hand (then ``report`` is ``None``).
    """

    def __init__(self, variant: str = "rumino", text: str = "", *, seed: int = 0, optimal_draws: int = 5,
                 optimal_goal: str = "knock"):
        self.optimal_draws, self.optimal_goal = optimal_draws, optimal_goal
        self._optimal: dict = {}
        self.variant = find_variant(variant)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.text = ""
        self.hand: tuple[int, ...] = ()
        self.report: dict | None = None
        self.arrangement: Arrangement | None = None
        self.error: str | None = None
        self.last_drawn: int | None = None
        self.set_text(text)

    # ------------------------------------------------------------------ actions

    def set_variant(self, name: str) -> None:
        """Switch variant and re-evaluate the same text under its rules."""
        try:
            self.variant = find_variant(name)
        except RuminoError as err:
            self.error = str(err)
            return
        self.set_text(self.text)

    def set_seed(self, seed: int) -> None:
        """Restart the random stream used by :meth:`deal` and :meth:`draw`."""
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)

    def set_text(self, text: str) -> None:
        """Evaluate ``text`` as a hand; an invalid one sets ``error`` to the engine's message."""
        self.text = text
        self.report = self.arrangement = None
        self.error = None
        self.last_drawn = None
        if not text.strip():
            self.hand = ()
            return
        self.hand = ()
        try:
            hand = parse_hand(text)
            self.hand = hand
            # one question, one path: the same call (and evaluator) as `rumino deadwood`
            self.report, self.arrangement = evaluate_cards(hand, self.variant.key)
        except RuminoError as err:
            self.error = str(err)

    @property
    def pack(self):
        rules = self.variant.meld_rules()
        return rules.pack if rules is not None else self.variant.pack

    def deal(self) -> None:
        """Deal a fresh hand of the variant's size from a shuffled pack (seeded)."""
        hands, _stock = deal(self.pack, [self.variant.hand_size], self.rng)
        self.set_text(format_hand(sort_cards(hands[0])))

    def unseen_counts(self) -> np.ndarray:
        """Count vector of the pack minus the hand: the cards a draw may bring."""
        return self.pack.counts() - to_counts(self.hand)

    def draw(self) -> None:
        """Add one random unseen card (a draw from the stock), then show the best discard.

        Only a valid hand of the normal size may draw; otherwise ``error`` says why.
        """
        if self.report is None:
            self.error = self.error or "type or deal a hand before drawing."
            return
        size = self.variant.hand_size
        if len(self.hand) != size:
            self.error = (f"a draw is taken from a {self.variant.title} hand of {size} cards; "
                          f"this hand has {len(self.hand)}: discard first.")
            return
        unseen = from_counts(self.unseen_counts())
        card = unseen[int(self.rng.integers(len(unseen)))]
        self.set_text(format_hand(self.hand + (card,)))
        self.last_drawn = card

    def discard(self, card: int | str) -> None:
        """Remove one copy of ``card`` from the hand (e.g. the best discard)."""
        c = parse_hand([card])[0]
        if c not in self.hand:
            self.error = f"{format_card(c)} is not in the hand {format_hand(self.hand)}."
            return
        kept = list(self.hand)
        kept.remove(c)
        self.set_text(format_hand(kept))

    def can_discard(self) -> bool:
        """May a card be clicked away: the hand is valid and one card fewer is still a hand of the variant."""
        return self.report is not None and len(self.hand) - 1 in self.variant.hand_sizes

    def discard_best(self) -> None:
        if self.report is None or "discards" not in self.report:
            self.error = "there is no discard to make: draw a card first."
            return
        self.discard(self.report["discards"][0])

    @property
    def optimal(self) -> dict | None:
        """The optimal discard of an 8-card Rumino hand (:func:`~rumino.odds.optimal_policy.discard_advice`),
        computed once per hand; None for other hands and variants."""
        if self.report is None or not self.variant.optimal_tables or len(self.hand) != self.variant.hand_size + 1:
            return None
        key = (self.hand, self.optimal_goal, self.optimal_draws)
        if key not in self._optimal:
            try:
                self._optimal[key] = discard_advice(self.hand, self.optimal_goal, self.optimal_draws)
            except RuminoError as err:  # a hand the tables do not cover: say so, never raise
                self._optimal[key] = {"error": str(err)}
        return self._optimal[key]

    def optimal_facts(self) -> list[tuple[str, str]]:
        """The optimal discard and the value of each discard, as label/value pairs."""
        a = self.optimal
        if a is None:
            return []
        if "error" in a:
            return [("optimal discard", short_hint(a["error"]))]
        src = "optimal table" if a["source"] == "table" else "computed directly, no table"
        what = f"P({a['goal']} within {a['draws']} draw{'s' if a['draws'] != 1 else ''})"
        out = [(f"optimal discard ({src})", _card(a["best_discard"]))]
        for r in a["discards"]:
            value = f"{what} {r['probability']:.1%}"
            if r.get("expected_draws") is not None:
                value += f" · expected draws {r['expected_draws']:.2f}"
            out.append((f"  throw {_card(r['card'])}", value))
        if a["note"]:  # what to do, in a player's words: no file path, no setting's name
            out.append(("note", short_hint(a["note"])))
        return out

    # ------------------------------------------------------------------ views

    def facts(self) -> list[tuple[str, str]]:
        """The report as label/value pairs, in the order a player reads them."""
        r = self.report
        if r is None:
            return []
        yes = {True: "yes", False: "no"}
        out = [("deadwood", str(r["deadwood"]))]
        if "discards" in r:
            out.append(("best discard", " or ".join(format_card(parse_hand([d])[0], unicode=True)
                                                     for d in r["discards"])))
        if "gin" in r:
            out.append(("gin", yes[r["gin"]]))
        if "rumino" in r:
            out.append(("rumino", yes[r["rumino"]]))
        if "can_knock" in r:
            out.append(("may knock", f"{yes[r['can_knock']]} (limit {r['knock_limit']})"))
        return out + self.optimal_facts()

    def html(self, *, with_hand: bool = True) -> str:
        """Everything the explorer shows, as static HTML (the live widget draws the hand itself)."""
        head = f'<div style="font:bold 14px sans-serif">{escape(self.variant.title)} hand explorer</div>'
        hand = (hand_html(self.hand, scale=0.7, caption="hand: " + format_hand(self.hand, unicode=True))
                if with_hand and self.hand else "")
        if self.error:
            return head + hand + error_html(self.error)
        if self.report is None:
            return head + info_html(f"Type a {self.variant.title} hand, e.g. 7h 8h 9h 10h 5c 5d 5s, or deal one.")
        parts = [head, hand]
        if "discards" in self.report:
            d = parse_hand(self.report["discards"][:1])[0]
            parts.append(f'<div class="rumino-discard" style="display:inline-block;vertical-align:top;margin-left:12px;'
                         f'font:13px sans-serif">best discard<br>{card_svg(d, scale=0.7)}</div>')
        parts.append(arrangement_html(self.arrangement, scale=0.7,
                                      title="best arrangement" + (" of the cards kept" if "discards" in self.report
                                                                  else "")))
        parts.append(facts_html(self.facts()))
        return "".join(parts)


def _card(text: str) -> str:
    return format_card(parse_hand([text])[0], unicode=True)


class HandExplorer(StaticFallback, W.VBox):
    """The live explorer: variant, hand text, Deal / Draw / Discard best, and the engine's answer.

    >>> w = HandExplorer(text="7h 8h 9h 10h 5c 5d 5s")
    >>> w.controller.report["gin"], "deadwood: <b>0</b>" in w.output.value
    (True, True)
    """

    def __init__(self, variant: str = "rumino", text: str = "", *, seed: int = 0):
        self.controller = HandExplorerController(variant, text, seed=seed)
        self.variant_box = W.Dropdown(options=[(v.title, k) for k, v in VARIANTS.items()],
                                      value=self.controller.variant.key, description="variant")
        self.text_box = W.Text(value=text, description="hand", continuous_update=False,
                               placeholder="e.g. 7h 8h 9h 10h 5c 5d 5s  (JK for a joker)",
                               layout=W.Layout(width="460px"))
        self.seed_box = W.IntText(value=seed, description="seed", layout=W.Layout(width="160px"))
        self.deal_button = W.Button(description="Deal", icon="random", tooltip="deal a random hand (seeded)")
        self.draw_button = W.Button(description="Draw a card", tooltip="add a random unseen card")
        self.discard_button = W.Button(description="Discard best", tooltip="remove the best discard")
        self.hand_row = CardRow(scale=0.8, title="hand (after a draw, click a card to discard it)")
        self.hand_row.on_click(lambda i: self._act(lambda: self.controller.discard(self.controller.hand[i])))
        self.output = W.HTML()
        self.output.add_class("rumino-hand-explorer-output")
        self.variant_box.observe(self._on_variant, names="value")
        self.text_box.observe(self._on_text, names="value")
        self.seed_box.observe(lambda ch: self.controller.set_seed(ch["new"]), names="value")
        self.deal_button.on_click(lambda _b: self._act(self.controller.deal))
        self.draw_button.on_click(lambda _b: self._act(self.controller.draw))
        self.discard_button.on_click(lambda _b: self._act(self.controller.discard_best))
        super().__init__([
            W.HBox([self.variant_box, self.seed_box]),
            self.text_box,
            W.HBox([self.deal_button, self.draw_button, self.discard_button]),
            self.hand_row,
            self.output,
        ])
        self.add_class("rumino-hand-explorer")
        self._refresh()

    def _on_variant(self, change):
        self.controller.set_variant(change["new"])
        self._refresh()

    def _on_text(self, change):
        if change["new"] != self.controller.text:
            self.controller.set_text(change["new"])
            self._refresh()

    def _act(self, action):
        action()
        self._refresh()

    def _refresh(self):
        c = self.controller
        if self.text_box.value != c.text:
            self.text_box.value = c.text
        c_report = c.report
        self.draw_button.disabled = c_report is None or len(c.hand) != c.variant.hand_size
        self.discard_button.disabled = c_report is None or "discards" not in c_report
        self.hand_row.cards = list(c.hand)
        self.hand_row.clickable = [c.can_discard()] * len(c.hand)
        self.output.value = c.html(with_hand=False)

    def static_html(self) -> str:
        return self.controller.html()
