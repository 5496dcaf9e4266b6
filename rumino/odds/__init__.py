"""Odds: exact drawing odds and deal enumeration, Markov chains, Monte Carlo with intervals."""
