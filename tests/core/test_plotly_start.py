"""The stand-in for rfc3987_syntax (rumino.render.plotly_start): plotly starts without building the IRI
grammar, and jsonschema still checks IRIs with the real one."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from rumino.render.plotly_start import defer_iri_grammar
defer_iri_grammar()
import plotly.basewidget  # imports nbformat, which imports jsonschema
assert "jsonschema" in sys.modules
assert not hasattr(sys.modules["rfc3987_syntax"], "__file__"), "the grammar was built at import"
import jsonschema
check = jsonschema.FormatChecker()
print(check.conforms("http://example.org/ä", "iri"), check.conforms("http://exa mple.org", "iri"),
      check.conforms("ä/b", "iri-reference"))
print(hasattr(sys.modules["rfc3987_syntax"], "__file__"))
"""


def test_plotly_imports_without_the_iri_grammar_and_iris_are_still_checked():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "True", "True"]


def test_the_book_builders_sphinx_start_runs_jupyter_book():
    from rumino.render.plotly_start import SPHINX_START

    done = subprocess.run([sys.executable, "-c", SPHINX_START, "--version"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Jupyter Book" in done.stdout
