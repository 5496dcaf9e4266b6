"""Drawing cards for a page: SVG faces, hands and melds (:mod:`~rumino.render.cards`) and Rummoli's
play sheet (:mod:`~rumino.render.rummoli`). The same functions serve the book, ``_repr_html_`` and the widgets.
"""
