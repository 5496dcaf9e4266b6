"""Melds on the table: the table's notation, the exact rearrangement solver and what moved where.

* :mod:`~rumino.table.melds` — melds as they lie on the table, jokers identified;
* :mod:`~rumino.table.solver` — the exact best rearrangement of a table with a hand (Robber Rummy, Rommé);
  its programmes are :mod:`~rumino.table.dp` (the exhaustive reference), :mod:`~rumino.table.dp_jit`
  (compiled, rank by rank) and :mod:`~rumino.table.dp_slack` (compiled, jokers as slack);
* :mod:`~rumino.table.diff` — which cards moved between two tables.
"""
