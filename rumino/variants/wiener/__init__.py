"""Wiener Rummy (rules §5) and American Knock Rummy (§5.8): their rules, engines and results (:mod:`.game`) and
their bots' decisions (:mod:`.bots`)."""

from rumino.variants.wiener.game import (ACTIONS, BUYBACK, DECLINE_BUYBACK, KNOCK_MONEY, KNOCK_RUMMY,
                                         KNOCK_RUMMY_ACTIONS, KNOCK_RUMMY_PACK, PACK, WIENER, WIENER_13, BuyBack,
                                         CallRummy, DeclineBuyBack, GameResult, HandResult, KnockRummyGame,
                                         KnockRummyRules, LayOff, WienerGame, WienerRules, WienerView,
                                         knock_rummy_settlement)

__all__ = ["ACTIONS", "BUYBACK", "DECLINE_BUYBACK", "KNOCK_MONEY", "KNOCK_RUMMY", "KNOCK_RUMMY_ACTIONS",
           "KNOCK_RUMMY_PACK", "PACK", "WIENER", "WIENER_13", "BuyBack", "CallRummy", "DeclineBuyBack", "GameResult",
           "HandResult", "KnockRummyGame", "KnockRummyRules", "LayOff", "WienerGame", "WienerRules", "WienerView",
           "knock_rummy_settlement"]
