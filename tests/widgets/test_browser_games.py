"""Every game played to its end in Chromium: Voilà serves widgets/demos/whole_games.ipynb?game=…

One Voilà server for the module; each game opens its own page (its own kernel). The reader's seat is
played as a person would play it, by reading the page and clicking the table's own controls:

* at a GameTable (Rumino, Gin, American Knock, Wiener, Rommé, Robber), the coach's move, with the
  control the coach names: a button, a card in the hand, a move chosen in "more moves" and played,
  or the coach's table move button;
* at the RummoliTable, the first card that may be played, else the first button shown.

Beside the page, the same game is played in Python (the same seed, rules and choices): before each
click the page must show that game (the actions so far, the opponents' card counts, the coach's move),
after a draw from the stock the page must say "you drew" the card the engine dealt, and at the end the
game-over line and the table's state mark must give the engine's winners and final numbers, in the
game's own units, with no traceback or error text anywhere on the page. A screenshot of a page that
failed is kept in test-artifacts/ (test_a_whole_game_in_the_browser[gin].png, …); RUMINO_SCREENSHOTS=all
keeps every page's, to look at them.
"""

from __future__ import annotations

import json
import re

import pytest

from rumino.cards import format_card
from rumino_widgets import GameTableController, RummoliTableController
from rumino_widgets.rummoli_table import RummoliTable
from rumino_widgets.whole_games import WHOLE_GAMES
from voila_pages import browser, open_demo, wait_until  # noqa: F401 (fixtures; voila_url: tests/conftest.py)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]  # above the page waits (120 s a step), as test_browser_widgets

MOST_MOVES = 60  # the demo's games take 16 to 30 of the reader's moves
UNITS = {"rumino": r"the pool, \$\d+", "gin": r"first to 50 points", "knock-rummy": r"\d+ points",
         "wiener": r"the pot, \d+ chips", "romme": r"the best total", "robber": r"gone out|lowest penalty",
         "rummoli": r"the most chips, \d+", "oklahoma": r"first to 50 points"}

# what the page shows now, read in one call: the state mark, the coach's move, the message, the seats, the errors
READ = """(scope) => {
  const root = document.querySelector(scope);
  const q = (s) => root.querySelector(s);
  const state = q('.rumino-table-state');
  const next = q('.rumino-coach-next');
  const counts = {};
  root.querySelectorAll('.rumino-seat').forEach((e) => {
    const n = e.querySelector('.rumino-seat-cards');
    if (n) counts[e.dataset.seat] = n.innerText;
  });
  root.querySelectorAll('.rumino-rummoli-players tbody tr').forEach((tr, i) => {
    counts[i] = tr.children[2].innerText;
  });
  const cards = [...root.querySelectorAll('.rumino-your-hand .rumino-card-button:not([disabled])')]
    .map((e) => +e.dataset.card);
  const buttons = [...root.querySelectorAll('button')]  // the buttons shown, in the page's order
    .filter((b) => b.offsetParent !== null && !b.disabled)
    .map((b) => [...b.classList].find((c) => c.startsWith('rumino-btn-'))).filter((c) => !!c);
  const errors = [...root.querySelectorAll('.rumino-error')].map((e) => e.innerText);
  return {state: state ? {...state.dataset} : null, next: next ? {...next.dataset} : null,
          message: (q('.rumino-message') || {}).innerText || '', counts, cards, buttons, errors};
}"""


def _read(page, scope: str) -> dict:
    return page.evaluate(READ, scope)


def _wait_refresh(page, scope: str, before: int) -> None:
    """Wait for the kernel's answer to a click: the state mark is written last by every refresh."""
    wait_until(page, "([sel, n]) => { const e = document.querySelector(sel); return !!e && +e.dataset.refresh > n; }",
               [f"{scope} .rumino-table-state", before])


def _after_refresh(page, scope: str, before: dict) -> dict:
    """After a click: wait for the kernel's answer, read the page, and check that it shows no error."""
    _wait_refresh(page, scope, int(before["state"]["refresh"]))
    now = _read(page, scope)
    assert not now["errors"], now["errors"]
    return now


def _click_coach_move(page, scope: str, control: str, value: str) -> None:
    """Make the coach's move with the control it names, as a person would."""
    if control == "card":
        page.click(f"{scope} .rumino-your-hand .rumino-card-button[data-card='{value}']:not([disabled]) >> nth=0")
    elif control == "button":
        page.click(f"{scope} button.rumino-btn-{value}")
    elif control == "menu":
        page.select_option(f"{scope} .rumino-moves select", label=value)
        page.click(f"{scope} button.rumino-btn-move")
    elif control == "coach":
        page.click(f"{scope} button.rumino-btn-suggestion")
    else:
        page.fill(f"{scope} .rumino-play-text input", value)
        page.click(f"{scope} button.rumino-btn-play-text")


def _check_no_error(page) -> None:
    body = page.inner_text("body")
    assert "Traceback" not in body and not re.search(r"\b[A-Z]\w*Error\b", body), body[-2000:]
    assert page.locator(".rumino-error").count() == 0, page.inner_text(".rumino-error")


def _cards_in_hand(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''} in hand"


def _play_game_table(page, key: str) -> tuple[object, dict]:
    game = WHOLE_GAMES[key]
    scope = f".rumino-game-table-{key}"
    ref = GameTableController(game.bots, seed=game.seed, rules=game.rules_object(), variant=key)
    seen = {"drew": 0, "counts": 0, "controls": set()}
    now = _read(page, scope)
    for _ in range(MOST_MOVES):
        if now["state"]["over"] == "1":
            break
        # the page shows the game the engine plays: the same actions so far, cards in the others' hands
        assert int(now["state"]["actions"]) == len(ref.game.history)
        sizes = ref.view().hand_sizes
        assert now["counts"] == {str(s): _cards_in_hand(sizes[s]) for s in range(len(sizes)) if s != ref.human}
        seen["counts"] += 1
        move = ref.coach_move()
        assert now["next"]["action"] == str(move), now["next"]
        control, value = now["next"]["control"], now["next"]["value"]
        seen["controls"].add(control if control != "button" else value)
        _click_coach_move(page, scope, control, value)
        assert ref.act(move), ref.error
        now = _after_refresh(page, scope, now)
        if str(move) == "draw stock" and not ref.game.game_over:  # the card from the stock, told its holder
            drawn = format_card(ref.last_drawn, unicode=True)
            assert f"you drew {drawn}" in now["message"], now["message"]
            seen["drew"] += 1
    return ref, seen


def _play_rummoli(page) -> tuple[object, dict]:
    game = WHOLE_GAMES["rummoli"]
    scope = ".rumino-rummoli-table"
    ref = RummoliTableController(game.bots, seed=game.seed, rules=game.rules_object())
    seen = {"drew": None, "counts": 0, "controls": set()}
    now = _read(page, scope)
    for _ in range(MOST_MOVES):
        if now["state"]["over"] == "1":
            break
        assert int(now["state"]["actions"]) == len(ref.game.history)
        v = ref.view()
        assert now["counts"] == {str(s): str(n) for s, n in enumerate(v.hand_sizes)}  # the players' table
        seen["counts"] += 1
        playable = {a.card for a in ref.legal() if a.word == "play"}
        assert now["cards"] == [c for c in ref.sorted_hand() if c in playable]  # only the legal plays live
        if now["cards"]:  # the first card that may be played
            card = now["cards"][0]
            page.click(f"{scope} .rumino-your-hand .rumino-card-button[data-card='{card}']:not([disabled]) >> nth=0")
            assert ref.play_card(card), ref.error
            seen["controls"].add("card")
        else:  # else the first button shown
            first = now["buttons"][0]
            page.click(f"{scope} button.{first}")
            words = {str(a) if a.word == "keep" else a.word for a in ref.legal()}
            word = next(w for w in RummoliTable.BUTTONS if w in words)  # the same choice, in Python
            assert first == f"rumino-btn-{word.replace(' ', '-')}", (now["buttons"], words)
            assert ref.act_text(word), ref.error
            seen["controls"].add(word)
        now = _after_refresh(page, scope, now)
    return ref, seen


@pytest.mark.parametrize("key", list(WHOLE_GAMES))
def test_a_whole_game_in_the_browser(open_demo, key):
    scope = ".rumino-rummoli-table" if key == "rummoli" else f".rumino-game-table-{key}"
    page = open_demo("whole_games", f"{scope} .rumino-your-hand svg", query=f"?game={key}")
    failures = []  # what the page's own scripts throw (a widget that fails to render, a broken message)
    page.on("pageerror", lambda err: failures.append(str(err)))
    assert f"{WHOLE_GAMES[key].variant.title}</b> (this page)" in page.inner_html(".rumino-whole-games")
    ref, seen = _play_rummoli(page) if key == "rummoli" else _play_game_table(page, key)
    assert ref.game.game_over, f"{key}: not over after {MOST_MOVES} moves"
    # the end, as a player sees it: the winner and the final numbers in the game's units
    over = page.inner_text(f"{scope} .rumino-game-over")
    assert over.splitlines() == ref.game_over_lines()
    assert re.search(UNITS[key], over.splitlines()[0]), over
    winners = [("you" if w == ref.human else f"seat {w}")
               for w in ref.game.result.winners]
    assert over.startswith("Game over after") and all(w in over.splitlines()[0] for w in winners)
    # the table's state mark says what the engine says
    state = _read(page, scope)["state"]
    assert state["over"] == "1" and json.loads(state["winners"]) == list(ref.game.result.winners)
    assert json.loads(state["scores"]) == ref.final_scores() and ref.final_scores()
    assert int(state["actions"]) == len(ref.game.history)
    # during play: the others' card counts, each draw from the stock told ("you drew …")
    assert seen["counts"] >= 10
    assert key == "rummoli" or seen["drew"] >= 3
    _check_no_error(page)
    assert not failures, failures
