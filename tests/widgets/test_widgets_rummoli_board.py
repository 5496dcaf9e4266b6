"""RummoliBoard driven in Python: chips in, the render_rummoli drawing and a chip table out."""

from __future__ import annotations

import re

from rumino.render.rummoli import SECTION_KEYS, board_svg
from rumino_widgets.rummoli_board import RummoliBoard, RummoliBoardController


def _drawn(svg: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r'data-section="([^"]+)" data-chips="(\d+)"', svg)}


def test_board_shows_every_section_with_its_chips():
    chips = {k: i for i, k in enumerate(SECTION_KEYS)}
    b = RummoliBoard(chips)
    assert _drawn(b.view.value) == chips
    assert b.view.value.count('class="rummoli-section"') == 9
    # the drawing is render_rummoli's, the table beside it sums the sheet
    assert board_svg(chips) in b.view.value
    assert f"<b>{sum(chips.values())}</b>" in b.view.value
    # pay cards drawn with their names (suits by shape and text, not colour alone)
    assert b.view.value.count("data-card=") == 5 + 2 + 3


def test_set_chips_and_highlight_update_the_view():
    b = RummoliBoard()
    assert _drawn(b.view.value) == dict.fromkeys(SECTION_KEYS, 0)
    b.set_chips({"rummoli": 7, "As": 2}, highlight="As")
    assert _drawn(b.view.value)["rummoli"] == 7 and b.controller.total == 9
    assert board_svg(b.controller.chips, highlight="As") in b.view.value


def test_bad_chips_show_the_engine_message_and_keep_the_board():
    c = RummoliBoardController({"poker": 3})
    c.set_chips({"poker": -1})
    assert c.error == "the 'poker' section holds -1 chips: a count is a whole number ≥ 0."
    assert c.chips["poker"] == 3 and "rumino-error" in c.html()
    c.set_chips({"poker": 1}, highlight="nowhere")
    assert "cannot highlight 'nowhere'" in c.error and c.chips["poker"] == 3
    c.set_chips([1] * 9)
    assert c.error is None and c.total == 9


def test_static_fallback_is_the_board():
    b = RummoliBoard({"Ad+Kd": 4})
    bundle = b._repr_mimebundle_()
    assert bundle["text/html"] == b.static_html() == b.controller.html()
    assert 'data-section="Ad+Kd" data-chips="4"' in bundle["text/html"]
