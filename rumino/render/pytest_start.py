"""A quicker start for the test suite's processes: pytest loads this first (``-p rumino.render.pytest_start``
in pyproject.toml's addopts), before the plugins it finds installed.

nbval, one of those plugins, imports nbformat, and so jsonschema, which would build the IRI grammar of
``rfc3987_syntax`` (2.5 s of CPU, see :mod:`rumino.render.plotly_start`) in the controller and in
every xdist worker. Deferred here, the grammar is built only if an IRI is ever checked.
"""

from rumino.render.plotly_start import defer_iri_grammar

defer_iri_grammar()
