"""The same questions asked of every game: the rules matrix and the profiles, side by side.

>>> from rumino.compare import rules_matrix
>>> rules_matrix(["wiener", "gin"]).cell("Players", 1)
'2'
"""

from rumino.compare.matrix import Column, RulesMatrix, rules_matrix
from rumino.compare.figures import Figure, executor_for
from rumino.compare.profile import Profile, profile, profiles, profiles_html, profiles_text

__all__ = ["Column", "RulesMatrix", "rules_matrix", "Figure", "Profile", "profile", "profiles", "profiles_html",
           "profiles_text", "executor_for"]
