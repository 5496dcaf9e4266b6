"""Shared pieces of the widgets: the static HTML fallback and message boxes.

Every widget is an ipywidgets container with a ``controller`` (plain Python,
testable without a browser) and a ``static_html()`` method. Its MIME bundle
carries that HTML as ``text/html`` beside the live widget view, so a page read
without a kernel (a static book, GitHub) still shows the cards and numbers.

>>> "rumino-error" in error_html("bad card")
True
"""

from __future__ import annotations

from html import escape

ERROR_STYLE = ("font:13px sans-serif;color:#8a1111;background:#fdecec;border:1px solid #e0a0a0;"
               "border-radius:4px;padding:4px 8px;margin:4px 0")
INFO_STYLE = "font:13px sans-serif;color:#333;margin:4px 0"


def error_html(message: str) -> str:
    """The engine's message in a red box (role=alert, so a screen reader announces it)."""
    return f'<div class="rumino-error" role="alert" style="{ERROR_STYLE}">{escape(message)}</div>'


def info_html(message: str) -> str:
    return f'<div class="rumino-info" style="{INFO_STYLE}">{escape(message)}</div>'


def facts_html(facts: list[tuple[str, str]]) -> str:
    """Label/value pairs as a row of small badges, e.g. ``[("deadwood", "7"), ("gin", "no")]``."""
    items = "".join(
        f'<span class="rumino-fact" data-fact="{escape(k)}" style="display:inline-block;margin:2px 6px 2px 0;'
        f'padding:2px 8px;border:1px solid #bbb;border-radius:10px;background:#f7f7f7">'
        f'{escape(k)}: <b>{escape(v)}</b></span>'
        for k, v in facts)
    return f'<div class="rumino-facts" style="font:13px sans-serif">{items}</div>'


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
