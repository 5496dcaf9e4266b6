"""Whole games at a table: one seeded game of each playable variant, short enough to play to its end.

Each :class:`WholeGame` is a deal (seed), the bots and the house rules that bring a whole *game* (not
one hand) to its end in a few dozen of the reader's moves, with the reason for each shortened rule.
The seeds and rules are those of the terminal transcripts (``docs/transcripts/``, ``rumino play``), so a
reader who follows the coach's move at the table plays the same game the transcript types (Rummoli's
table follows no coach: its seed is one whose game takes about 30 clicks of the first card allowed).
The demo ``widgets/demos/whole_games.ipynb`` shows the one its URL asks for (``?game=gin``).

>>> sorted(WHOLE_GAMES)
['gin', 'knock-rummy', 'oklahoma', 'robber', 'romme', 'rumino', 'rummoli', 'wiener']
>>> WHOLE_GAMES["gin"].rules_object().game_to
50
>>> WHOLE_GAMES["gin"].command()
'rumino play --variant gin --players human,greedy --seed 2 --rules game_to=50'
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qs

from rumino.compare.matrix import house_rule_words
from rumino.variants import VARIANTS, find_variant


@dataclass(frozen=True)
class WholeGame:
    """One game to play through: the variant, the bots, the seed, the house rules and why they were chosen."""

    key: str
    bots: str
    seed: int
    rules: tuple[tuple[str, object], ...] = ()
    why: str = ""

    @property
    def variant(self):
        return find_variant(self.key)

    def rules_object(self):
        """The rules of this game: the variant's defaults with the house rules (None: the defaults)."""
        return self.variant.with_rules(**dict(self.rules)) if self.rules else None

    def rules_words(self) -> str:
        """The house rules as the table names them, or "the default rules"."""
        return "; ".join(house_rule_words(self.variant, k, v) for k, v in self.rules) or "the default rules"

    def command(self) -> str:
        """The same game in the terminal."""
        players = ",".join(["human", *self.bots.split(",")])
        rules = " --rules " + " ".join(f"{k}={v}" for k, v in self.rules) if self.rules else ""
        return f"rumino play --variant {self.key} --players {players} --seed {self.seed}{rules}"

    def table(self, coach_samples: int = 100):
        """The live table of this game, the one its kind of play needs (``Variant.narration``): a
        :class:`~widgets.rummoli_table.RummoliTable` for the stops (Rummoli), else a
        :class:`~widgets.game_table.GameTable` (its coach's Monte Carlo kept small: every move redraws it)."""
        from rumino_widgets.game_table import GameTable
        from rumino_widgets.rummoli_table import RummoliTable

        if self.variant.narration == "stops":
            return RummoliTable(self.bots, seed=self.seed, rules=self.rules_object())
        return GameTable(self.bots, seed=self.seed, rules=self.rules_object(), variant=self.key, coach_draws=3,
                         coach_samples=coach_samples)


WHOLE_GAMES: dict[str, WholeGame] = {
    k: WholeGame(k, v.whole_game.bots, v.whole_game.seed, v.whole_game.rules, v.whole_game.why)
    for k, v in VARIANTS.items() if v.whole_game is not None}
"""The whole game of every game whose row names one (``Variant.whole_game``), by the game's key."""


def chosen_game(query: str | None, default: str = "rumino") -> WholeGame:
    """The game a page's query string asks for (``game=gin``), else ``default``; an unknown name is refused
    with the names there are.

    >>> chosen_game("game=knock-rummy").key, chosen_game("").key
    ('knock-rummy', 'rumino')
    """
    key = (parse_qs(query or "").get("game") or [default])[0]
    if key not in WHOLE_GAMES:
        raise KeyError(f"no whole game {key!r}: choose one of {', '.join(WHOLE_GAMES)}")
    return WHOLE_GAMES[key]


def games_html(current: str | None = None) -> str:
    """Every game, its house rules and why, the one shown now in bold, the others linked."""
    cell = "border:1px solid #c8c8c8;padding:3px 8px;text-align:left;vertical-align:top"
    head = "".join(f'<th scope="col" style="{cell};background:#eef1f5">{h}</th>'
                   for h in ("game", "house rules", "why", "the same game in the terminal"))
    rows = []
    for g in WHOLE_GAMES.values():
        name = escape(g.variant.title)
        name = f"<b>{name}</b> (this page)" if g.key == current else f'<a href="?game={g.key}">{name}</a>'
        cells = [name, escape(g.rules_words()), escape(g.why), f"<code>{escape(g.command())}</code>"]
        rows.append("<tr>" + "".join(f'<td style="{cell}">{c}</td>' for c in cells) + "</tr>")
    return (f'<table class="rumino-whole-games" style="border-collapse:collapse;font:13px sans-serif;margin:6px 0">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
