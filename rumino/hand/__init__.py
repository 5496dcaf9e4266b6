"""The hand maths: what one player's cards are worth.

* :mod:`~rumino.hand.arrange` — the exact arrangement search (minimum deadwood, best opening), the reference;
* :mod:`~rumino.hand.kernels` — the compiled batch deadwood kernels behind the engine and the odds;
* :mod:`~rumino.hand.opening` — the compiled Rommé opening values (rules §3.4);
* :mod:`~rumino.hand.poker` — the best five of n cards for Rummoli's poker phase.
"""
