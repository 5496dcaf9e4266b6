"""The whole games of widgets/demos/whole_games.ipynb, played in Python through the tables' own controls.

A reader who follows the coach's move at a GameTable (the control it names: a button, a card, the
"more moves" list, the coach's table move) finishes each game in a few dozen moves, and the game ends
as the terminal transcript of the same deal ends (docs/transcripts/, typed by the same bot's choices):
same winner, same hands, same final numbers. The browser plays the same games in
test_browser_games.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rumino.cli.simulate import parse_rules, playable
from rumino_widgets import GameTable, RummoliTable
from rumino_widgets.whole_games import WHOLE_GAMES, chosen_game, games_html

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "transcripts"
TRANSCRIPT = {"rumino": "rumino", "gin": "gin", "knock-rummy": "knock", "wiener": "wiener", "romme": "romme",
              "robber": "robber"}
MOST_MOVES = 40  # "a few dozen" of the reader's moves


def follow_the_coach(table: GameTable) -> str:
    """Make the coach's move with the control the coach names, as a reader would; return the control."""
    c = table.controller
    move = c.coach_move()
    kind, value = c.control_for(move)
    if kind == "card":
        i = table.hand_row.cards.index(int(value))
        assert table.hand_row.clickable[i]
        table.hand_row.click(i)
    elif kind == "button":
        b = table.buttons.get(value) or table.extra_buttons[value]
        assert not b.disabled and b.layout.display is None
        assert b in table.extra_box.children or value in table.buttons
        b.click()
    elif kind == "menu":
        labels = [label for label, _a in table.moves_box.options]
        assert value in labels and table.menu_row.layout.display is None
        table.moves_box.value = table.moves_box.options[labels.index(value)][1]
        table.move_button.click()
    elif kind == "coach":
        table.suggest_button.click()
    else:
        table.play_box.value = value
        table.play_text_button.click()
    assert c.error is None, c.error
    return kind if kind != "button" else f"button {value}"


def kind_of(unit: str) -> str:
    """What a line of final numbers counts: ``"final totals with the game bonus …"`` -> ``"totals"``."""
    return next(k for k in ("totals", "points", "scores", "penalties") if k in unit)


def transcript_end(name: str) -> tuple[dict[str, dict[int, int]], int, list[int]]:
    """The final numbers of a terminal transcript (what they count -> each seat's number), its number of
    hands, and its winners."""
    lines = (TRANSCRIPTS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    finals = {}
    for line in lines[-4:]:
        if line.startswith(("  final ", "  penalties left in hand")):
            unit, rest = line.strip().split(": ", 1)
            finals[kind_of(unit)] = {int(p): int(v) for p, v in re.findall(r"P(\d) \([^)]*\) (-?\d+)", rest)}
    head = next(line for line in reversed(lines) if line.startswith("Game over after "))  # the winner's line
    hands = re.search(r"after (\d+) hands?", head)
    winners = [int(p) for p in re.findall(r"P(\d) \([^)]*\)", head.split(": ", 1)[1].split(" w")[0])]
    return finals, int(hands.group(1)) if hands else 1, winners


@pytest.mark.parametrize("key", list(TRANSCRIPT))
def test_each_whole_game_is_the_deal_of_its_terminal_transcript(key):
    """Same variant, players and seed as the transcript's command, and the same rules (a rule typed there
    at its default value is no house rule)."""
    game = WHOLE_GAMES[key]
    head = (TRANSCRIPTS / f"{TRANSCRIPT[key]}.txt").read_text(encoding="utf-8").splitlines()[0]
    command, _, typed = head.partition(" --rules ")
    assert command == "# " + game.command().partition(" --rules ")[0]
    assert parse_rules(playable(key), typed.split()) == (game.rules_object() or game.variant.rules)


@pytest.mark.parametrize("key", list(TRANSCRIPT))
def test_following_the_coach_ends_the_game_as_the_terminal_transcript(key):
    game = WHOLE_GAMES[key]
    table = game.table(coach_samples=20)
    c = table.controller
    used, moves = set(), 0
    while not c.game.game_over:
        assert moves < MOST_MOVES, f"{key}: {moves} moves and the game goes on"
        used.add(follow_the_coach(table))
        moves += 1
    finals, hands, winners = transcript_end(TRANSCRIPT[key])
    # the same end as the terminal's: winners, hands, every final number
    assert list(c.game.result.winners) == winners and len(c.game.results) == hands
    lines = c.game_over_lines()
    assert lines[0].startswith(f"Game over after {hands} hand")
    shown = {kind_of(line.split(":")[0]): line for line in lines[1:]}
    numbers = c.final_scores()
    assert finals and set(finals) == set(shown) == set(numbers)
    for kind, values in finals.items():
        assert dict(enumerate(numbers[kind])) == values, (kind, numbers)
        assert shown[kind].endswith(" · ".join(f"{'you' if s == 0 else f'seat {s}'} {v}" for s, v in sorted(values.items())))
    # the units of the game, the table's state mark, nothing left to press
    assert {"rumino": "pool, $", "wiener": "pot, 10 chips", "gin": "first to 50 points", "knock-rummy": "points",
            "romme": "best total", "robber": "gone out"}[key] in lines[0]
    assert "rumino-game-over" in table.message.value and 'data-over="1"' in table.state.value
    assert "button stock" in used
    assert all(b.layout.display == "none" for b in table.buttons.values())


def test_gin_and_wiener_need_the_new_controls_to_finish():
    """Gin's pass on the upcard and the knocks with a card have no button of the game's: without the
    extra button and the "more moves" list a reader could not finish these games."""
    for key, want in (("gin", {"button pass", "menu"}), ("wiener", {"menu"}), ("knock-rummy", {"menu"})):
        table = WHOLE_GAMES[key].table(coach_samples=20)
        used = set()
        while not table.controller.game.game_over:
            used.add(follow_the_coach(table))
        assert want <= used, (key, used)


def test_rummoli_first_card_or_first_button_finishes_in_a_few_dozen_clicks():
    t = WHOLE_GAMES["rummoli"].table()
    assert isinstance(t, RummoliTable)
    c, clicks = t.controller, 0
    while not c.game.game_over:
        live = [i for i, ok in enumerate(t.hand_row.clickable) if ok]
        if live:
            t.hand_row.click(live[0])
        else:
            next(b for b in t.buttons.values() if not b.disabled).click()
        assert c.error is None, c.error
        clicks += 1
    assert clicks <= MOST_MOVES
    lines = c.game_over_lines()
    chips = c.game.result.chips
    assert lines[0].startswith(f"Game over after {len(c.game.results)} deals") and f"chips, {max(chips)}" in lines[0]
    assert lines[1] == "final chips: " + " · ".join(
        f"{'you' if s == 0 else f'seat {s}'} {n}" for s, n in enumerate(chips))
    assert c.final_scores() == {"chips": list(chips)} and sum(chips) == 3 * c.rules.initial_chips


def test_the_page_chooses_the_game_from_its_address():
    assert chosen_game("game=wiener") is WHOLE_GAMES["wiener"] and chosen_game(None).key == "rumino"
    with pytest.raises(KeyError, match="choose one of rumino, rummoli"):
        chosen_game("game=canasta")
    html = games_html("gin")
    assert html.count("<tr>") == 1 + len(WHOLE_GAMES) and "<b>Gin Rummy</b> (this page)" in html
    assert 'href="?game=robber"' in html and "game to: 50" in html  # the house rule in words
