"""One exception family for the whole engine.

Every error a user can provoke is a ``RuminoError``; the ones caused by a bad
value also subclass ``ValueError`` so ordinary ``except ValueError`` code works.

>>> from rumino.cards import parse_card
>>> try:
...     parse_card("11h")
... except InvalidCardError as err:
...     print(err)
'11h' is not a card: the rank '11' is not one of A 2 3 4 5 6 7 8 9 10 J Q K.
"""

from __future__ import annotations


class RuminoError(Exception):
    """Base class of every error raised on purpose by rumino."""


class InvalidCardError(RuminoError, ValueError):
    """A token that is not a card, or a hand that no pack can hold."""


class InvalidMeldError(RuminoError, ValueError):
    """Cards that do not form a meld under the given rules."""


class RuleConfigError(RuminoError, ValueError):
    """A rules object with a field outside its allowed range."""


class IllegalActionError(RuminoError, ValueError):
    """An action the rules forbid in the current state (the state is unchanged)."""


class RecordError(RuminoError, ValueError):
    """A game record that is malformed, tampered with or does not replay."""


class KernelError(RuminoError, RuntimeError):
    """The compiled evaluator (numba kernels) failed to load or disagreed with the reference search.

    Raised instead of silently falling back to the slow search; set the
    environment variable ``RUMINO_NO_KERNELS=1`` to choose the reference search on purpose.
    """
