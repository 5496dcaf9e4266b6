"""Sphinx extension of the rumino book: offline plotly, a download link per chapter, a little CSS.

* plotly.js is copied from the installed ``plotly`` package into ``_static/rumino/`` and
  loaded by every page, so figures draw with no network (the chapters' static figure
  HTML calls ``Plotly.newPlot`` and does not inline the 4 MB library).
* every page built from a notebook starts with a link to download that notebook
  (the ``_sources`` copy; ``rumino book build`` puts the output-free notebook there).
* MathJax 3 (``tex-svg-full.js``, fonts included) is copied from the installed
  ``django-static-mathjax`` package (MathJax's own files packaged for PyPI; Django is
  not needed) into ``_static/mathjax/``, so formulas render with no network.
* a few CSS rules for figures, cards and the static view of live widgets, and a print
  stylesheet for the handouts (``rumino book pdf``): navigation hidden, figures kept whole.
"""

from __future__ import annotations

import shutil
from pathlib import Path

PLOTLY_JS = "rumino/plotly.min.js"
CSS = "rumino/book.css"

_CSS_TEXT = """
.rumino-download { font-size: 0.9em; margin: 0 0 1em 0; padding: 0.4em 0.8em;
  border-left: 3px solid var(--pst-color-primary, #1565c0); background: var(--pst-color-surface, #f5f7fa); }
.rumino-figure { width: 100%; }
.rumino-live-static { border: 1px dashed #888; border-radius: 6px; padding: 0.6em; }
.rumino-live-note { font-size: 0.85em; font-style: italic; margin: 0.4em 0 0 0; }
table.rumino-table { border-collapse: collapse; margin: 0.5em 0; }
table.rumino-table th, table.rumino-table td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
table.rumino-table caption { caption-side: top; font-style: italic; text-align: left; }
figure .cell_output, div.figure .cell_output { margin: 0; }
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


def setup(app):
    app.add_js_file(PLOTLY_JS, priority=100)  # before the pages' inline figure scripts run
    app.add_css_file(CSS)
    app.connect("html-page-context", _download_link)
    app.connect("build-finished", _write_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
