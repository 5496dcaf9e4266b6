"""What a golden playthrough says: the cases of every game, how their bots play them, and the text.

A case (``name``, ``seed``, ``players``, ``rules``; ``joins`` for Rumino newcomers; ``variant``
where the name's prefix does not say it) is played by seeded bots. Its playthrough is plain text
read from the game's public protocol only (``view(seat)`` of every seat, ``to_act``, ``phase``,
``results``, ``result``), so it survives moving code between modules but not a change of behaviour:

* a header: the game, the rules that differ from the variant's defaults, the seats, the seed;
* one line per action: the step, who acts (``P1``, or ``table`` for a newcomer's join), the
  action in the book's notation (``str(action)``) and, after ``->``, the public state after it:
  phase and who is to act, hand number and dealer, discard top and pile size, stock, cards
  held, scores and the game's money (Rumino's pool, Wiener's pot, Gin's boxes), who has opened
  (Rommé, Robber); Rummoli's phase, chips, sheet sections, widow/dead hand, auction, betting and
  the card needed or colour to lead;
* indented lines under it for what changed: every seat's private hand (``P2: ...``) whenever it
  changed, the table's melds (Rommé, Robber) whenever they changed, and ``=`` lines with a hand's
  result and the game's result. Printing a hand only when it changes pins every hand at every
  step exactly as the old digests did (the first lines show every hand), and stays short to read.

Step 0 is the state before any action. The actions themselves are also kept in the JSON record
beside it (``tests/golden/<name>.json``), which is what replays exactly; see golden_replay.py.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rumino.cards import format_card, format_hand
from rumino.engine import TABLE
from rumino.errors import IllegalActionError
from rumino.players import make_players
from rumino.playing.records import loads_record, replay
from rumino.variants import find_variant

# ---------------------------------------------------------------------------------------- the cases

# Rumino: seeds, player counts, bot mixes and house rules (rebuys, pools, joins, claims, exhausted
# stocks). The first nine were recorded before the engine moved, when §0.5 barred the twin of a card
# taken from the pile as well; that behaviour is now the knob pickup_bars_twin=True, which they name.
OLD = {"pickup_bars_twin": True}
RUMINO_CASES = [
    {"name": "rumino_2p_greedy", "seed": 1, "players": ["greedy", "greedy"], "rules": {**OLD}, "joins": 0},
    {"name": "rumino_3p_mixed", "seed": 2, "players": ["greedy", "random", "chaser"], "rules": {**OLD}, "joins": 0},
    {"name": "rumino_4p_flat_rebuys", "seed": 3, "players": ["greedy", "threshold:2", "greedy", "chaser:4"],
     "rules": {**OLD, "rebuy_price": "flat", "stake": 7}, "joins": 0},
    {"name": "rumino_5p_void_undercut", "seed": 4, "players": ["random", "greedy", "threshold:1", "chaser", "greedy"],
     "rules": {**OLD, "stock_exhausted": "void_hand", "knock_undercut_penalty": 10, "knock_zero_is_gin": False},
     "joins": 0},
    {"name": "rumino_6p_first_to_call", "seed": 5, "players": ["chaser:3"] * 3 + ["greedy", "random", "chaser"],
     "rules": {**OLD, "out_of_turn_claim_priority": "first_to_call", "stock_exhausted": "end_and_score",
               "rebuy_requires_others": 1}, "joins": 0},
    {"name": "rumino_3p_unlimited_distinct", "seed": 6, "players": ["greedy", "chaser", "threshold:3"],
     "rules": {**OLD, "max_lay_size": None, "set_suits": "distinct", "may_rediscard_pickup": True, "elimination_at": 100,
               "triple_gin_wins": False}, "joins": 0},
    {"name": "rumino_3p_joins", "seed": 7, "players": ["greedy", "random", "greedy"],
     "rules": {**OLD, "stake": 3, "rumino_natural_only": True, "gin_bonus": -25, "knock_max_deadwood": 10}, "joins": 2},
    {"name": "rumino_4p_random", "seed": 8, "players": ["random"] * 4, "rules": {**OLD, "min_naturals_per_lay": 0},
     "joins": 0},
    {"name": "rumino_2p_chasers", "seed": 9, "players": ["chaser", "chaser:6"], "rules": {**OLD, "knock_max_deadwood": 3},
     "joins": 0},
    # recorded on the shared engine, under the §0.5 default "only the card taken is barred"
    {"name": "rumino_4p_engine_defaults", "seed": 10, "players": ["greedy", "random", "chaser", "threshold:4"],
     "rules": {}, "joins": 1},
    {"name": "rumino_3p_engine_random", "seed": 11, "players": ["random", "random", "greedy"],
     "rules": {"stock_exhausted": "void_hand"}, "joins": 0},
]

GIN_CASES = [
    {"name": "gin_greedy_vs_random", "seed": 1, "players": ["greedy", "random"], "rules": {}},
    {"name": "gin_greedy_vs_threshold", "seed": 2, "players": ["greedy", "threshold:2"], "rules": {}},
    {"name": "gin_wall_and_bonuses", "seed": 4, "players": ["threshold:0", "threshold:0"],
     "rules": {"wall_knock": True, "void_at_stock": 10, "undercut_bonus": 10, "gin_bonus": 20, "game_bonus": 0,
               "box_bonus": 20}},
    {"name": "gin_house_rules", "seed": 4, "players": ["threshold:5", "greedy"],
     "rules": {"knock_max_deadwood": 7, "void_at_stock": 4, "game_to": 60, "may_rediscard_pickup": True}},
]

ROMME_CASES = [
    {"name": "romme_2p_bot_random", "seed": 1, "players": ["greedy", "random"], "rules": {}},
    {"name": "romme_4p_house_rules", "seed": 2, "players": ["greedy", "greedy", "random", "greedy"],
     "rules": {"deal_mode": "upcard_left_starts", "joker_exchange": "dskv", "freed_joker_use": "new_meld_or_layoff",
               "winner_collects_sum": True, "joker_penalty": 25, "must_discard_to_go_out": True}},
    {"name": "romme_3p_pickup_rules", "seed": 3, "players": ["greedy", "greedy", "greedy"],
     "rules": {"discard_pickup_rule": "must_meld_immediately", "pickup_counts_for_opening": False,
               "opening_min": 30, "n_jokers": 4, "cut_joker_robbing": True}},
]

ROBBER_CASES = [
    {"name": "robber_2p_greedy", "seed": 1, "players": ["greedy", "greedy"], "rules": {}},
    {"name": "robber_3p_mixed_draw3", "seed": 2, "players": ["greedy", "random", "greedy"],
     "rules": {"illegal_manipulation_penalty": "draw3", "scoring": "romme_penalties"}},
    {"name": "robber_2p_discard_pile", "seed": 3, "players": ["greedy", "random"],
     "rules": {"discard_pile": True, "opening_min": 30, "ace": "around"}},
]

WIENER_CASES = [
    {"name": "wiener_3p_greedy_mix", "variant": "wiener", "seed": 1, "players": ["greedy", "threshold:0", "random"],
     "rules": {}},
    {"name": "wiener_4p_upcard_penalty", "variant": "wiener", "seed": 2,
     "players": ["greedy", "greedy", "threshold:2", "random"],
     "rules": {"deal_mode": "upcard", "knock_undercut_penalty": 10, "rummy_call_money": 2,
               "buyback_target": "best_other"}},
    {"name": "wiener_6p_13cards_void", "variant": "wiener", "seed": 3, "players": ["greedy"] * 3 + ["random"] * 3,
     "rules": {"hand_size": 13, "knock_max_deadwood": 9, "extra_turn_after_knock": False,
               "stock_exhausted": "void_hand", "knock_money_to_pot": True}},
    {"name": "wiener_knock_rummy_3p", "variant": "knock-rummy", "seed": 4, "players": ["greedy", "random", "threshold:3"],
     "rules": {}},
    {"name": "wiener_knock_rummy_2p_limit", "variant": "knock-rummy", "seed": 5, "players": ["greedy", "threshold:1"],
     "rules": {"knock_max_deadwood": 9, "game_to": 60}},
]

RUMMOLI_CASES = [
    {"name": "rummoli_4p_defaults", "seed": 1, "players": ["default", "default", "default", "random"], "rules": {}},
    {"name": "rummoli_3p_betting_sealed_claims", "seed": 2, "players": ["default", "random", "default"],
     "rules": {"poker_method": "betting", "widow_auction": "sealed", "manual_claims": True, "bet_size": 2}},
    {"name": "rummoli_5p_fines_poker_sweep", "seed": 3, "players": ["default", "random", "default", "random", "default"],
     "rules": {"colour_change_rule": "fine_per_pass", "final_sweep": "poker_deal", "widow_deal_position": "first",
               "widow_paycard_restriction": True}},
    {"name": "rummoli_2p_fallback_partial", "seed": 4, "players": ["random", "default"],
     "rules": {"colour_change_rule": "any_colour_fallback", "short_ante": "partial", "initial_chips": 30,
               "rounds": 3, "widow_auction": "none"}},
]

OKLAHOMA_CASES = [  # hands whose upcards set limits from gin only to 10, spades doubling
    {"name": "oklahoma_greedy_vs_threshold", "seed": 3, "players": ["greedy", "threshold:2"], "rules": {"game_to": 80}},
]

CASES = RUMINO_CASES + GIN_CASES + ROMME_CASES + ROBBER_CASES + WIENER_CASES + RUMMOLI_CASES + OKLAHOMA_CASES


def variant_of(case: dict) -> str:
    """The variant key of a case: its ``variant``, else its name's prefix (``romme_...`` is Rommé)."""
    return case.get("variant") or case["name"].split("_")[0]


def play_case(case: dict):
    """Play ``case`` to the end with its seeded bots (and, for Rumino, its seeded newcomers); returns the game."""
    v = find_variant(variant_of(case))
    game = v.game.new(dataclasses.replace(v.rules, **case["rules"]), len(case["players"]), seed=case["seed"])
    bots = make_players(case["players"], seed=[case["seed"], 1], game=v.game)
    joins_left = case.get("joins", 0)
    join_rng = np.random.default_rng([case["seed"], 2])
    while not game.game_over:
        if joins_left and game.table_actions() and join_rng.random() < 0.5:
            game.apply(game.table_actions()[0])
            bots += make_players(["greedy"], seed=[case["seed"], 3, joins_left])
            joins_left -= 1
        else:
            game.apply(bots[game.to_act].choose(game.view(game.to_act)))
        if len(game.history) > 50_000:
            raise RuntimeError(f"golden case {case['name']} does not end")
    return game


# ---------------------------------------------------------------------------------------- the text


def _seats(values, fmt=str) -> str:
    return "/".join("-" if x is None else fmt(x) for x in values)


def _who(seat) -> str:
    return "table" if seat == TABLE else f"P{seat}"


def _cents(c: int) -> str:
    return f"{c / 100:.2f}"


def _hand(cards) -> str:
    return format_hand(sorted(cards)) or "(none)"


def _differing_rules(rec) -> str:
    default = find_variant(rec.variant).rules
    diff = [f"{f.name}={getattr(rec.rules, f.name)!r}" for f in dataclasses.fields(rec.rules)
            if "section" in f.metadata and getattr(rec.rules, f.name) != getattr(default, f.name)]
    return ", ".join(diff) or "none"


def header(case: dict, record: dict) -> list[str]:
    """The lines above the steps: game, rules that differ from the defaults, seats, seed, how to read it."""
    rec = loads_record(record)
    v = find_variant(rec.variant)
    seats = ", ".join(f"P{i} {p}" for i, p in enumerate(rec.players))
    joins = f"; {case['joins']} newcomer(s) may join" if case.get("joins") else ""
    return [
        f"# golden playthrough {case['name']}: {v.game.NAME} (variant {rec.variant!r})",
        f"# rules differing from the defaults: {_differing_rules(rec)}",
        f"# seats: {seats}{joins}",
        f"# seed: {rec.seed}, {len(rec.actions)} actions",
        "# step who action -> public state after it; indented: hands that changed (Pn: cards), the table",
        "# when it changed, '=' a hand's or the game's result. Rewrite: python tests/golden_replay.py --write",
    ]


def _table_state(game, v) -> str:
    parts = [f"hand {v.hand_number} dealer P{v.dealer}"]
    top = v.discard_pile[-1] if v.discard_pile else None
    parts.append(f"top {format_card(top) if top is not None else '-'} (pile {len(v.discard_pile)}) stock {v.stock_size}")
    parts.append(f"cards {_seats(v.hand_sizes)}")
    parts.append(f"scores {_seats(v.scores)}")
    if not all(v.in_game):
        parts.append("out " + " ".join(f"P{p}" for p, i in enumerate(v.in_game) if not i))
    if hasattr(v, "pool_cents"):  # Rumino
        parts.append(f"pool {_cents(v.pool_cents)} paid {_seats(v.paid_cents, _cents)} rebuys {_seats(v.rebuys)}")
    if hasattr(v, "boxes"):  # Gin
        parts.append(f"boxes {_seats(v.boxes)}")
    if hasattr(v, "pot"):  # Wiener, Knock Rummy
        parts.append(f"pot {v.pot} paid {_seats(v.chips_paid)} received {_seats(v.chips_received)}")
        if v.knocker is not None:
            parts.append(f"knocker P{v.knocker}" + (" last round" if v.last_round else ""))
    if hasattr(v, "opened"):  # Rommé, Robber
        parts.append("opened " + (" ".join(f"P{p}" for p, o in enumerate(v.opened) if o) or "nobody"))
    if hasattr(v, "passes") and v.passes:  # Robber
        parts.append(f"passes {v.passes}")
    return " | ".join(parts)


def _rummoli_state(game, v) -> str:
    from rumino.variants.rummoli import SECTIONS

    parts = [f"deal {v.hand_number}/{v.deals_total} dealer P{v.dealer}", f"chips {_seats(v.chips)}",
             "sheet " + " ".join(f"{k}={n}" for k, n in zip(SECTIONS, v.board)),
             f"cards {_seats(v.hand_sizes)} widow {v.widow_size} dead {v.dead_size}"]
    if not all(v.in_game):
        parts.append("out " + " ".join(f"P{p}" for p, i in enumerate(v.in_game) if not i))
    if v.widow_to is not None:
        parts.append(f"widow to P{v.widow_to} ({v.widow_how})")
    if v.high_bidder is not None:
        parts.append(f"bid {v.high_bid} by P{v.high_bidder}")
    if v.phase == "betting":
        folded = " ".join(f"P{p}" for p, f in enumerate(v.folded) if f)
        parts.append(f"bet {v.bet_level} committed {_seats(v.committed)} raises {v.raises}"
                     + (f" folded {folded}" if folded else ""))
    if v.poker_winners:
        parts.append(f"poker to {' '.join(f'P{p}' for p in v.poker_winners)} ({v.poker_how})")
    if v.phase in ("stops", "claim"):
        lead = v.lead_colour or "any"
        parts.append(f"need {format_card(v.need)}" if v.need is not None else f"lead {lead}")
    if v.claimable:
        parts.append("claimable " + " ".join(v.claimable))
    return " | ".join(parts)


def state_line(game) -> str:
    """The public state now, on one line (read from seat 0's view: what every seat sees alike)."""
    v = game.view(0)
    actor = f" P{game.to_act}" if game.to_act is not None else ""
    body = _rummoli_state(game, v) if hasattr(v, "board") else _table_state(game, v)
    return f"{game.phase}{actor} | {body}"


def _result_line(r) -> str:
    parts = [r.describe()]
    for name in ("deadwood", "deltas", "money", "payments", "fines", "chips", "scores"):
        value = getattr(r, name, ())
        if value and any(x for x in value):
            parts.append(f"{name} {_seats(value)}")
    if getattr(r, "won", ()):
        parts.append("won " + " ".join(f"{sec}:P{p}+{n}" for sec, p, n in r.won))
    if getattr(r, "winner", None) is not None and getattr(r, "points", None) is not None:
        parts.append(f"P{r.winner} scores {r.points}")
    return "= " + " | ".join(parts)


def _final_line(res) -> str:
    parts = [f"game over: winners {' '.join(f'P{p}' for p in res.winners)} ({res.how})"]
    for name in ("totals", "boxes", "penalties", "chips"):
        if getattr(res, name, None):
            parts.append(f"{name} {_seats(getattr(res, name))}")
    if res.pool_cents or any(res.payouts_cents):
        parts.append(f"pool_cents {res.pool_cents} payouts_cents {_seats(res.payouts_cents)}")  # as records name them
    return "= " + " | ".join(parts)


class _Writer:
    """Lines for one game: what changed since the last step (hands, table, results)."""

    def __init__(self):
        self.hands: dict[int, str] = {}
        self.table = ""
        self.results = 0

    def news(self, game) -> list[str]:
        out = []
        v0 = game.view(0)
        for s in range(len(v0.hand_sizes)):
            h = _hand(game.view(s).hand)
            if self.hands.get(s) != h:
                self.hands[s] = h
                out.append(f"     P{s}: {h}")
        if hasattr(v0, "table"):
            t = " | ".join(map(str, v0.table)) or "(empty)"
            if t != self.table:
                self.table = t
                out.append(f"     table: {t}")
        while self.results < len(game.results):
            out.append("     " + _result_line(game.results[self.results]))
            self.results += 1
        if game.result is not None and game.game_over:
            out.append("     " + _final_line(game.result))
        return out


def playthrough(case: dict, record: dict, on_step=None) -> list[str]:
    """The playthrough text of ``record`` (a JSON dict), replayed through the checked ``apply``.

    Checks the invariants after every action (an AssertionError if one breaks). An action the
    game refuses, or one by the wrong seat, ends the text with a line that says so, and a record
    that stops before the game ends lacks the result lines: the comparison then shows that step.
    ``on_step(i, game)`` is called after step ``i`` (0: before any action), e.g. to compare old digests.
    """
    rec = loads_record(record)
    game = replay(rec, upto=0)
    w = _Writer()
    lines = header(case, record) + [f"{0:>4} {'':5} {'(start)':24} -> {state_line(game)}"] + w.news(game)
    if on_step:
        on_step(0, game)
    deep = rec.variant != "gin"  # Gin's deep check re-solves every hand: the shallow one, as before
    for i, (actor, action) in enumerate(rec.actions, start=1):
        step = f"{i:>4} {_who(actor):5} {action!s:24} -> "
        expected = TABLE if type(action) in game.TABLE_ACTIONS else game.to_act
        if actor != expected:
            return lines + [step + f"REFUSED: {_who(expected)} is to act, not {_who(actor)}"]
        try:
            game.apply(action)
        except IllegalActionError as err:
            return lines + [step + f"REFUSED: {err}"]
        game.check_invariants(deep=deep)
        lines.append(step + state_line(game))
        lines.extend(w.news(game))
        if on_step:
            on_step(i, game)
    if list(game.scores) != record["result"]["scores"]:
        lines.append(f"     = the record's final scores {_seats(record['result']['scores'])} are not the replay's")
    return lines
