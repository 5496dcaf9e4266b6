"""Sphinx extension: the References page's citation lists read as lists by a screen reader.

Sphinx writes each bibliography (sphinxcontrib-bibtex's ``{bibliography}``) as a
``<div role="list">`` whose entries carry ``role="doc-biblioentry"``. ARIA no longer counts that
role as a list item, so axe-core reports the list as critical (``aria-required-children``) and a
screen reader announces an empty list. Each entry is made a ``listitem``; its ``id`` (the target
of every ``{cite}``) and its text are untouched.

>>> context = {"body": '<div role="list"><div class="citation" role="doc-biblioentry">x</div></div>'}
>>> _entries_as_list_items(None, "references", "page.html", context, None)
>>> context["body"]
'<div role="list"><div class="citation" role="listitem">x</div></div>'
"""

from __future__ import annotations


def _entries_as_list_items(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", _entries_as_list_items)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
