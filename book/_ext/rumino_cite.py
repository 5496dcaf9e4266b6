"""Sphinx extension: citations a reader can tell apart, and bibliography lists a screen reader reads.

**Citations.** The author-year style writes an undated source as "McLeod, n.d.", so the ten pages
of pagat.com all read alike: "[McLeod, n.d., McLeod, n.d.]". The style ``author_title`` registered
here names an undated source by its title instead of "n.d." ("McLeod, *Gin Rummy*"; a dated one
keeps its year, "Parlett, 2008") and separates the sources of one citation by a semicolon:
"[McLeod, *Rummy*; McLeod, *Rummy games*]".

>>> from pybtex.database import Entry
>>> str(year_or_title.format_data({"entry": Entry("misc", fields={"title": "Gin Rummy"})}))
'Gin Rummy'
>>> str(year_or_title.format_data({"entry": Entry("book", fields={"title": "A History", "year": "1991"})}))
'1991'
>>> AuthorTitleReferenceStyle().bracket_parenthetical.sep
'; '
>>> type(AuthorTitleReferenceStyle().role_style["p"]).__name__, type(AuthorTitleReferenceStyle().role_style["t"]).__name__
('_Parenthetical', '_Textual')

**Lists.** Sphinx writes each bibliography (sphinxcontrib-bibtex's ``{bibliography}``) as a
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

from dataclasses import dataclass, field as dataclass_field

from pybtex.style.template import field, first_of, optional, tag
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
    BasicAuthorYearParentheticalReferenceStyle, BasicAuthorYearTextualReferenceStyle)
from sphinxcontrib.bibtex.style.template import join, join2, node, post_text, pre_text, reference

STYLE = "author_title"


@node
def year_or_title(children, data):
    """The year of a dated source; the title, in italics, of one without a date."""
    assert not children
    return first_of[optional[field("year")], tag("em")[field("title")]].format_data(data)


@dataclass
class _Parenthetical(BasicAuthorYearParentheticalReferenceStyle):
    def inner(self, role_name):
        return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text,
            reference[join(sep=self.author_year_sep)[
                self.person.author_or_editor_or_title(full="s" in role_name), year_or_title]],
            post_text]


@dataclass
class _Textual(BasicAuthorYearTextualReferenceStyle):
    def inner(self, role_name):
        return join(sep=self.text_reference_sep)[
            self.person.author_or_editor_or_title(full="s" in role_name),
            join[self.bracket.left,
                 join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
                     pre_text, reference[year_or_title], post_text],
                 self.bracket.right]]


def _semicolons():
    return BracketStyle(sep="; ", sep2="; ", last_sep="; ")


@dataclass
class AuthorTitleReferenceStyle(AuthorYearReferenceStyle):
    """Author-year, an undated source named by its title; the sources of a citation apart by ';'."""

    bracket_parenthetical: BracketStyle = dataclass_field(default_factory=_semicolons)
    bracket_textual: BracketStyle = dataclass_field(default_factory=_semicolons)

    def __post_init__(self):
        super().__post_init__()
        kinds = {BasicAuthorYearParentheticalReferenceStyle: _Parenthetical,
                 BasicAuthorYearTextualReferenceStyle: _Textual}
        self.styles[:] = [kinds[type(s)](**{k: getattr(s, k) for k in s.__dataclass_fields__})
                          if type(s) in kinds else s for s in self.styles]
        # the roles were mapped to the styles they had: map them to these
        self.role_style.update((role, s) for s in self.styles for role in s.role_names())


register_plugin("sphinxcontrib.bibtex.style.referencing", STYLE, AuthorTitleReferenceStyle)


def _entries_as_list_items(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", _entries_as_list_items)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
