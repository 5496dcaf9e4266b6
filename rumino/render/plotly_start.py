"""A faster start for every process that imports nbformat (the book's chapters, the widgets' kernels,
the book builder and its Sphinx run).

plotly imports nbformat when it is imported (``plotly.io._renderers``), nbformat imports jsonschema,
and jsonschema, when the optional ``rfc3987-syntax`` package is installed (JupyterLab's ``jupyter-events``
pulls it in), builds that package's IRI grammar with lark while it is imported: 2.8 s of CPU in every
kernel, measured on the 2-core CI machine, for a string format nothing here validates.
:func:`defer_iri_grammar` puts a stand-in for ``rfc3987_syntax`` in ``sys.modules`` that imports the
real package the first time an IRI is checked, so the behaviour is the same and only the cost moves
to where it is needed.

>>> defer_iri_grammar()
>>> import jsonschema  # quick now; an IRI is still checked with the real grammar when asked
>>> jsonschema.FormatChecker().conforms("http://example.org/ä", "iri")
True
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

__all__ = ["defer_iri_grammar", "deferred_start", "SPHINX_START"]

_NAME = "rfc3987_syntax"


_real = []  # the real is_valid_syntax, once imported


def _load_real(rule: str, text: str) -> bool:
    if not _real:
        if getattr(sys.modules.get(_NAME), "is_valid_syntax", None) is _load_real:
            del sys.modules[_NAME]  # the stand-in steps aside for the real module
        _real.append(importlib.import_module(_NAME).is_valid_syntax)
    return _real[0](rule, text)


def defer_iri_grammar() -> None:
    """Install the stand-in, unless jsonschema is already imported or the package is not installed."""
    if _NAME in sys.modules or "jsonschema" in sys.modules or importlib.util.find_spec(_NAME) is None:
        return
    stand_in = types.ModuleType(_NAME, "Stand-in: the real rfc3987_syntax is imported on the first IRI check.")
    stand_in.is_valid_syntax = _load_real
    sys.modules[_NAME] = stand_in


#: ``python -c`` text that starts Jupyter Book (Sphinx, myst-nb, nbformat) with the grammar deferred.
SPHINX_START = ("from rumino.render.plotly_start import defer_iri_grammar; defer_iri_grammar(); "
                "from jupyter_book.cli.main import main; main()")


def deferred_start(module: str) -> list[str]:
    """What follows ``python`` to run ``python -m module`` with the IRI grammar deferred: a Jupyter server
    (Voilà, JupyterLab) imports jsonschema as it starts, 2.5 s of CPU less at each start.

    >>> deferred_start("voila")[0]
    '-c'
    """
    return ["-c", "from rumino.render.plotly_start import defer_iri_grammar; defer_iri_grammar(); import runpy, sys; "
                  f"sys.argv[0] = {module!r}; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"]
