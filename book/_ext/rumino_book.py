"""Sphinx extension of the rumino book: offline plotly, a download link per chapter, a little CSS.

* plotly.js is copied from the installed ``plotly`` package into ``_static/rumino/`` and
  loaded by every page that draws a figure, so figures draw with no network (the chapters' static figure
  HTML calls ``Plotly.newPlot`` and does not inline the 4 MB library).
* every page built from a notebook starts with a link to download that notebook
  (the ``_sources`` copy; ``rumino book build`` puts the output-free notebook there).
* MathJax 3 (``tex-svg-full.js``, fonts included) is copied from the installed
  ``django-static-mathjax`` package (MathJax's own files packaged for PyPI; Django is
  not needed) into ``_static/mathjax/``, so formulas render with no network.
* a few CSS rules for figures, cards and the static view of live widgets, and a print
  stylesheet for the handouts (``rumino book pdf``): navigation hidden, figures kept whole.
* rules citations link: ``rules §3.4.5`` (or the old ``RULES §3.4.5``, or a bare ``§3.4.5``) in
  prose, in cell outputs and in the static HTML of widgets becomes a link to the section of
  the part "The rules in full" (``book/rules/``) that carries the label ``rules-3-4-5``. A
  cited number with no such label is a warning per place, and the build fails at its end
  (``rumino_rules_strict = False`` makes it a warning only). A build with no rules pages at
  all (a tiny test book) leaves citations as plain text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.util import logging

LOG = logging.getLogger(__name__)

PLOTLY_JS = "rumino/plotly.min.js"
CSS = "rumino/book.css"

_CSS_TEXT = """
.rumino-download { font-size: 0.9em; margin: 0 0 1em 0; padding: 0.4em 0.8em;
  border-left: 3px solid var(--pst-color-primary, #1565c0); background: var(--pst-color-surface, #f5f7fa); }
.rumino-figure { width: 100%; }
.rumino-live-static { border: 1px dashed #888; border-radius: 6px; padding: 0.6em; }
/* a widget's static table fits the column: its numbers wrap at their spaces rather than push the last
   column off the page (the widgets' tables keep a figure on one line in JupyterLab, which scrolls) */
.rumino-live-static table td { white-space: normal !important; }
.rumino-live-note { font-size: 0.85em; font-style: italic; margin: 0.4em 0 0 0; }
table.rumino-table { border-collapse: collapse; margin: 0.5em 0; }
table.rumino-table th, table.rumino-table td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
table.rumino-table caption { caption-side: top; font-style: italic; text-align: left; }
figure .cell_output, div.figure .cell_output { margin: 0; }
/* a cell output that cites the rules is drawn as a parsed block (to hold its links), not highlighted */
.cell_output pre.literal-block { padding: 0.4em 0.8em; margin: 0; overflow-x: auto; white-space: pre-wrap;
  background: var(--pst-color-surface, #f5f7fa); border-radius: 4px; font-size: 0.9em; }
a.rumino-rules-cite { white-space: nowrap; }
/* the theme's link blue is 4.3:1 on the tinted boxes (download link, exercises, hints, solutions);
   a darker blue reads at over 7:1 (WCAG AA wants 4.5) */
.rumino-download a, .rumino-download a:visited, .admonition a, .admonition a:visited,
div.exercise a, div.solution a, details a { color: #0b4a9e; }
/* outputs and code inside a box wrap rather than scroll: a region that scrolls must be reachable by
   keyboard, and a box opened after the page loaded never gets the theme's tab stop */
.admonition pre, div.exercise pre, div.solution pre, details pre { white-space: pre-wrap; overflow-wrap: anywhere; }

/* printed handouts (`rumino book pdf`, or the browser's own Print): the page without its
   navigation, download link or buttons; figures, tables and boxes kept whole on one sheet */
@media print {
  .bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-header-article, .prev-next-area,
  .bd-footer, .bd-footer-article, #pst-back-to-top, .rumino-download, .rumino-live-note,
  button.toggle-button, .toggle-button, .copybtn, .headerlink, .search-button,
  details.hide > summary { display: none !important; }
  .bd-main .bd-content { margin-left: 0 !important; }
  figure, .rumino-figure, .rumino-live-static, table, .admonition, .cell_output, div.highlight
    { break-inside: avoid; }
  h2, h3, p.admonition-title, figcaption { break-after: avoid; }
  .js-plotly-plot .modebar { display: none !important; }
  pre { white-space: pre-wrap !important; overflow-wrap: anywhere; }  /* paper cannot scroll */
  a { color: inherit; text-decoration: none; }
  body { font-size: 11pt; }
}
"""


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def _mathjax_dir() -> Path:
    import mathjax  # the django-static-mathjax distribution

    return Path(mathjax.__file__).parent / "static" / "mathjax"


def _write_assets(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static" / "rumino"
    static.mkdir(parents=True, exist_ok=True)
    (static / "plotly.min.js").write_text(_plotly_js(), encoding="utf-8")
    (static / "book.css").write_text(_CSS_TEXT, encoding="utf-8")
    # the path the pages load (conf: mathjax_path = mathjax/tex-svg-full.js), with MathJax's licence beside it
    target = Path(app.outdir) / "_static" / "mathjax"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_mathjax_dir() / "es5" / "tex-svg-full.js", target / "tex-svg-full.js")
    shutil.copyfile(_mathjax_dir() / "LICENSE", target / "LICENSE")


def _download_link(app, pagename, templatename, context, doctree) -> None:
    """Put "download this chapter's notebook" at the top of every notebook page."""
    if doctree is None or app.builder.format != "html":
        return
    source = app.env.doc2path(pagename, base=False)
    if not str(source).endswith(".ipynb"):
        return
    name = Path(source).name
    href = context["pathto"](f"_sources/{name}", 1)
    link = (f'<p class="rumino-download">Download this chapter as a notebook: '
            f'<a class="rumino-download-link" href="{href}" download="{name}">{name}</a> '
            f'(no outputs: run it in JupyterLab with <code>rumino lab</code>, or open it beside the book).</p>')
    body = context.get("body", "")
    end = body.find("</h1>")  # just under the chapter's title
    context["body"] = body[:end + 5] + link + body[end + 5:] if end >= 0 else link + body


def _plotly_where_drawn(app, pagename, templatename, context, doctree) -> None:
    """plotly.js (4.8 MB) only on the pages that draw a figure.

    Parsing it costs a browser about a second of CPU on every page that loads it; 34 of the book's 49
    pages (the teacher's pages, the glossary, the references, the search page …) draw none.

    >>> from sphinx.builders.html._assets import _JavaScript
    >>> context = {"body": "<p>no figure</p>", "script_files": [_JavaScript(PLOTLY_JS), _JavaScript("a.js")]}
    >>> _plotly_where_drawn(None, "glossary", "page.html", context, None)
    >>> [s.filename for s in context["script_files"]]
    ['a.js']
    """
    body = context.get("body", "")
    if "Plotly." in body or "plotly-graph-div" in body:
        return
    scripts = context.get("script_files")
    if scripts:
        context["script_files"] = [s for s in scripts if not str(getattr(s, "filename", s) or "").endswith(PLOTLY_JS)]


def _scripts_once(app, pagename, templatename, context, doctree) -> None:
    """Each of the page's scripts once.

    Sphinx 7.4 lists an inline script that an extension adds after the builder has started twice: once
    under the file name ``None`` (when it is added) and once under ``''`` (when the builder reads its
    registry again before writing). Two extensions of Jupyter Book do so, sphinx-thebe (``const
    THEBE_JS_URL = …``, a SyntaxError in the console the second time: a constant declared twice) and
    sphinx-togglebutton (its selector); the second copy of each is dropped here.

    >>> from sphinx.builders.html._assets import _JavaScript
    >>> body = "const THEBE_JS_URL = 1"
    >>> context = {"script_files": [_JavaScript("a.js"), _JavaScript(None, body=body), _JavaScript("", body=body)]}
    >>> _scripts_once(None, "page", "page.html", context, None)
    >>> [(s.filename, s.attributes) for s in context["script_files"]]
    [('a.js', {}), (None, {'body': 'const THEBE_JS_URL = 1'})]
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {})
        key = (str(getattr(script, "filename", script) or ""), tuple(sorted((k, str(v)) for k, v in attributes.items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    if len(kept) < len(scripts):
        context["script_files"] = kept


# ------------------------------------------------------------------------- rules citations

#: a citation: ``rules §3.4.5``, ``RULES §3.4.5``, ``RULES.md §3.4.5`` or a bare ``§3.4.5``
CITATION = re.compile(r"(?:\b(?:rules|RULES)(?:\.md)?[ \u00a0])?§ ?(\d+(?:\.\d+)*)")
LABEL_PREFIX = "rules-"


def rules_label(number: str) -> str:
    """The label of a rules section: ``rules_label("3.4.5") == "rules-3-4-5"``."""
    return LABEL_PREFIX + number.replace(".", "-")


def _anchors(env) -> dict[str, tuple[str, str]]:
    """Every rules label of the build: ``{"rules-3-4-5": (docname, html id)}``."""
    std = env.get_domain("std")
    return {name: (doc, anchor) for name, (doc, anchor) in std.anonlabels.items()
            if name.startswith(LABEL_PREFIX) and doc}


def _skipped(node) -> bool:
    """Text that must stay as it is: links, titles, code cells' sources and code blocks in prose."""
    while node is not None:
        if isinstance(node, (nodes.reference, nodes.title, nodes.target, nodes.comment, nodes.raw,
                             nodes.substitution_definition, nodes.FixedTextElement)):
            if isinstance(node, nodes.literal_block) and _in_output(node):
                node = node.parent  # an output's text may link; keep looking above it
                continue
            return True
        if isinstance(node, nodes.container) and "cell_input" in node.get("classes", []):
            return True
        node = node.parent
    return False


def _in_output(node) -> bool:
    while node is not None:
        if isinstance(node, nodes.container) and "cell_output" in node.get("classes", []):
            return True
        node = node.parent
    return False


class _Citations:
    """Turns citations into links for one page; remembers the numbers that have no anchor."""

    def __init__(self, app, docname: str):
        self.app, self.docname = app, docname
        self.anchors = _anchors(app.env)
        self.missing: list[tuple[str, str]] = []

    def href(self, number: str, where) -> str | None:
        """The link of ``§number``, or ``None`` (and a warning) when no section carries its label."""
        target = self.anchors.get(rules_label(number))
        if target is None:
            self.missing.append((number, self.docname))
            LOG.warning("rules §%s is cited but no page of 'The rules in full' (book/rules/) has the "
                        "label (%s)=", number, rules_label(number), location=where, type="rumino",
                        subtype="rules")
            parent = number.rsplit(".", 1)[0] if "." in number else None
            target = self.anchors.get(rules_label(parent)) if parent else None  # link near it anyway
            if target is None:
                return None
        doc, anchor = target
        page = "" if doc == self.docname else self.app.builder.get_relative_uri(self.docname, doc)
        return f"{page}#{anchor}"

    def split(self, text: str, where) -> list[nodes.Node] | None:
        """``text`` as text and link nodes, or ``None`` when it cites nothing."""
        out, at = [], 0
        for m in CITATION.finditer(text):
            href = self.href(m.group(1), where)
            if href is None:
                continue
            if m.start() > at:
                out.append(nodes.Text(text[at:m.start()]))
            out.append(nodes.reference(m.group(0), m.group(0), refuri=href, internal=True,
                                       classes=["rumino-rules-cite"]))
            at = m.end()
        if not out:
            return None
        if at < len(text):
            out.append(nodes.Text(text[at:]))
        return out

    def html(self, html: str, where) -> str:
        """Link the citations in the text of raw HTML (never inside a tag, a link, a script or a style)."""
        from html import escape

        parts, depth = re.split(r"(<[^>]*>)", html), 0
        for i, part in enumerate(parts):
            if i % 2:  # a tag
                tag = re.match(r"</?\s*([a-zA-Z]+)", part)
                name = tag.group(1).lower() if tag else ""
                if name in ("a", "script", "style", "title", "textarea"):
                    depth += -1 if part.startswith("</") else (0 if part.endswith("/>") else 1)
                continue
            if depth > 0 or "§" not in part:
                continue

            def link(m):
                href = self.href(m.group(1), where)
                if href is None:
                    return m.group(0)
                return f'<a class="reference internal rumino-rules-cite" href="{escape(href)}">{m.group(0)}</a>'

            parts[i] = CITATION.sub(link, part)
        return "".join(parts)


def _link_citations(app, doctree, docname) -> None:
    """``doctree-resolved``: link every rules citation of the page (see the module's docstring)."""
    if app.builder.format != "html":
        return
    cite = _Citations(app, docname)
    if not cite.anchors:
        return  # no rules pages in this build: nothing to link to
    for raw in list(doctree.findall(nodes.raw)):
        if "html" in raw.get("format", "").split() and "§" in raw.astext():
            new = cite.html(raw.astext(), raw)
            if new != raw.astext():
                raw.replace(raw.children[0], nodes.Text(new))
    for text in list(doctree.findall(nodes.Text)):
        if "§" not in text or _skipped(text.parent):
            continue
        parts = cite.split(str(text), text.parent)
        if parts is None:
            continue
        block = text.parent
        block.replace(text, parts)
        if isinstance(block, nodes.literal_block):
            # a highlighted block is drawn from its rawsource and would drop the links: draw it as parsed
            block.rawsource = ""
    if cite.missing:
        # kept on the application, not the pickled environment: each build counts afresh
        app.rumino_rules_missing = getattr(app, "rumino_rules_missing", []) + cite.missing


def _fail_on_missing(app, exception) -> None:
    missing = getattr(app, "rumino_rules_missing", [])
    if exception is None and missing and app.config.rumino_rules_strict:
        where = ", ".join(f"§{n} ({doc})" for n, doc in sorted(set(missing)))
        raise ExtensionError(f"rules citations with no section in 'The rules in full': {where}")


def _figures_numbered_per_page(app, env) -> list[str]:
    """A page outside the numbered chapters (the preface, Start here, the teacher's pages) counts its own
    figures from 1. Sphinx numbers them on from page to page there, so the family map's only figure read
    "Fig. 2" (the preface holds Fig. 1) and the class experiment's "Fig. 3". Run after Sphinx assigns the
    numbers (``env-get-updated``); the pages renumbered are written again."""
    renumbered = []
    for docname, by_type in env.toc_fignumbers.items():
        for figtype, numbers in by_type.items():
            if not numbers or any(len(n) != 1 for n in numbers.values()):
                continue  # a numbered chapter's figures: 5.1, 5.2 …
            in_order = sorted(numbers, key=numbers.get)
            own = {figure_id: (i,) for i, figure_id in enumerate(in_order, start=1)}
            if own != numbers:
                by_type[figtype] = own
                renumbered.append(docname)
    return renumbered


def setup(app):
    app.add_config_value("rumino_rules_strict", True, "env")
    app.connect("env-get-updated", _figures_numbered_per_page, priority=600)  # after Sphinx's own (500)
    app.connect("doctree-resolved", _link_citations)
    app.connect("build-finished", _fail_on_missing)
    app.add_js_file(PLOTLY_JS, priority=100)  # before the pages' inline figure scripts run
    app.add_css_file(CSS)
    app.connect("html-page-context", _download_link)
    app.connect("html-page-context", _scripts_once)
    app.connect("html-page-context", _plotly_where_drawn)
    app.connect("build-finished", _write_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
