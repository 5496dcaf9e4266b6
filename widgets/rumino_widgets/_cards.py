"""CardRow: a row of card faces (from rumino.render.cards) that can be clicked.

The faces are SVG strings drawn in the kernel by :func:`rumino.render.cards.card_svg`,
so the live row and the static book show the same cards. A click in the
browser sends ``{"event": "click", "index": i}`` to the kernel; Python code
(and the tests) can call :meth:`CardRow.click` to do the same thing.

>>> row = CardRow(cards=[45, 46], clickable=[True, False])
>>> seen = []; row.on_click(seen.append); row.click(0); row.click(1); seen
[0]
"""

from __future__ import annotations

from typing import Callable

import anywidget
import traitlets

from rumino.render.cards import card_name, card_svg, hand_html

from rumino_widgets._base import StaticFallback

_ESM = r"""
function render({ model, el }) {
  el.classList.add("rumino-cardrow");
  function draw() {
    el.innerHTML = "";
    const faces = model.get("faces");
    const cards = model.get("cards");
    const clickable = model.get("clickable");
    const names = model.get("names");
    const title = model.get("title");
    if (title) {
      const t = document.createElement("div");
      t.className = "rumino-cardrow-title";
      t.textContent = title;
      t.style.cssText = "font:13px sans-serif;color:#333;margin:2px 0";
      el.appendChild(t);
    }
    const row = document.createElement("div");
    row.style.cssText = "display:flex;flex-wrap:wrap;gap:4px;align-items:flex-end";
    // when some cards may be played now, the others are dimmed and say so to assistive technology
    const someLive = clickable.some((x) => !!x);
    faces.forEach((svg, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rumino-card-button";
      b.innerHTML = svg;
      b.dataset.index = String(i);
      b.dataset.card = String(cards[i]);
      const live = !!clickable[i];
      const barred = someLive && !live;
      b.setAttribute("aria-label", (names[i] || "") + (barred ? ", cannot be played now" : ""));
      b.disabled = !live;
      if (barred) b.classList.add("rumino-card-barred");
      b.style.cssText = "border:none;background:none;padding:0;margin:0;line-height:0;" +
        (live ? "cursor:pointer" : "cursor:default") + (barred ? ";opacity:0.35;filter:grayscale(0.6)" : "");
      if (live) {
        b.addEventListener("click", () => model.send({ event: "click", index: i }));
      }
      row.appendChild(b);
    });
    if (!faces.length) {
      const e = document.createElement("span");
      e.textContent = model.get("empty_text");
      e.style.cssText = "font:13px sans-serif;color:#777";
      row.appendChild(e);
    }
    el.appendChild(row);
  }
  model.on("change:faces", draw);
  model.on("change:clickable", draw);
  model.on("change:title", draw);
  draw();
}
export default { render };
"""


class CardRow(StaticFallback, anywidget.AnyWidget):
    """A row of clickable card faces. Set ``cards``, ``selected`` (positions) and ``clickable``."""

    _esm = _ESM
    cards = traitlets.List(traitlets.Int()).tag(sync=True)
    selected = traitlets.List(traitlets.Int(), default_value=[])  # positions, kernel side only
    clickable = traitlets.List(traitlets.Bool()).tag(sync=True)
    faces = traitlets.List(traitlets.Unicode()).tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    empty_text = traitlets.Unicode("(no cards)").tag(sync=True)
    scale = traitlets.Float(1.0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._handlers: list[Callable[[int], None]] = []
        self.on_msg(self._on_frontend_msg)
        self.observe(self._redraw, names=["cards", "selected", "scale"])
        self._redraw()

    def _redraw(self, _change=None):
        sel = set(self.selected)
        self.faces = [card_svg(c, scale=self.scale, selected=i in sel) for i, c in enumerate(self.cards)]
        self.names = [card_name(c) for c in self.cards]
        if len(self.clickable) != len(self.cards):
            self.clickable = [False] * len(self.cards)

    def on_click(self, handler: Callable[[int], None]) -> None:
        """Call ``handler(position)`` when a clickable card is clicked."""
        self._handlers.append(handler)

    def click(self, index: int) -> None:
        """What a click on the card at ``index`` does (ignored if that card is not clickable)."""
        if 0 <= index < len(self.cards) and self.clickable[index]:
            for h in self._handlers:
                h(index)

    def _on_frontend_msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "click":
            self.click(int(content.get("index", -1)))

    def static_html(self) -> str:
        return hand_html(self.cards, scale=self.scale, selected=self.selected,
                         caption=self.title or None)
