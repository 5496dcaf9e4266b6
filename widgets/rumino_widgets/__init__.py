"""Widgets over the rumino engine: thin ipywidgets views, each with a plain Python controller.

No rule is decided here: legality and numbers always come from :mod:`rumino`.
Each widget has ``.controller`` (testable without a browser) and
``.static_html()`` (what a page without a kernel shows).

>>> from rumino_widgets import HandExplorer
>>> HandExplorer(text="2c 3c 4c 9d 9h 9s 7d").controller.report["deadwood"]
7
"""

from __future__ import annotations

from rumino.render.plotly_start import defer_iri_grammar

# before any widget imports plotly: 2.8 s off every kernel's start (see that module); the imports below
# follow this call on purpose
defer_iri_grammar()

from rumino_widgets.game_table import GameTable, GameTableController
from rumino_widgets.hand_explorer import HandExplorer, HandExplorerController
from rumino_widgets.house_rule_lab import HouseRuleLab, HouseRuleLabController
from rumino_widgets.odds_explorer import OddsExplorer, OddsExplorerController
from rumino_widgets.poker_odds_explorer import PokerOddsExplorer, PokerOddsExplorerController
from rumino_widgets.rule_knobs import RuleKnobs, RuleKnobsController
from rumino_widgets.rummoli_board import RummoliBoard, RummoliBoardController
from rumino_widgets.rummoli_table import RummoliTable, RummoliTableController
from rumino_widgets.table_rearrangement import TableRearrangement, TableRearrangementController
from rumino_widgets.variant_compare import VariantCompare, VariantCompareController

__all__ = ["GameTable", "GameTableController", "HandExplorer", "HandExplorerController", "HouseRuleLab",
           "HouseRuleLabController", "OddsExplorer", "OddsExplorerController", "PokerOddsExplorer",
           "PokerOddsExplorerController", "RuleKnobs",
           "RuleKnobsController", "RummoliBoard", "RummoliBoardController", "RummoliTable",
           "RummoliTableController", "TableRearrangement", "TableRearrangementController", "VariantCompare",
           "VariantCompareController"]
