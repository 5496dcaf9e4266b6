"""Odds: exact answers where they can be had, seeded simulations with intervals where they cannot.

* :mod:`~rumino.odds.draws` — drawing outs, waiting for the first out, completing
  several cards with jokers (exact hypergeometric counts).
* :mod:`~rumino.odds.markov` — the keep-the-target Markov chain for hitting a
  rumino within N draws, and a direct simulation of the same policy.
* :mod:`~rumino.odds.enumerate` — every dealt hand up to suit symmetry, each
  class weighted by its deals; Burnside class counts; brute force for checks.
* :mod:`~rumino.odds.exact` — the whole Rumino deal, dealt gin in Gin Rummy,
  4+3 split hands, independent counts (meld unions, a rank automaton, closed
  forms) and what is feasible.
* :mod:`~rumino.odds.montecarlo` — seeded vectorised dealing, Wilson and normal
  intervals, convergence, any ``concurrent.futures`` executor (Dask included).
* :mod:`~rumino.odds.poker` — exact best-five-of-n poker tables for n = 5 … 18
  (Rummoli), by two independent methods, with brute force and simulation checks.
* :mod:`~rumino.odds.opening` — how often a dealt Rommé hand can open with 40
  (or 30 … 50), by jokers dealt, simulated with the compiled opening kernel.

>>> from rumino.odds import p_at_least_one, show
>>> show(p_at_least_one(outs=8, unseen=47, draws=2))
'340/1081 = 0.314524 (1 in 3.18)'
"""

from rumino.odds.draws import (OddsArgumentError, completion_curve, expected_draws_to_complete, expected_draws_to_first_out,
                    first_out_distribution, p_at_least_one, p_complete)
from rumino.odds.enumerate import DealDistribution, PackShape, class_count, deal_distribution, is_rumino_batch
from rumino.odds.exact import (count_zero_deadwood_dp, feasibility_table, four_three_counts, lay_union_counts, one_in,
                    p_dealt_gin, rumino_count_closed_form, rumino_deal_distribution, show, zero_deadwood_hands)
from rumino.odds.markov import KeepTargetChain, Target, best_target, rumino_targets, simulate_keep_target
from rumino.odds.montecarlo import OddsEstimate, mean_from_moments, proportion, run_chunks, sample_deals, simulate_deals
from rumino.odds.opening import OpeningSample, simulate_opening

__all__ = [
    "OddsArgumentError", "completion_curve", "expected_draws_to_complete", "expected_draws_to_first_out",
    "first_out_distribution", "p_at_least_one", "p_complete",
    "DealDistribution", "PackShape", "class_count", "deal_distribution", "is_rumino_batch",
    "count_zero_deadwood_dp", "feasibility_table", "four_three_counts", "lay_union_counts", "one_in", "p_dealt_gin",
    "rumino_count_closed_form", "rumino_deal_distribution", "show", "zero_deadwood_hands",
    "KeepTargetChain", "Target", "best_target", "rumino_targets", "simulate_keep_target",
    "OddsEstimate", "mean_from_moments", "proportion", "run_chunks", "sample_deals", "simulate_deals",
    "OpeningSample", "simulate_opening",
]
