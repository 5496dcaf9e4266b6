"""Rummoli's words at the terminal (rules §2): its commands, the widow and the auction, the poker, the stops,
a forced card asked for with Enter, and the end of a deal."""

from __future__ import annotations

from typing import Any, ClassVar, Iterable, Sequence

from rumino.cards import parse_card
from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import DrawNarrator, card_symbols, card_words, cards_words, plural
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.hand.poker import describe as describe_poker
from rumino.variants.rummoli.game import RED, next_up


def chips_words(n: int) -> str:
    """``n`` chips as the table is told them (``1 chip``, ``3 chips``)."""
    return plural(n, "chip")


class RummoliNarrator(DrawNarrator):
    """What the table sees in Rummoli (rules §2): the widow and the dead hand stay hidden; the
    auction is told in one line; the human sees his hand and the poker result when the stops begin,
    and is asked before a forced card is played for him (or not, after ``auto``)."""

    SAY = {
        "swap": lambda who, g, a, top: f"{who} swaps his hand for the widow, unseen",
        "keep": lambda who, g, a, top: f"{who} keeps his hand" + ("" if a.sell else ", the widow unsold"),
        "bid": lambda who, g, a, top: f"{who} bids {a.amount}" if g.rules.widow_auction == "open" else
        f"{who} makes a sealed bid",
        "pass": lambda who, g, a, top: f"{who} passes",
        "play": lambda who, g, a, top: f"{who} plays {card_words(a.card)}",
        **{w: (lambda who, g, a, top: f"{who} {a.word}s") for w in ("check", "call", "fold")},
        **{w: (lambda who, g, a, top: f"{who} {a.word}s {g.rules.bet_size}") for w in ("bet", "raise")},
        "claim": lambda who, g, a, top: "{} claims the {} section: {} chips".format(who, g.won[-1][0], g.won[-1][2]),
        "forgo": lambda who, g, a, top: f"{who} does not claim: the chips stay on the sheet",
        "deal": lambda who, g, a, top: f"{who} deals the cards (deal {g.hand_number})",
    }

    HELP: ClassVar[tuple[str, ...]] = (
        "swap / keep    the dealer: take the widow unseen, or keep his hand and auction it",
        "keep unsold    the dealer keeps his hand and sells nothing",
        "b 3 / bid 3    bid 3 chips for the widow (p / pass: no bid)",
        "check, bet, call, raise, fold   the poker round (with poker_method=betting)",
        "7h             play 7h in the stops (a forced card: Enter plays it)",
        "auto           play forced cards for you from now on",
        "claim / forgo  take a section's chips, or leave them (with manual_claims)",
        "deal           deal the next deal")

    YOU_NOW: ClassVar[dict[str, str]] = {
        **DrawNarrator.YOU_NOW, "widow": "The dealer is deciding about the widow",
        "auction": "The widow is being auctioned", "betting": "This is the poker round",
        "stops": "This is the stops", "claim": "A pay card was played: its section may be claimed"}
    """Where a deal is, to the player whose move the moment forbids (rules §2.3–§2.5)."""

    def __init__(self, game: Any, names: Sequence[str], humans: Iterable[int] = ()):
        super().__init__(game, names, humans)
        self.bids: list[str] = []  # the auction so far, told in one line
        self.last_forced = None  # (seat, action): the forced card last offered to a human

    def describe(self, view: PlayerView) -> str:
        lines = view.describe(unicode=True).split("\n")
        if len(lines) > 1:
            lines[1] = lines[1].replace(f"P{view.seat}*=", f"P{view.seat} (you)=")
        for k, line in enumerate(lines):
            if line.startswith("widow auction: high bid") and view.high_bidder is None:
                lines[k] = "widow auction: no bid yet"
            if line.startswith("widow auction:"):
                lines[k] += (f" (the widow: {view.widow_size} cards, unseen; the buyer pays the dealer and takes "
                             f"it in place of his hand, rules §2.3)")
        sizes = [f"{self.names[p].split()[0]} {n}" for p, n in enumerate(view.hand_sizes)
                 if p != view.seat and view.in_hand[p]]
        if sizes and view.phase not in ("between_deals", "game_over"):
            lines.insert(3, "cards in hand: " + " · ".join(sizes))
        return "\n".join(lines)

    def translate(self, line: str, view: PlayerView) -> Action | None:
        parts = line.lower().split()
        words = view.action_set.by_word
        if len(parts) == 1 and parts[0] not in words and not parts[0].isdigit() and parts[0] not in ("b", "p"):
            try:
                parse_card(parts[0])
            except InvalidCardError:
                raise IllegalActionError(f"{line.strip()!r} is not understood: type ? for this game's "
                                         f"commands.") from None
        return super().translate(line, view)

    def before(self, g: Any, seat: int, action: Action) -> None:
        self.hands, self.phase = len(g.results), g.phase
        self.held = None

    def forced(self, view: PlayerView) -> Action | None:
        legal = view.legal_actions
        forced = legal[0] if view.phase == "stops" and len(legal) == 1 else None  # a forced card (§2.5.2)
        self.last_forced = (view.seat, forced)
        return forced

    def pending(self) -> list[str]:
        if not self.bids:
            return []
        line, self.bids = "widow auction: " + " · ".join(self.bids), []
        return [line]

    def say(self, g: Any, seat: int, action: Action) -> str:
        line = super().say(g, seat, action)
        forced = action.word == "play" and self.last_forced == (seat, action)
        return line + (" (forced)" if forced else "")

    def after(self, g: Any, seat: int, action: Action) -> list[str]:
        lines = []
        if self.phase == "auction" and action.word in ("bid", "pass"):
            who = self.names[seat].split(" (")[0]  # 'P1 (greedy)' as P1; a widget's 'seat 1' whole
            self.bids.append(f"{who} {'bids ' + str(action.amount) if action.word == 'bid' else 'passes'}"
                             if g.rules.widow_auction == "open" or action.word == "pass" else f"{who} bids (sealed)")
            if g.phase == "auction":
                return []
            lines += self.pending()
            if g.widow_how == "auction" and g.widow_to is not None:
                lines.append(f"  {self.names[g.widow_to]} buys the widow for {chips_words(g.high_bid)}, paid to the "
                             f"dealer, and takes it in place of his hand (set aside, dead)")
            else:
                lines.append("  nobody buys the widow: it stays out as the dead hand")
        else:
            lines.append(self.say(g, seat, action))
        if self.phase in ("widow", "auction", "betting") and g.phase == "stops" and g.poker_winners:
            lines += self.stops_begin(g)
        elif action.word in ("play", "claim", "forgo") and g.phase == "stops" and g.need is None and g.played:
            lines.append(self.colour_change(g))
        if len(g.results) > self.hands:
            lines += self.hand_end(g)
        return lines

    @staticmethod
    def colour_words(red: bool | None) -> str:
        return "red (♦ ♥)" if red else "black (♠ ♣)"

    def colour_change(self, g: Any) -> str:
        """Why the run stopped and who leads next, in one line (rules §2.5.3, §2.5.4): the ace closed the
        suit, or the next card is out of play (in the dead hand, or played in an earlier run); the player
        who played last leads his lowest card of the other colour, or the duty passes left to the first
        who holds one (or, under the house rule, any colour)."""
        last_seat, last = g.played[-1]
        nxt = next_up(last)
        if nxt is None:
            why = f"{card_words(last)} closes the suit"
        elif any(c == nxt for _, c in g.played):
            why = f"{card_words(nxt)} was played earlier, so the run stops"
        else:
            why = f"nobody holds {card_words(nxt)} (it is in the dead hand), so the run stops"
        leader, names = g.turn, self.names
        you = leader in self.humans
        leads = f"{names[leader]} " + ("lead your" if you else "leads his")  # "P0 (you) lead your lowest …"
        if g.lead_colour is None:
            lead = (f"nobody holds a {self.colour_words(not RED[last])} card, so {leads} lowest card of any colour")
        elif leader == last_seat:
            lead = f"the colour changes: {leads} lowest {self.colour_words(g.lead_colour)} card"
        else:
            col = self.colour_words(g.lead_colour)
            lead = (f"the colour changes, and {names[last_seat]} holds no {col} card: the lead passes left to "
                    f"{names[leader]}" + (f": you lead your lowest {col} card" if you else
                                          f", who leads his lowest {col} card"))
        return f"  {why}; {lead} (rules §2.5.4)"

    def stops_begin(self, g: Any) -> list[str]:
        """The poker result and, for the human, his hand, before any card of the stops is played."""
        names, lines = self.names, []
        for p in g.hand_players:  # rules §2.4: the fives are shown face up, for every player to see
            if g.poker_shown[p] is not None:
                lines.append(f"showdown: {names[p]} shows {' '.join(map(card_words, g.poker_shown[p]))} "
                             f"({describe_poker(g.poker_values[p])})")
        for p in g.poker_winners:
            value = g.poker_values[p]
            hand = "" if value is None else f" with {describe_poker(value)}"
            lines.append(f"poker: {names[p]} wins the pot{hand}, {g.poker_won} chips")
        for p in sorted(self.humans):
            if g.in_hand[p] and g.hands[p]:
                lines.append(f"your hand for the stops ({names[p]}): {cards_words(g.hands[p])}")
        lines.append(f"the stops begin: {names[g.turn]} leads")
        return lines

    def opening(self, seed: int) -> list[str]:
        game, names = self.game, self.names
        cut = ", ".join(f"{names[p]} {card_words(c)}" for p, c in game.first_dealer_draws[-1]) \
            if game.first_dealer_draws else ""
        return [f"{game.NAME}, {len(names)} players, {game.rules.initial_chips} chips each, {game.deals_total} deals, "
                f"seed {seed}." + (f" The cut: {cut}." if cut else ""),
                f"{names[game.dealer]} deals the cards (deal 1); everyone antes one chip on each of the nine sections. "
                f"(Type ? at the prompt for the commands.)"]

    def hand_end(self, g: Any) -> list[str]:
        """The end of a deal: the widow, the poker pot, the sections won, how it ended, the chips."""
        r, names = g.results[-1], self.names
        lines = [f"— {card_symbols(r.describe().replace('player ', 'P'))} —"]
        if r.widow_how == "auction":
            lines.append(f"  the widow went to {names[r.widow_to]} for {chips_words(r.bid)}")
        elif r.widow_how == "swap":
            lines.append(f"  the dealer {names[r.widow_to]} took the widow")
        for p in r.poker_winners:
            hand = "" if r.poker_values[p] is None else f" with {describe_poker(r.poker_values[p])}"
            lines.append(f"  poker pot: {names[p]}{hand}, {r.poker_won} chips")
        for section, p, chips in r.won:
            if section != "poker":
                lines.append(f"  {section}: {names[p]} takes {chips} chips")
        if r.out is not None:  # someone went out (the ending "rummoli"); else a deadlock
            lines.append(f"  {names[r.out]} receives {r.payments[r.out]} chips for the cards left in hand")
        else:
            lines.append(f"  deadlock: {sum(r.deadlock)} chips go onto the Rummoli section")
        lines.append("  chips: " + "  ".join(f"{names[p]} {c}" for p, c in enumerate(r.chips)))
        return lines


__all__ = ["RummoliNarrator"]
