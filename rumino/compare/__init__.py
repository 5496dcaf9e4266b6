"""The same questions asked of every game: the rules matrix, side by side.

>>> from rumino.compare import rules_matrix
>>> rules_matrix(["wiener", "gin"]).cell("Players", 1)
'2'
"""

from .matrix import Column, RulesMatrix, rules_matrix

__all__ = ["Column", "RulesMatrix", "rules_matrix"]
